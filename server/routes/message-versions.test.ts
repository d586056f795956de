import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { chatEventSchema, type ChatEvent } from '../../src/contract/chat';
import type { Message } from '../../src/contract/messages';
import type { AgentRuntime, StreamAnswerInput } from '../agents/runtime';
import { openHarness, type TestApp } from '../test/harness';

const CHAT = '/api/workflow/sse/agent/chat';
const CREATE = '/api/workflow/im/conversation/create';
const MESSAGES = '/api/workflow/agent-im/messages';
const SELECT = '/api/workflow/agent-im/messages/select';
const STOP = '/api/workflow/sse/agent/chat/stop';
const AGENT = 'SpecialNoAgentFallback';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

type Headers = Record<string, string>;

/** A model that answers "answer N" to its Nth request and keeps every request it was sent. */
function countingModel(seen: StreamAnswerInput[]): AgentRuntime {
  return {
    label: 'counting',
    async *streamAnswer(input) {
      seen.push(input);
      yield `answer ${seen.length}`;
    },
  };
}

async function ask(t: TestApp, headers: Headers, body: Record<string, unknown>) {
  const response = await t.raw(CHAT, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ agentId: AGENT, ...body }) });
  expect(response.status).toBe(200);
  const events = (await response.text())
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => v.parse(chatEventSchema, JSON.parse(line.slice(6))));
  expect(events.at(-1)?.type).toBe('end');
  return events[0] as Extract<ChatEvent, { type: 'start' }>;
}

const list = async (t: TestApp, headers: Headers, conversationId: string) => (await t.get(MESSAGES, { conversationId }, headers)).body.data as Message[];
const shape = (messages: Message[]) => messages.map((m) => `${m.content} ${m.siblingIds!.indexOf(m.messageId) + 1}/${m.siblingIds!.length}`);

/** A conversation of two exchanges: "one" → "answer 1", "two" → "answer 2". */
async function twoExchanges(t: TestApp, headers: Headers) {
  const conversationId = (await t.post(CREATE, { sourceId: AGENT }, headers)).body.data.conversationId as string;
  const first = await ask(t, headers, { conversationId, text: 'one' });
  const second = await ask(t, headers, { conversationId, text: 'two' });
  return { conversationId, first, second };
}

describe('messages as a tree of versions', () => {
  it('lists a conversation as a straight line, each message naming its parent and itself as its only version', async () => {
    const t = h.makeApp({ runtime: countingModel([]) });
    const visitor = h.visitor();
    const { conversationId, first, second } = await twoExchanges(t, visitor);
    const messages = await list(t, visitor, conversationId);
    expect(messages.map((m) => [m.messageId, m.parentId])).toEqual([
      [first.userMessageId, null],
      [first.replyMessageId, first.userMessageId],
      [second.userMessageId, first.replyMessageId],
      [second.replyMessageId, second.userMessageId],
    ]);
    expect(shape(messages)).toEqual(['one 1/1', 'answer 1 1/1', 'two 1/1', 'answer 2 1/1']);
  });

  it('an edited question becomes a second version beside the first, and the model sees only the edited path', async () => {
    const seen: StreamAnswerInput[] = [];
    const t = h.makeApp({ runtime: countingModel(seen) });
    const visitor = h.visitor();
    const { conversationId, first } = await twoExchanges(t, visitor);

    const edit = await ask(t, visitor, { conversationId, editMessageId: first.userMessageId, text: 'one, better' });
    expect(edit.userMessageId).not.toBe(first.userMessageId);
    expect(seen.at(-1)!.history).toEqual([{ role: 'user', content: 'one, better' }]);
    expect(shape(await list(t, visitor, conversationId))).toEqual(['one, better 2/2', 'answer 3 1/1']);

    // The next question follows the edited path: the first version's exchanges are not sent.
    await ask(t, visitor, { conversationId, text: 'three' });
    expect(seen.at(-1)!.history).toEqual([
      { role: 'user', content: 'one, better' },
      { role: 'assistant', content: 'answer 3' },
      { role: 'user', content: 'three' },
    ]);
  });

  it('a regenerated answer becomes a new version of the answer to the same question', async () => {
    const seen: StreamAnswerInput[] = [];
    const t = h.makeApp({ runtime: countingModel(seen) });
    const visitor = h.visitor();
    const { conversationId, second } = await twoExchanges(t, visitor);

    const again = await ask(t, visitor, { conversationId, regenerateMessageId: second.replyMessageId });
    expect(again.userMessageId).toBe(second.userMessageId);
    expect(seen.at(-1)!.history).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'answer 1' },
      { role: 'user', content: 'two' },
    ]);
    const messages = await list(t, visitor, conversationId);
    expect(shape(messages)).toEqual(['one 1/1', 'answer 1 1/1', 'two 1/1', 'answer 3 2/2']);
    expect(messages.at(-1)!.siblingIds).toEqual([second.replyMessageId, again.replyMessageId]);
  });

  it('regenerating an answer in the middle leaves what followed it on the other version', async () => {
    const seen: StreamAnswerInput[] = [];
    const t = h.makeApp({ runtime: countingModel(seen) });
    const visitor = h.visitor();
    const { conversationId, first } = await twoExchanges(t, visitor);
    await ask(t, visitor, { conversationId, regenerateMessageId: first.replyMessageId });
    expect(shape(await list(t, visitor, conversationId))).toEqual(['one 1/1', 'answer 3 2/2']);

    // Back to the first version: the whole line below it comes back.
    const selected = await t.post(SELECT, { conversationId, messageId: first.replyMessageId }, visitor);
    expect(selected.status).toBe(200);
    expect(shape(selected.body.data as Message[])).toEqual(['one 1/1', 'answer 1 1/2', 'two 1/1', 'answer 2 1/1']);
    // The next question continues the chosen path.
    await ask(t, visitor, { conversationId, text: 'three' });
    expect(seen.at(-1)!.history.map((m) => m.content)).toEqual(['one', 'answer 1', 'two', 'answer 2', 'three']);
  });

  it('the chosen version is stored with the conversation: another device lists the same path', async () => {
    const t = h.makeApp({ runtime: countingModel([]) });
    const owner = await h.loggedIn(t);
    const { conversationId, second } = await twoExchanges(t, owner.headers);
    await ask(t, owner.headers, { conversationId, regenerateMessageId: second.replyMessageId });
    await t.post(SELECT, { conversationId, messageId: second.replyMessageId }, owner.headers);

    // Nothing of the choice lives in the asking client: a plain read shows it.
    expect(shape(await list(t, owner.headers, conversationId))).toEqual(['one 1/1', 'answer 1 1/1', 'two 1/1', 'answer 2 1/2']);
  });

  it('a retry of an incomplete version replaces that version in place, leaving the others', async () => {
    let calls = 0;
    const runtime: AgentRuntime = {
      label: 'scripted',
      async *streamAnswer(input) {
        calls += 1;
        yield `answer ${calls}`;
        if (calls === 2) {
          // The second answer is cut: the client went away.
          await new Promise<void>((resolve) => input.signal.addEventListener('abort', () => resolve()));
        }
      },
    };
    const t = h.makeApp({ runtime });
    const visitor = h.visitor();
    const conversationId = (await t.post(CREATE, { sourceId: AGENT }, visitor)).body.data.conversationId as string;
    const first = await ask(t, visitor, { conversationId, text: 'one' });
    const cut = await t.raw(CHAT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...visitor },
      body: JSON.stringify({ agentId: AGENT, conversationId, regenerateMessageId: first.replyMessageId }),
    });
    const reader = cut.body!.getReader();
    let text = '';
    while (!text.includes('answer 2')) text += new TextDecoder().decode((await reader.read()).value);
    const regenerated = v.parse(chatEventSchema, JSON.parse(text.split('\n').find((line) => line.startsWith('data: '))!.slice(6)));
    if (regenerated.type !== 'start') throw new Error(`expected the start event, got ${regenerated.type}`);
    // The new version outlives its connection: leaving does not cut it, Stop does.
    await reader.cancel();
    expect((await list(t, visitor, conversationId)).map((m) => m.status)).toEqual(['complete', 'streaming']);
    const stopped = await t.post(STOP, { conversationId, messageId: regenerated.replyMessageId }, visitor);
    // What is stored is on the new version, exactly the text sent
    expect(stopped.body.data).toMatchObject({ messageId: regenerated.replyMessageId, content: 'answer 2', status: 'incomplete' });
    expect((await list(t, visitor, conversationId)).map((m) => m.status)).toEqual(['complete', 'incomplete']);
    expect(shape(await list(t, visitor, conversationId))).toEqual(['one 1/1', 'answer 2 2/2']);

    await ask(t, visitor, { conversationId, retryMessageId: first.userMessageId });
    const messages = await list(t, visitor, conversationId);
    expect(shape(messages)).toEqual(['one 1/1', 'answer 3 2/2']);
    const refused = await t.raw(CHAT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...visitor },
      body: JSON.stringify({ agentId: AGENT, conversationId, retryMessageId: first.userMessageId }),
    });
    expect(refused.status).toBe(409);
  });
});

describe('version refusals', () => {
  it('refuses bad input before anything is stored', async () => {
    const t = h.makeApp({ runtime: countingModel([]) });
    const visitor = h.visitor();
    const { conversationId, first } = await twoExchanges(t, visitor);
    const cases: Record<string, unknown>[] = [
      { conversationId, editMessageId: first.userMessageId },
      { conversationId, editMessageId: first.userMessageId, text: '   ' },
      { conversationId, editMessageId: first.userMessageId, text: 'x'.repeat(8001) },
      { conversationId, editMessageId: 7, text: 'hi' },
      { conversationId, regenerateMessageId: first.replyMessageId, text: 'hi' },
      { conversationId, regenerateMessageId: first.replyMessageId, retryMessageId: first.userMessageId },
      { conversationId, editMessageId: first.userMessageId, regenerateMessageId: first.replyMessageId, text: 'hi' },
    ];
    for (const body of cases) {
      const response = await t.raw(CHAT, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...visitor },
        body: JSON.stringify({ agentId: AGENT, ...body }),
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{ conversationId }, { messageId: first.userMessageId }, { conversationId, messageId: 42 }, { conversationId, messageId: 'x'.repeat(65) }, { conversationId, messageId: '   ' }]) {
      expect((await t.post(SELECT, body, visitor)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await list(t, visitor, conversationId)).toHaveLength(4);
  });

  it('refuses an edit of an answer, a new version of a question, and ids of other conversations, as not found', async () => {
    const t = h.makeApp({ runtime: countingModel([]) });
    const visitor = h.visitor();
    const { conversationId, first } = await twoExchanges(t, visitor);
    const elsewhere = await twoExchanges(t, visitor);
    const cases: Record<string, unknown>[] = [
      { conversationId, editMessageId: first.replyMessageId, text: 'hi' },
      { conversationId, regenerateMessageId: first.userMessageId },
      { conversationId, editMessageId: elsewhere.first.userMessageId, text: 'hi' },
      { conversationId, regenerateMessageId: elsewhere.first.replyMessageId },
    ];
    for (const body of cases) {
      const response = await t.raw(CHAT, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...visitor },
        body: JSON.stringify({ agentId: AGENT, ...body }),
      });
      expect(response.status, JSON.stringify(body)).toBe(404);
    }
    expect((await t.post(SELECT, { conversationId, messageId: elsewhere.first.userMessageId }, visitor)).status).toBe(404);
    expect(await list(t, visitor, conversationId)).toHaveLength(4);
    expect(await list(t, visitor, elsewhere.conversationId)).toHaveLength(4);
  });

  it("refuses another owner's conversation: nothing is stored and their path does not move", async () => {
    const t = h.makeApp({ runtime: countingModel([]) });
    const owner = await h.loggedIn(t);
    const { conversationId, first, second } = await twoExchanges(t, owner.headers);
    await ask(t, owner.headers, { conversationId, regenerateMessageId: second.replyMessageId });
    const before = shape(await list(t, owner.headers, conversationId));
    for (const stranger of [(await h.loggedIn(t)).headers, h.visitor()]) {
      expect((await t.post(SELECT, { conversationId, messageId: second.replyMessageId }, stranger)).status).toBe(404);
      for (const body of [
        { conversationId, editMessageId: first.userMessageId, text: 'mine' },
        { conversationId, regenerateMessageId: first.replyMessageId },
      ]) {
        const response = await t.raw(CHAT, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...stranger },
          body: JSON.stringify({ agentId: AGENT, ...body }),
        });
        expect(response.status).toBe(404);
      }
    }
    expect(shape(await list(t, owner.headers, conversationId))).toEqual(before);
  });
});
