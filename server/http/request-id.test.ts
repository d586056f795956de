import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, type TestApp } from '../test/harness';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const AGENT = 'SpecialNoAgentFallback';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const requestLine = (t: TestApp, path: string) => t.records.find((record) => record.msg.startsWith(`GET ${path} `));

describe('the request id', () => {
  it("is the proxy's X-Request-Id when it is a safe short token, echoed, and on the request's log line", async () => {
    const t = h.makeApp();
    const response = await t.raw('/api/workflow/agent/detail?agentId=SpecialNoAgentFallback', { headers: { 'x-request-id': 'nginx-5f0c9a.42' } });
    expect(response.headers.get('x-request-id')).toBe('nginx-5f0c9a.42');
    expect(requestLine(t, '/api/workflow/agent/detail')?.requestId).toBe('nginx-5f0c9a.42');
  });

  it('is made when none is sent, or the one sent is not a safe short token', async () => {
    const t = h.makeApp();
    const made = await t.raw('/api/workflow/agent/detail?agentId=SpecialNoAgentFallback');
    expect(made.headers.get('x-request-id')).toMatch(UUID);
    for (const unsafe of ['has space', '<script>', 'x'.repeat(65), '"quoted"']) {
      const response = await t.raw('/healthz', { headers: { 'x-request-id': unsafe } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
    expect(requestLine(t, '/api/workflow/agent/detail')?.requestId).toBe(made.headers.get('x-request-id'));
  });

  it('is on every line written by the work of its request, and only there', async () => {
    const t = h.makeApp({ instanceId: 'instance-7' });
    const visitor = h.visitor();
    const conversationId = (await t.post('/api/workflow/im/conversation/create', { sourceId: AGENT }, visitor)).body.data.conversationId;
    t.clearLogs();
    const chat = await t.raw('/api/workflow/sse/agent/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'ask-1', ...visitor },
      body: JSON.stringify({ conversationId, agentId: AGENT, text: 'hello there' }),
    });
    await t.raw('/api/workflow/agent/detail?agentId=SpecialNoAgentFallback', { headers: { 'x-request-id': 'detail-2' } });
    const text = await chat.text();
    expect(t.records.map((record) => [record.requestId, record.msg.split(' ')[0]])).toEqual([
      ['ask-1', 'POST'],
      ['detail-2', 'GET'],
      ['ask-1', 'answer:'],
    ]);
    for (const record of t.records) {
      expect(record.instance).toBe('instance-7');
      expect(record.level).toBe('info');
      expect(new Date(record.time).toISOString()).toBe(record.time);
    }
    // The answer's line: how long, how it ended, how many characters and tokens.
    const answer = t.records.find((record) => record.msg.startsWith('answer:'))!;
    const deltas = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; text?: string; usage?: { promptTokens: number; completionTokens: number } });
    const shown = deltas.map((event) => event.text ?? '').join('');
    const usage = deltas.find((event) => event.type === 'end')?.usage;
    expect(answer).toMatchObject({ outcome: 'complete', chars: shown.length });
    expect(answer.durationMs).toEqual(expect.any(Number));
    expect(answer.promptTokens).toBe(usage?.promptTokens ?? null);
    expect(answer.completionTokens).toBe(usage?.completionTokens ?? null);
    expect(answer.msg).toMatch(new RegExp(`^answer: complete after \\d+ ms, ${shown.length} characters`));
  });

  it('a server error is written at the error level', async () => {
    const t = h.makeApp();
    t.app.get('/boom', () => {
      throw new Error('broken');
    });
    expect((await t.raw('/boom')).status).toBe(500);
    expect(t.records.find((record) => record.msg.startsWith('error: ref'))?.level).toBe('error');
  });
});
