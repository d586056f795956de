import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID } from '../../src/contract/constants';
import { FEEDBACK_COMMENT_MAX } from '../../src/contract/messages';
import { openHarness, type TestApp } from '../test/harness';

const CHAT = '/api/workflow/sse/agent/chat';
const CREATE = '/api/workflow/im/conversation/create';
const MESSAGES = '/api/workflow/agent-im/messages';
const FEEDBACK = '/api/workflow/agent-im/messages/feedback';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

type Listed = { messageId: string; role: string; feedback?: { rating: string; comment?: string } };

/** A conversation with one answered question; answers its ids. */
async function answered(t: TestApp, headers: Record<string, string>) {
  const conversationId = (await t.post(CREATE, { sourceId: DEFAULT_AGENT_ID }, headers)).body.data.conversationId as string;
  const response = await t.raw(CHAT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ conversationId, agentId: DEFAULT_AGENT_ID, text: 'Hello' }),
  });
  await response.text();
  const list = (await t.get(MESSAGES, { conversationId }, headers)).body.data as Listed[];
  return { conversationId, questionId: list[0]!.messageId, answerId: list[1]!.messageId };
}

describe('feedback on answers', () => {
  it('stores thumbs up with a comment, shows it with the message, changes and clears it', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const { conversationId, answerId } = await answered(t, visitor);
    const rated = await t.post(FEEDBACK, { conversationId, messageId: answerId, rating: 'up', comment: '  Clear and short  ' }, visitor);
    expect(rated.status).toBe(200);
    expect(rated.body.data.feedback).toEqual({ rating: 'up', comment: 'Clear and short' });
    let list = (await t.get(MESSAGES, { conversationId }, visitor)).body.data as Listed[];
    expect(list[1]!.feedback).toEqual({ rating: 'up', comment: 'Clear and short' });

    await t.post(FEEDBACK, { conversationId, messageId: answerId, rating: 'down' }, visitor);
    list = (await t.get(MESSAGES, { conversationId }, visitor)).body.data as Listed[];
    expect(list[1]!.feedback).toEqual({ rating: 'down' });

    await t.post(FEEDBACK, { conversationId, messageId: answerId, rating: null }, visitor);
    list = (await t.get(MESSAGES, { conversationId }, visitor)).body.data as Listed[];
    expect(list[1]!.feedback).toBeUndefined();
  });

  it('is refused to anyone but the conversation’s owner', async () => {
    const t = h.makeApp();
    const owner = await h.loggedIn(t);
    const { conversationId, answerId } = await answered(t, owner.headers);
    const stranger = await h.loggedIn(t);
    expect((await t.post(FEEDBACK, { conversationId, messageId: answerId, rating: 'down' }, stranger.headers)).status).toBe(404);
    expect((await t.post(FEEDBACK, { conversationId, messageId: answerId, rating: 'down' }, h.visitor())).status).toBe(404);
    const list = (await t.get(MESSAGES, { conversationId }, owner.headers)).body.data as Listed[];
    expect(list[1]!.feedback).toBeUndefined();
  });

  it('is refused on a question, and on an answer named with another conversation', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const first = await answered(t, visitor);
    const second = await answered(t, visitor);
    expect((await t.post(FEEDBACK, { conversationId: first.conversationId, messageId: first.questionId, rating: 'up' }, visitor)).status).toBe(404);
    expect((await t.post(FEEDBACK, { conversationId: second.conversationId, messageId: first.answerId, rating: 'up' }, visitor)).status).toBe(404);
  });

  it('refuses a rating it does not know and a comment over the limit', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const { conversationId, answerId } = await answered(t, visitor);
    expect((await t.post(FEEDBACK, { conversationId, messageId: answerId, rating: 'meh' }, visitor)).status).toBe(400);
    const long = 'x'.repeat(FEEDBACK_COMMENT_MAX + 1);
    expect((await t.post(FEEDBACK, { conversationId, messageId: answerId, rating: 'up', comment: long }, visitor)).status).toBe(400);
    const fits = 'x'.repeat(FEEDBACK_COMMENT_MAX);
    expect((await t.post(FEEDBACK, { conversationId, messageId: answerId, rating: 'up', comment: fits }, visitor)).status).toBe(200);
  });
});

describe('feedback and a retried answer', () => {
  it('an answer written again in place loses the rating of the text it replaces', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = (await t.post(CREATE, { sourceId: DEFAULT_AGENT_ID }, visitor)).body.data.conversationId as string;
    // an answer stopped at once is incomplete, and can be retried
    const { messages } = await import('../db/schema');
    const { eq } = await import('drizzle-orm');
    const response = await t.raw(CHAT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...visitor },
      body: JSON.stringify({ conversationId, agentId: DEFAULT_AGENT_ID, text: 'Hello' }),
    });
    await response.text();
    const [question, answer] = (await t.get(MESSAGES, { conversationId }, visitor)).body.data as Listed[];
    await h.db.update(messages).set({ status: 'incomplete' }).where(eq(messages.id, answer!.messageId));
    expect((await t.post(FEEDBACK, { conversationId, messageId: answer!.messageId, rating: 'down', comment: 'Cut short' }, visitor)).status).toBe(200);
    const retried = await t.raw(CHAT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...visitor },
      body: JSON.stringify({ conversationId, agentId: DEFAULT_AGENT_ID, retryMessageId: question!.messageId }),
    });
    await retried.text();
    const list = (await t.get(MESSAGES, { conversationId }, visitor)).body.data as Listed[];
    expect(list[1]!.messageId).toBe(answer!.messageId);
    expect(list[1]!.feedback).toBeUndefined();
  });
});
