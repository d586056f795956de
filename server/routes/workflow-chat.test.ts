import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRuntime, StreamAnswerInput } from '../agents/runtime';
import { openHarness, type TestApp } from '../test/harness';

const CHAT = '/api/workflow/sse/agent/chat';
const CREATE = '/api/workflow/im/conversation/create';
const MESSAGES = '/api/workflow/agent-im/messages';
const APP = 'xhs-note-pipeline';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const recording = (seen: StreamAnswerInput[]): AgentRuntime => ({
  label: 'recording',
  async *streamAnswer(input) {
    seen.push(input);
    yield 'Here is your note.';
  },
});

const chat = (t: TestApp, headers: Record<string, string>, body: Record<string, unknown>) =>
  t.raw(CHAT, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('workflow conversations', () => {
  it('are answered by their application, named as the agent of the request', async () => {
    const seen: StreamAnswerInput[] = [];
    const t = h.makeApp({ runtime: recording(seen) });
    const visitor = h.visitor();
    const created = await t.post(CREATE, { sourceId: APP, source: 'workflow' }, visitor);
    expect(created.body.data).toMatchObject({ source: 'workflow', sourceId: APP });
    const conversationId = created.body.data.conversationId as string;

    const reply = await chat(t, visitor, { conversationId, agentId: APP, text: 'Autumn hiking in Hangzhou' });
    expect(reply.status).toBe(200);
    await reply.text();
    expect(seen[0]?.agent).toMatchObject({ id: APP, name: 'Xiaohongshu Note Pipeline' });
    expect(seen[0]?.agent.systemPrompt).toContain('research, draft, title options and hashtags');
    const messages = (await t.get(MESSAGES, { conversationId }, visitor)).body.data as { role: string; content: string }[];
    expect(messages.map((message) => [message.role, message.content])).toEqual([
      ['user', 'Autumn hiking in Hangzhou'],
      ['assistant', 'Here is your note.'],
    ]);
  });

  it('are answered by the offline responder when no model is configured', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = (await t.post(CREATE, { sourceId: APP, source: 'workflow' }, visitor)).body.data.conversationId as string;
    const reply = await chat(t, visitor, { conversationId, agentId: APP, text: 'Hello' });
    expect(reply.status).toBe(200);
    expect(await reply.text()).toContain('"type":"end"');
  });

  it('refuse an application the caller may not see, even inside a workflow conversation', async () => {
    const t = h.makeApp();
    const insider = await h.loggedIn(t, { companyId: 'northwind' });
    const created = await t.post(CREATE, { sourceId: 'northwind-report-builder', source: 'workflow' }, insider.headers);
    expect(created.status).toBe(200);
    // an outsider cannot start one
    const outsider = h.visitor();
    expect((await t.post(CREATE, { sourceId: 'northwind-report-builder', source: 'workflow' }, outsider)).status).toBe(404);
    expect((await t.post(CREATE, { sourceId: 'draft-video-scripts', source: 'workflow' }, outsider)).status).toBe(404);
  });

  it('keep an agent conversation to its own agent: an application id is refused there', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = (await t.post(CREATE, { sourceId: 'SpecialNoAgentFallback' }, visitor)).body.data.conversationId as string;
    const reply = await chat(t, visitor, { conversationId, agentId: APP, text: 'Hello' });
    expect(reply.status).toBe(400);
  });
});
