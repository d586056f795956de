import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import type { AgentRuntime, StreamAnswerInput } from '../agents/runtime';
import { defaultConfig, type ServerConfig } from '../config';
import { openHarness, type TestApp } from './harness';

/** What one visitor, account or address may cost: questions, answers at once, upload bytes, and what the model is sent. */

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const AGENT = 'SpecialNoAgentFallback';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type Headers = Record<string, string>;

const newConversation = async (t: TestApp, who: Headers) =>
  (await t.post(endpoints.conversationCreate.path, { sourceId: AGENT }, who)).body.data.conversationId as string;

/** Asks one question and reads the answer to its end; answers the status, and the refusal if any. */
async function ask(t: TestApp, who: Headers, text = 'Hello?', conversationId?: string) {
  const response = await t.raw(endpoints.chat.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...who },
    body: JSON.stringify({ conversationId: conversationId ?? (await newConversation(t, who)), agentId: AGENT, text }),
  });
  const body = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), msg: response.status === 200 ? '' : (JSON.parse(body).msg as string) };
}

const withQuotas = (config: Partial<ServerConfig>) => ({ config });

describe('questions', () => {
  it('gives a visitor 20 a minute by default, then answers 429 saying which quota and when, with Retry-After', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    for (let i = 0; i < 20; i++) expect((await ask(t, visitor, `Q${i}`, conversationId)).status).toBe(200);
    const refused = await ask(t, visitor, 'One more', conversationId);
    expect(refused).toEqual({
      status: 429,
      retryAfter: '60',
      msg: 'You have reached the limit of 20 questions a minute for a visitor. Please wait 60 seconds and try again.',
    });
    // The refused question was not stored.
    const stored = await t.get(endpoints.messages.path, { conversationId }, visitor);
    expect(stored.body.data.map((m: { content: string }) => m.content)).not.toContain('One more');
    t.clock.advance(MINUTE);
    expect((await ask(t, visitor, 'Now?', conversationId)).status).toBe(200);
  });

  it('holds a visitor to a day’s questions however they are spread over minutes', async () => {
    const t = h.makeApp(withQuotas({ visitorQuotas: { ...defaultConfig.visitorQuotas, questionsPerDay: 3 } }));
    const visitor = h.visitor();
    for (let i = 0; i < 3; i++) {
      expect((await ask(t, visitor)).status).toBe(200);
      t.clock.advance(10 * MINUTE);
    }
    const refused = await ask(t, visitor);
    expect(refused.status).toBe(429);
    expect(refused.msg).toMatch(/^You have reached the limit of 3 questions a day for a visitor\. Please wait \d+ seconds and try again\.$/);
    expect(Number(refused.retryAfter)).toBe(DAY / 1000 - 30 * 60);
    t.clock.advance(DAY);
    expect((await ask(t, visitor)).status).toBe(200);
  });

  it('counts visitors who make up a new id for every question against their address', async () => {
    const t = h.makeApp(withQuotas({ addressQuotas: { ...defaultConfig.addressQuotas, questionsPerMinute: 4 } }));
    for (let i = 0; i < 4; i++) expect((await ask(t, h.visitor())).status).toBe(200);
    const refused = await ask(t, h.visitor());
    expect(refused.status).toBe(429);
    expect(refused.msg).toMatch(/limit of 4 questions a minute from one address/);
    // Another address is not held to it.
    expect((await ask(h.makeApp({ clock: t.clock }), h.visitor())).status).toBe(200);
  });

  it('counts every address of one IPv6 /64 as one address, as a host may change address within it at will', async () => {
    const config: Partial<ServerConfig> = { addressQuotas: { ...defaultConfig.addressQuotas, questionsPerMinute: 2 } };
    const first = h.makeApp({ config, address: '2001:db8:4b1d:7::1' });
    const sameHost = h.makeApp({ config, clock: first.clock, address: '2001:db8:4b1d:7:c0ff:ee00:1234:5678' });
    expect((await ask(first, h.visitor())).status).toBe(200);
    expect((await ask(sameHost, h.visitor())).status).toBe(200);
    const refused = await ask(h.makeApp({ config, clock: first.clock, address: '2001:0db8:4b1d:0007::9' }), h.visitor());
    expect(refused.status).toBe(429);
    expect(refused.msg).toMatch(/limit of 2 questions a minute from one address/);
    // The next /64 is someone else's.
    expect((await ask(h.makeApp({ config, clock: first.clock, address: '2001:db8:4b1d:8::1' }), h.visitor())).status).toBe(200);
  });

  it('gives a signed-in user more than a visitor', async () => {
    const t = h.makeApp(
      withQuotas({
        visitorQuotas: { ...defaultConfig.visitorQuotas, questionsPerMinute: 2 },
        userQuotas: { ...defaultConfig.userQuotas, questionsPerMinute: 4 },
      }),
    );
    const visitor = h.visitor();
    const user = (await h.loggedIn(t)).headers;
    const visitorStatuses = [];
    const userStatuses = [];
    for (let i = 0; i < 5; i++) {
      visitorStatuses.push((await ask(t, visitor)).status);
      userStatuses.push((await ask(t, user)).status);
    }
    expect(visitorStatuses).toEqual([200, 200, 429, 429, 429]);
    expect(userStatuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('defaults to what a public demo survives', () => {
    expect(defaultConfig.visitorQuotas).toMatchObject({ questionsPerMinute: 20, questionsPerDay: 200 });
    expect(defaultConfig.userQuotas).toMatchObject({ questionsPerMinute: 60, questionsPerDay: 2000 });
    expect(defaultConfig.addressQuotas).toMatchObject({ questionsPerMinute: 60, questionsPerDay: 1000 });
    expect(defaultConfig.streamingAnswersPerIdentity).toBe(2);
    expect(defaultConfig.visitorQuotas.uploadBytesPerDay).toBe(100 * 1024 * 1024);
    expect(defaultConfig.visitorQuotas.storedBytes).toBe(500 * 1024 * 1024);
  });
});

/** A model that holds every answer open until the test lets them all go. */
function heldRuntime() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const runtime: AgentRuntime & { started: number } = {
    label: 'held',
    started: 0,
    async *streamAnswer() {
      runtime.started += 1;
      yield 'Thinking';
      await released;
      yield ' done.';
    },
  };
  return { runtime, release };
}

describe('answers streaming at once', () => {
  it('lets one visitor have 2 answers streaming, whatever the burst, and more once one ends', async () => {
    const held = heldRuntime();
    const t = h.makeApp({ runtime: held.runtime });
    const visitor = h.visitor();
    const conversations = await Promise.all(Array.from({ length: 10 }, () => newConversation(t, visitor)));
    const burst = conversations.map((conversationId) =>
      t.raw(endpoints.chat.path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...visitor },
        body: JSON.stringify({ conversationId, agentId: AGENT, text: 'Long one' }),
      }),
    );
    const responses = await Promise.all(burst);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(2);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(8);
    expect(refused[0]!.headers.get('retry-after')).toBe('10');
    expect((await refused[0]!.json()).msg).toBe(
      'You have reached the limit of 2 answers being written at once. Please wait 10 seconds and try again.',
    );
    // Another visitor is not affected.
    const other = h.visitor();
    const theirs = t.raw(endpoints.chat.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...other },
      body: JSON.stringify({ conversationId: await newConversation(t, other), agentId: AGENT, text: 'Mine' }),
    });
    expect((await theirs).status).toBe(200);
    held.release();
    await Promise.all(responses.filter((r) => r.status === 200).map((r) => r.text()));
    expect((await ask(t, visitor)).status).toBe(200);
    // The refused questions cost nothing: 3 asked, 2 of them by this visitor, plus one now.
    expect(held.runtime.started).toBe(4);
  });
});

const upload = async (t: TestApp, who: Headers, size: number) => {
  const form = new FormData();
  form.set('file', new File([new Uint8Array(size)], 'data.bin', { type: 'application/octet-stream' }));
  const response = await t.raw(endpoints.upload.path, { method: 'POST', body: form, headers: who });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), msg: ((await response.json()) as { msg: string }).msg };
};

const KB = 1024;

describe('uploads', () => {
  it('hold a visitor to the bytes of a day, then refuse with when to try again', async () => {
    const t = h.makeApp(withQuotas({ visitorQuotas: { ...defaultConfig.visitorQuotas, uploadBytesPerDay: 10 * KB } }));
    const visitor = h.visitor();
    expect((await upload(t, visitor, 6 * KB)).status).toBe(200);
    const refused = await upload(t, visitor, 6 * KB);
    expect(refused).toMatchObject({ status: 429, retryAfter: String(DAY / 1000) });
    expect(refused.msg).toMatch(/^You have reached the limit of 10 KB of uploads a day for a visitor\. Please wait 86400 seconds/);
    expect((await upload(t, visitor, 4 * KB)).status).toBe(200);
    expect((await upload(t, visitor, 1)).status).toBe(429);
    t.clock.advance(DAY);
    expect((await upload(t, visitor, 6 * KB)).status).toBe(200);
  });

  it('hold a visitor to what they may keep stored, even uploading many files at once', async () => {
    const t = h.makeApp(withQuotas({ visitorQuotas: { ...defaultConfig.visitorQuotas, storedBytes: 10 * KB } }));
    const visitor = h.visitor();
    const burst = await Promise.all(Array.from({ length: 6 }, () => upload(t, visitor, 4 * KB)));
    expect(burst.filter((reply) => reply.status === 200)).toHaveLength(2);
    const refused = burst.filter((reply) => reply.status === 429);
    expect(refused).toHaveLength(4);
    expect(refused[0]!.msg).toMatch(/^You have reached the limit of 10 KB of stored files for a visitor\./);
    // What was refused did not count against the day: a small file still fits.
    expect((await upload(t, visitor, 2 * KB)).status).toBe(200);
  });

  it('hold the visitors of one IPv6 /64 to one address’s bytes of a day', async () => {
    const config: Partial<ServerConfig> = { addressQuotas: { ...defaultConfig.addressQuotas, uploadBytesPerDay: 10 * KB } };
    const first = h.makeApp({ config, address: '2001:db8:4b1d:9::1' });
    expect((await upload(first, h.visitor(), 6 * KB)).status).toBe(200);
    const sameHost = h.makeApp({ config, clock: first.clock, address: '2001:db8:4b1d:9:ffff::2' });
    const refused = await upload(sameHost, h.visitor(), 6 * KB);
    expect(refused.status).toBe(429);
    expect(refused.msg).toMatch(/^You have reached the limit of 10 KB of uploads a day from one address\./);
  });

  it('give a signed-in user more room than a visitor', async () => {
    const t = h.makeApp(
      withQuotas({
        visitorQuotas: { ...defaultConfig.visitorQuotas, uploadBytesPerDay: 4 * KB },
        userQuotas: { ...defaultConfig.userQuotas, uploadBytesPerDay: 12 * KB },
      }),
    );
    const user = (await h.loggedIn(t)).headers;
    for (let i = 0; i < 3; i++) expect((await upload(t, user, 4 * KB)).status).toBe(200);
    expect((await upload(t, user, 4 * KB)).status).toBe(429);
    const visitor = h.visitor();
    expect((await upload(t, visitor, 4 * KB)).status).toBe(200);
    expect((await upload(t, visitor, 4 * KB)).status).toBe(429);
  });
});

/** A model that records what it is sent and answers "ok". */
function recordingRuntime() {
  const seen: StreamAnswerInput[] = [];
  const runtime: AgentRuntime = {
    label: 'recording',
    async *streamAnswer(input) {
      seen.push(input);
      yield 'ok';
    },
  };
  return { runtime, seen };
}

describe('what the model is sent', () => {
  it('is the newest whole messages that fit the character budget, always with the question', async () => {
    const model = recordingRuntime();
    const t = h.makeApp({ runtime: model.runtime, config: { historyCharBudget: 100 } });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    for (const text of ['a'.repeat(60), 'b'.repeat(30), 'c'.repeat(30)]) expect((await ask(t, visitor, text, conversationId)).status).toBe(200);
    expect((await ask(t, visitor, 'd'.repeat(20), conversationId)).status).toBe(200);
    const sent = model.seen.at(-1)!;
    // Newest first until the next would not fit: d (20) + ok + c (30) + ok + b (30) + ok = 86, and a (60) would
    // pass 100; the answer to a goes too, since the model would read it as its own unprompted words.
    expect(sent.history.map((m) => m.content)).toEqual(['b'.repeat(30), 'ok', 'c'.repeat(30), 'ok', 'd'.repeat(20)]);
    expect(sent.history.reduce((total, m) => total + m.content.length, 0)).toBeLessThanOrEqual(100);
    expect(sent.agent.systemPrompt).toBeTruthy();
  });

  it('refuses with 413 a question longer than the budget by itself, storing nothing', async () => {
    const model = recordingRuntime();
    const t = h.makeApp({ runtime: model.runtime, config: { historyCharBudget: 100 } });
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const refused = await ask(t, visitor, 'x'.repeat(101), conversationId);
    expect(refused.status).toBe(413);
    expect(refused.msg).toBe('The question is too long: at most 100 characters, attachment descriptions included, are sent to the agent.');
    expect((await t.get(endpoints.messages.path, { conversationId }, visitor)).body.data).toEqual([]);
    expect(model.seen).toEqual([]);
  });

  it('is bounded by default to 24,000 characters', () => {
    expect(defaultConfig.historyCharBudget).toBe(24_000);
  });
});
