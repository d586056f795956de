import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRuntime } from '../agents/runtime';
import { cleanTitle } from '../services/conversation-title';
import { openHarness, type TestApp } from '../test/harness';

const CHAT = '/api/workflow/sse/agent/chat';
const CREATE = '/api/workflow/im/conversation/create';
const DETAIL = '/api/workflow/agent-im/conversation/detail';
const AGENT = 'SpecialNoAgentFallback';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

/** Answers every question the same, and names conversations as the test says (recording the asks). */
const namingRuntime = (name: (question: string) => Promise<string | null>, asked: string[] = []): AgentRuntime => ({
  label: 'naming',
  async *streamAnswer() {
    yield 'A vector database stores embeddings and finds the nearest ones.';
  },
  async nameConversation({ question }) {
    asked.push(question);
    return name(question);
  },
});

const ask = async (t: TestApp, headers: Record<string, string>, conversationId: string, text: string) => {
  const reply = await t.raw(CHAT, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ conversationId, agentId: AGENT, text }) });
  expect(await reply.text()).toContain('"type":"end"');
};
const titleOf = async (t: TestApp, headers: Record<string, string>, conversationId: string) =>
  (await t.get(DETAIL, { conversationId }, headers)).body.data.title as string;
const eventually = async (read: () => Promise<string>, expected: string) => {
  for (let i = 0; i < 100 && (await read()) !== expected; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await read()).toBe(expected);
};

describe("a conversation's title", () => {
  it("becomes the model's short title after the first answer, replacing the question's first words", async () => {
    const asked: string[] = [];
    const t = h.makeApp({ runtime: namingRuntime(async () => '"Vector Databases Explained."', asked) });
    const headers = h.visitor();
    const question = 'Explain vector databases in simple terms for a beginner who knows SQL';
    const created = await t.post(CREATE, { sourceId: AGENT, title: 'Explain vector databases in simple terms for a beginner who…', titleBy: 'question' }, headers);
    const { conversationId } = created.body.data as { conversationId: string };
    await ask(t, headers, conversationId, question);
    await eventually(() => titleOf(t, headers, conversationId), 'Vector Databases Explained');
    expect(asked).toEqual([question]);

    // Asked once: the next question does not name it again.
    await ask(t, headers, conversationId, 'And how do they index?');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked).toHaveLength(1);
  });

  it('is never replaced when the person gave it, nor when the person renames the chat while the model writes', async () => {
    const t = h.makeApp({ runtime: namingRuntime(async () => 'A model title') });
    const headers = h.visitor();
    const named = (await t.post(CREATE, { sourceId: AGENT, title: 'My own name' }, headers)).body.data.conversationId as string;
    await ask(t, headers, named, 'Explain vector databases');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await titleOf(t, headers, named)).toBe('My own name');

    let release: (title: string) => void = () => undefined;
    const slow = h.makeApp({ runtime: namingRuntime(() => new Promise((resolve) => (release = resolve))) });
    const conversationId = (await slow.post(CREATE, { sourceId: AGENT, title: 'Explain vector databases', titleBy: 'question' }, headers)).body.data.conversationId as string;
    await ask(slow, headers, conversationId, 'Explain vector databases');
    await slow.post('/api/workflow/agent-im/conversation/update', { conversationId, title: 'Renamed meanwhile' }, headers);
    release('A model title');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await titleOf(slow, headers, conversationId)).toBe('Renamed meanwhile');
  });

  it("keeps the question's first words when the model fails or says nothing usable", async () => {
    const headers = h.visitor();
    for (const name of [async () => Promise.reject(new Error('HTTP 503')), async () => '  \n ', async () => null]) {
      const t = h.makeApp({ runtime: namingRuntime(name) });
      const conversationId = (await t.post(CREATE, { sourceId: AGENT, title: 'Explain vector databases', titleBy: 'question' }, headers)).body.data.conversationId as string;
      await ask(t, headers, conversationId, 'Explain vector databases');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await titleOf(t, headers, conversationId)).toBe('Explain vector databases');
    }
  });
});

describe('what the model wrote, as a title', () => {
  it.each([
    ['"Vector Databases Explained."', 'Vector Databases Explained'],
    ['Title: **Sourdough starter care**', 'Sourdough starter care'],
    ['「ベクトルデータベース入門」', 'ベクトルデータベース入門'],
    ['向量数据库入门。\nSecond line ignored', '向量数据库入门'],
    ['# Heading', 'Heading'],
    ['', ''],
  ])('%j → %j', (raw, title) => {
    expect(cleanTitle(raw)).toBe(title);
  });

  it('is no longer than a title from the question', () => {
    expect(cleanTitle('word '.repeat(40)).length).toBeLessThanOrEqual(61);
  });
});
