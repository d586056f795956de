// One visitor of the load figures, as a browser is: its own keep-alive connection, a conversation
// created, one question asked, the stream read to its end. Plain JavaScript, so the bench
// (scripts/bench-load.mjs, run by node) and the TypeScript load tests and soak share it.
//
// Each visitor has a connection of its own: a pool shared by all visitors (global `fetch`) would
// queue one visitor's question behind other visitors' calls in the client, and time that queue
// instead of the server (ADR 016).
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';

/** The contract's paths (src/contract/endpoints.ts); the load test fails if they drift. */
export const CREATE_PATH = '/api/workflow/im/conversation/create';
const CHAT_PATH = '/api/workflow/sse/agent/chat';
const AGENT = 'SpecialNoAgentFallback';

/** The p-th percentile of the finite values (nearest rank); NaN when there are none. */
export const percentile = (values, p) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** One POST on the visitor's connection. `onData` sees the body as it arrives. */
function exchange(agent, baseUrl, path, headers, payload, onData = () => {}) {
  return new Promise((done, fail) => {
    const sent = request(`${baseUrl}${path}`, { method: 'POST', agent, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (piece) => {
        text += piece;
        onData(text);
      });
      response.on('end', () => done({ status: response.statusCode, type: response.headers['content-type'] ?? '', text }));
      response.on('error', fail);
    });
    sent.on('error', fail);
    sent.end(JSON.stringify(payload));
  });
}

/**
 * Creates a conversation, asks once and reads the stream to its end. `onFirst` fires at the
 * first event; `firstEventMs` is from sending the question to it, `totalMs` the whole visit,
 * `askedAt` when the question was sent (`performance.now()`).
 */
export async function oneVisitor(baseUrl, { onFirst = () => {} } = {}) {
  const headers = { 'content-type': 'application/json', 'x-visitor-id': randomUUID() };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const started = performance.now();
  const failed = (error) => ({ ok: false, firstEventMs: NaN, totalMs: performance.now() - started, error });
  try {
    const created = await exchange(agent, baseUrl, CREATE_PATH, headers, { sourceId: AGENT });
    if (created.status !== 200) return failed(`create: HTTP ${created.status}`);
    const conversationId = JSON.parse(created.text).data.conversationId;
    const asked = performance.now();
    let firstEventMs = NaN;
    const answer = await exchange(agent, baseUrl, CHAT_PATH, headers, { conversationId, agentId: AGENT, text: 'How fast is this?' }, (text) => {
      if (Number.isNaN(firstEventMs) && text.includes('data: ')) {
        firstEventMs = performance.now() - asked;
        onFirst();
      }
    });
    if (answer.status !== 200 || !answer.type.startsWith('text/event-stream')) return failed(`chat: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
    const ended = answer.text.includes('"type":"end"');
    return { ok: ended, firstEventMs, askedAt: asked, totalMs: performance.now() - started, ...(ended ? {} : { error: `no end event after: ${answer.text.slice(-200)}` }) };
  } catch (error) {
    return failed(`${error}${error?.code ? ` (${error.code})` : ''}`);
  } finally {
    agent.destroy();
  }
}
