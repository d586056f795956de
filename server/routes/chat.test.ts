import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { chatEventSchema, type ChatEvent } from '../../src/contract/chat';
import { AgentError, type AgentRuntime, type StreamAnswerInput } from '../agents/runtime';
import { openHarness, type TestApp } from '../test/harness';

const CHAT = '/api/workflow/sse/agent/chat';
const CREATE = '/api/workflow/im/conversation/create';
const MESSAGES = '/api/workflow/agent-im/messages';
const DETAIL = '/api/workflow/agent-im/conversation/detail';
const AGENT = 'SpecialNoAgentFallback';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

function parseEvents(text: string): ChatEvent[] {
  return text
    .split('\n\n')
    .flatMap((block) => block.split('\n').filter((line) => line.startsWith('data: ')))
    .map((line) => v.parse(chatEventSchema, JSON.parse(line.slice(6))));
}

const chat = (t: TestApp, headers: Record<string, string>, body: Record<string, unknown>, subPath = '') =>
  t.raw(CHAT + subPath, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function newConversation(t: TestApp, headers: Record<string, string>, sourceId = AGENT) {
  return (await t.post(CREATE, { sourceId }, headers)).body.data.conversationId as string;
}

const messagesOf = async (t: TestApp, headers: Record<string, string>, conversationId: string) =>
  (await t.get(MESSAGES, { conversationId }, headers)).body.data as { messageId: string; role: string; content: string; status: string; error?: string; files: unknown[]; createdAt: string }[];

/** A runtime that says what it is told, then fails, hangs or ends as the test wants. */
function scriptedRuntime(pieces: string[], then: 'end' | 'fail' | 'hang' = 'end', seen: StreamAnswerInput[] = []): AgentRuntime {
  return {
    label: 'scripted',
    async *streamAnswer(input) {
      seen.push(input);
      for (const piece of pieces) yield piece;
      if (then === 'fail') throw new AgentError('The model service answered HTTP 503: overloaded.');
      if (then === 'hang') {
        await new Promise<void>((resolve) => input.signal.addEventListener('abort', () => resolve()));
      }
    },
  };
}

async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not reached');
}

describe('chat stream', () => {
  it('stores the question, streams the answer and ends with both message ids', async () => {
    const seen: StreamAnswerInput[] = [];
    const t = h.makeApp({ runtime: scriptedRuntime(['Hello', ', ', 'world'], 'end', seen) });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const before = (await t.get(DETAIL, { conversationId }, visitor)).body.data.updatedAt;
    t.clock.advance(5000);
    const response = await chat(t, visitor, { conversationId, agentId: AGENT, text: 'Say hello' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const events = parseEvents(await response.text());
    const start = events[0] as Extract<ChatEvent, { type: 'start' }>;
    expect(start).toMatchObject({ type: 'start', conversationId });
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).toBe('Hello, world');
    expect(events.at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, start.replyMessageId] });

    const stored = await messagesOf(t, visitor, conversationId);
    expect(stored).toMatchObject([
      { messageId: start.userMessageId, role: 'user', content: 'Say hello', status: 'complete' },
      { messageId: start.replyMessageId, role: 'assistant', content: 'Hello, world', status: 'complete' },
    ]);
    // the start says when each was stored, as reading them again does
    expect(start.userMessageCreatedAt).toBe(t.clock.now().toISOString());
    expect([start.userMessageCreatedAt, start.replyMessageCreatedAt]).toEqual(stored.map((message) => message.createdAt));
    expect((await t.get(DETAIL, { conversationId }, visitor)).body.data.updatedAt).not.toBe(before);
    expect(seen[0]!.agent.systemPrompt).toMatch(/Kraken Assistant/);
    expect(seen[0]!.history).toEqual([{ role: 'user', content: 'Say hello' }]);
  });

  it('joins a burst of thousands of tokens into a few events, the same text, and resumes at the exact offset', async () => {
    const tokens = Array.from({ length: 5000 }, (_, index) => `w${index} `);
    const t = h.makeApp({ runtime: scriptedRuntime(tokens) });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const events = parseEvents(await (await chat(t, visitor, { conversationId, agentId: AGENT, text: 'All at once' })).text());
    const deltas = events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text);
    expect(deltas.join('')).toBe(tokens.join(''));
    expect(deltas.length).toBeLessThan(tokens.length / 100);
    const start = events[0] as Extract<ChatEvent, { type: 'start' }>;
    expect(events.at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, start.replyMessageId] });

    const [, reply] = await messagesOf(t, visitor, conversationId);
    expect(reply!.content).toBe(tokens.join(''));
    // Read again from inside one of the joined events: the text from exactly there.
    const offset = 12_345;
    const resumed = parseEvents(await (await chat(t, visitor, { conversationId, messageId: start.replyMessageId, offset }, '/resume')).text());
    expect(resumed[0]).toEqual({ type: 'resume', messageId: start.replyMessageId, offset });
    expect(resumed.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).toBe(tokens.join('').slice(offset));
  });

  it('gives the agent the conversation so far', async () => {
    const seen: StreamAnswerInput[] = [];
    const t = h.makeApp({ runtime: scriptedRuntime(['ok'], 'end', seen) });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    await (await chat(t, visitor, { conversationId, agentId: AGENT, text: 'one' })).text();
    await (await chat(t, visitor, { conversationId, agentId: AGENT, text: 'two' })).text();
    expect(seen[1]!.history).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'two' },
    ]);
  });

  it('streams the offline responder when no model is configured', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const events = parseEvents(await (await chat(t, visitor, { conversationId, agentId: AGENT, text: '你好，介绍一下你自己' })).text());
    const [, reply] = await messagesOf(t, visitor, conversationId);
    expect(events.filter((e) => e.type === 'delta').map((e) => (e as { text: string }).text).join('')).toBe(reply!.content);
    expect(reply!.content).toContain('LLM_BASE_URL');
    expect(reply!.content).toContain('离线应答器');
  });

  it('answers offline in the language the person reads the product in (Accept-Language)', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    for (const [accept, words] of [
      ['fr-FR', 'Aucun modèle de langage n’est configuré'],
      ['de-DE,de;q=0.9', 'kein Sprachmodell eingerichtet'],
      ['ja', '言語モデルが設定されていない'],
      ['es-ES, fr;q=0.5', 'Aucun modèle de langage'],
      ['zh-CN', '服务器尚未配置语言模型'],
    ] as const) {
      const conversationId = await newConversation(t, visitor);
      await (await chat(t, { ...visitor, 'accept-language': accept }, { conversationId, agentId: AGENT, text: 'What can you do?' })).text();
      const [, reply] = await messagesOf(t, visitor, conversationId);
      expect(reply!.content, accept).toContain(words);
    }
    // a language the product does not have: English, as the question is
    const conversationId = await newConversation(t, visitor);
    await (await chat(t, { ...visitor, 'accept-language': 'es-ES' }, { conversationId, agentId: AGENT, text: 'What can you do?' })).text();
    expect((await messagesOf(t, visitor, conversationId))[1]!.content).toContain('No language model is configured');
  });

  it('hands the agent the language the person reads in', async () => {
    const seen: StreamAnswerInput[] = [];
    const t = h.makeApp({ runtime: scriptedRuntime(['ok'], 'end', seen) });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    await (await chat(t, { ...visitor, 'accept-language': 'de-AT' }, { conversationId, agentId: AGENT, text: 'Hallo' })).text();
    expect(seen[0]!.language).toBe('de-DE');
  });

  it('sends an error event with a reference and stores the answer as failed when the agent fails', async () => {
    const t = h.makeApp({ runtime: scriptedRuntime(['Partial '], 'fail') });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const response = await chat(t, visitor, { conversationId, agentId: AGENT, text: 'Will this work?' });
    expect(response.status).toBe(200);
    const events = parseEvents(await response.text());
    const failure = events.at(-1) as Extract<ChatEvent, { type: 'error' }>;
    expect(failure).toEqual({ type: 'error', msg: `The agent could not answer this time. Please try again. (ref ${failure.ref})`, ref: expect.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/) });
    expect(events.some((e) => e.type === 'end')).toBe(false);
    const [question, reply] = await messagesOf(t, visitor, conversationId);
    expect(question).toMatchObject({ status: 'complete', content: 'Will this work?' });
    expect(reply).toMatchObject({ status: 'failed', content: 'Partial ', error: failure.msg });
    expect(t.logs.find((line) => line.includes(`ref ${failure.ref}`))).toContain('HTTP 503: overloaded');
  });

  it('hides unexpected agent crashes behind a readable message', async () => {
    const runtime: AgentRuntime = {
      label: 'broken',
      // eslint-disable-next-line require-yield
      async *streamAnswer() {
        throw new TypeError('cannot read properties of undefined');
      },
    };
    const t = h.makeApp({ runtime });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const events = parseEvents(await (await chat(t, visitor, { conversationId, agentId: AGENT, text: 'hi' })).text());
    const failure = events.at(-1) as Extract<ChatEvent, { type: 'error' }>;
    expect(failure.msg).toBe(`The agent could not answer this time. Please try again. (ref ${failure.ref})`);
    expect(t.logs.find((line) => line.includes(`ref ${failure.ref}`))).toContain('cannot read properties');
  });

  it('stores the text of an answer as it streams, once per interval rather than per token', async () => {
    // A token every 20 ms; the answer's text is stored (and then shown) every 400 ms.
    const runtime: AgentRuntime = {
      label: 'steady',
      async *streamAnswer(input) {
        for (let i = 0; !input.signal.aborted; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          yield `t${i} `;
        }
      },
    };
    const t = h.makeApp({ runtime, config: { answerCommitMs: 400 } });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const response = await chat(t, visitor, { conversationId, agentId: AGENT, text: 'Count for me' });
    const reader = response.body!.getReader();
    // Read as a browser would, so the stream flows at the agent's pace.
    void (async () => {
      while (!(await reader.read().catch(() => ({ done: true }))).done);
    })();
    const stored = async () => (await messagesOf(t, visitor, conversationId))[1]!;
    const seen = new Set<string>();
    const started = Date.now();
    while (Date.now() - started < 1500) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const reply = await stored();
      expect(reply.status).toBe('streaming');
      seen.add(reply.content);
    }
    await chat(t, visitor, { conversationId, messageId: (await stored()).messageId }, '/stop');
    await reader.cancel();
    // Some 70 tokens went by; the stored text changed only at the saves (about 3 of them).
    expect(seen.size).toBeGreaterThanOrEqual(3);
    expect(seen.size).toBeLessThanOrEqual(6);
    expect([...seen].at(-1)).toMatch(/^t0 t1 t2 /);
  });

  it('retries a failed answer without storing the question twice', async () => {
    const visitor = h.visitor();
    const failing = h.makeApp({ runtime: scriptedRuntime(['half'], 'fail') });
    const conversationId = await newConversation(failing, visitor);
    const first = parseEvents(await (await chat(failing, visitor, { conversationId, agentId: AGENT, text: 'Question?' })).text());
    const start = first[0] as Extract<ChatEvent, { type: 'start' }>;

    const seen: StreamAnswerInput[] = [];
    const working = h.makeApp({ runtime: scriptedRuntime(['Full answer'], 'end', seen) });
    const retry = parseEvents(
      await (await chat(working, visitor, { conversationId, agentId: AGENT, retryMessageId: start.userMessageId })).text(),
    );
    expect(retry[0]).toMatchObject({ type: 'start', userMessageId: start.userMessageId, userMessageCreatedAt: start.userMessageCreatedAt });
    expect(retry.at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, (retry[0] as { replyMessageId: string }).replyMessageId] });
    expect(seen[0]!.history).toEqual([{ role: 'user', content: 'Question?' }]);
    const stored = await messagesOf(working, visitor, conversationId);
    expect(stored.map((m) => `${m.role}:${m.status}:${m.content}`)).toEqual(['user:complete:Question?', 'assistant:complete:Full answer']);
    // the answer written again in place is stored anew, and the start said when
    expect((retry[0] as { replyMessageCreatedAt: string }).replyMessageCreatedAt).toBe(stored[1]!.createdAt);

    const again = await chat(working, visitor, { conversationId, agentId: AGENT, retryMessageId: start.userMessageId });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 1, msg: 'This question already has a complete answer.' });
  });

  it('a retry that arrives before the server noticed the stop replaces the answer still being written', async () => {
    // The first answer hangs until it is stopped; the retry's answer ends.
    let calls = 0;
    const runtime: AgentRuntime = {
      label: 'scripted',
      async *streamAnswer(input) {
        calls += 1;
        if (calls === 1) {
          yield 'cut';
          await new Promise<void>((resolve) => input.signal.addEventListener('abort', () => resolve()));
          return;
        }
        yield 'whole';
      },
    };
    const t = h.makeApp({ runtime });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const first = await chat(t, visitor, { conversationId, agentId: AGENT, text: 'Q' });
    const reader = first.body!.getReader();
    let text = '';
    while (!text.includes('"cut"')) text += new TextDecoder().decode((await reader.read()).value);
    const start = parseEvents(text)[0] as Extract<ChatEvent, { type: 'start' }>;

    // Someone else cannot stop it: their retry is refused and the answer goes on.
    const stranger = await chat(t, h.visitor(), { conversationId, agentId: AGENT, retryMessageId: start.userMessageId });
    expect(stranger.status).toBe(404);

    // The owner's retry, with the first stream still open on the server's side.
    const retry = await chat(t, visitor, { conversationId, agentId: AGENT, retryMessageId: start.userMessageId });
    expect(retry.status).toBe(200);
    expect(parseEvents(await retry.text()).at(-1)?.type).toBe('end');
    expect((await messagesOf(t, visitor, conversationId)).map((m) => `${m.status}:${m.content}`)).toEqual(['complete:Q', 'complete:whole']);
    await reader.cancel();
  });

  it('retries an incomplete answer too', async () => {
    const visitor = h.visitor();
    const hanging = h.makeApp({ runtime: scriptedRuntime(['cut'], 'hang') });
    const conversationId = await newConversation(hanging, visitor);
    const response = await chat(hanging, visitor, { conversationId, agentId: AGENT, text: 'Q' });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('"cut"')) text += new TextDecoder().decode((await reader.read()).value);
    const start = parseEvents(text)[0] as Extract<ChatEvent, { type: 'start' }>;
    const stopped = await chat(hanging, visitor, { conversationId, messageId: start.replyMessageId }, '/stop');
    expect(stopped.status).toBe(200);
    await reader.cancel();
    const [question] = await waitFor(
      () => messagesOf(hanging, visitor, conversationId),
      (list) => list[1]?.status === 'incomplete',
    );
    const working = h.makeApp({ runtime: scriptedRuntime(['whole']) });
    const retry = await chat(working, visitor, { conversationId, agentId: AGENT, retryMessageId: question!.messageId });
    expect(parseEvents(await retry.text()).at(-1)?.type).toBe('end');
    expect((await messagesOf(working, visitor, conversationId)).map((m) => m.content)).toEqual(['Q', 'whole']);
  });

  it('sends a heartbeat comment while the agent is thinking', async () => {
    const runtime: AgentRuntime = {
      label: 'slow',
      async *streamAnswer() {
        await new Promise((r) => setTimeout(r, 80));
        yield 'done';
      },
    };
    const t = h.makeApp({ runtime, config: { sseHeartbeatMs: 20 } });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const text = await (await chat(t, visitor, { conversationId, agentId: AGENT, text: 'slow please' })).text();
    expect(text).toContain(': ping\n\n');
    expect(parseEvents(text).at(-1)?.type).toBe('end');
  });
});

describe('chat refusals answer JSON with a 4xx status, before any stream', () => {
  it('refuses bad input', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const cases: [unknown, number][] = [
      [{ conversationId, agentId: AGENT }, 400],
      [{ conversationId, agentId: AGENT, text: '   ' }, 400],
      [{ conversationId, agentId: AGENT, text: 'x'.repeat(8001) }, 400],
      [{ conversationId, text: 'hi' }, 400],
      [{ conversationId, agentId: AGENT, text: 123 }, 400],
      ['{not json', 400],
    ];
    for (const [body, status] of cases) {
      const response = await t.raw(CHAT, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...visitor },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toMatchObject({ code: 1, success: false });
    }
    expect(await messagesOf(t, visitor, conversationId)).toEqual([]);
  });

  it("refuses another owner's conversation and message as not found", async () => {
    const t = h.makeApp();
    const owner = await h.loggedIn(t);
    const conversationId = await newConversation(t, owner.headers);
    await (await chat(t, owner.headers, { conversationId, agentId: AGENT, text: 'mine' })).text();
    const [question] = await messagesOf(t, owner.headers, conversationId);
    const stranger = (await h.loggedIn(t)).headers;
    const asStranger = await chat(t, stranger, { conversationId, agentId: AGENT, text: 'let me in' });
    expect(asStranger.status).toBe(404);
    expect(await asStranger.json()).toMatchObject({ code: 1, msg: 'Conversation not found' });
    const strangersOwn = await newConversation(t, stranger);
    const retryOther = await chat(t, stranger, { conversationId: strangersOwn, agentId: AGENT, retryMessageId: question!.messageId });
    expect(retryOther.status).toBe(404);
    expect(await messagesOf(t, owner.headers, conversationId)).toHaveLength(2);
  });

  it('needs an identity, a visible agent, and the conversation’s own agent', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    expect((await chat(t, {}, { conversationId, agentId: AGENT, text: 'hi' })).status).toBe(401);
    expect((await chat(t, { authorization: 'Bearer nonsense-token-that-is-long' }, { conversationId, agentId: AGENT, text: 'hi' })).status).toBe(401);
    expect((await chat(t, visitor, { conversationId, agentId: 'sql-helper', text: 'hi' })).status).toBe(400);
    const draft = await chat(t, visitor, { conversationId, agentId: 'draft-seo-writer', text: 'hi' });
    expect([400, 404]).toContain(draft.status);
  });

  it('accepts only files the sender uploaded', async () => {
    const t = h.makeApp();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const upload = async (headers: Record<string, string>) => {
      const form = new FormData();
      form.set('file', new File([png], 'photo.png', { type: 'image/png' }));
      return (await (await t.raw('/api/media/upload', { method: 'POST', body: form, headers })).json()).data;
    };
    const me = h.visitor();
    const someoneElse = h.visitor();
    const mine = await upload(me);
    const theirs = await upload(someoneElse);
    const conversationId = await newConversation(t, me);
    const refused = await chat(t, me, { conversationId, agentId: AGENT, text: 'look', files: [theirs] });
    expect(refused.status).toBe(404);
    expect((await refused.json()).msg).toMatch(/not found among your uploads/);
    const forged = { ...mine, name: 'evil.exe', url: 'https://evil.example/x', kind: 'other' };
    const accepted = await chat(t, me, { conversationId, agentId: AGENT, files: [forged] });
    expect(accepted.status).toBe(200);
    await accepted.text();
    const [question] = await messagesOf(t, me, conversationId);
    expect(question!.files).toEqual([mine]);
    expect((await t.get(DETAIL, { conversationId }, me)).body.data.title).toBe('photo.png');
  });
});
