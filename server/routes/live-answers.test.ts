import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';
import { eventReader, postJson, puppetRuntime, waitFor } from '../test/chat-client';
import { openHarness, type TestApp } from '../test/harness';

const AGENT = 'SpecialNoAgentFallback';
const CREATE = endpoints.conversationCreate.path;
const MESSAGES = endpoints.messages.path;

type Stored = { messageId: string; role: string; content: string; status: string; error?: string };
type Start = Extract<ChatEvent, { type: 'start' }>;

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const newConversation = async (t: TestApp, headers: Record<string, string>) =>
  (await t.post(CREATE, { sourceId: AGENT }, headers)).body.data.conversationId as string;
const messagesOf = async (t: TestApp, headers: Record<string, string>, conversationId: string) =>
  (await t.get(MESSAGES, { conversationId }, headers)).body.data as Stored[];
const ask = (t: TestApp, headers: Record<string, string>, conversationId: string, text: string) =>
  postJson(t, endpoints.chat.path, headers, { conversationId, agentId: AGENT, text });
const resume = (t: TestApp, headers: Record<string, string>, conversationId: string, messageId: string, offset: number) =>
  postJson(t, endpoints.chatResume.path, headers, { conversationId, messageId, offset });
const stop = (t: TestApp, headers: Record<string, string>, conversationId: string, messageId: string) =>
  postJson(t, endpoints.chatStop.path, headers, { conversationId, messageId });

/** A question asked, its start event read, the stream left open. */
async function asking(t: TestApp, headers: Record<string, string>, text = 'Tell me a long story') {
  const conversationId = await newConversation(t, headers);
  const stream = eventReader(await ask(t, headers, conversationId, text));
  const start = (await stream.until((events) => events.length > 0))[0] as Start;
  return { conversationId, stream, start, reply: start.replyMessageId };
}

const storedReply = (t: TestApp, headers: Record<string, string>, conversationId: string, settled = true) =>
  waitFor(
    async () => (await messagesOf(t, headers, conversationId)).find((message) => message.role === 'assistant')!,
    (reply) => !settled || reply.status !== 'streaming',
  );

describe('an answer outlives the connection that asked for it', () => {
  it('keeps writing when the asker goes away, and stores the whole answer complete', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const { conversationId, stream } = await asking(t, visitor);
    model.say('The first part');
    await stream.untilText('The first part');
    await stream.cancel();
    model.say(' and the rest');
    model.end();
    expect(await storedReply(t, visitor, conversationId)).toMatchObject({ status: 'complete', content: 'The first part and the rest' });
  });

  it('resumes a running answer from an offset, then goes on live; two readers see the same', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const { conversationId, stream: first, start, reply } = await asking(t, visitor);
    model.say('Hello');
    await first.untilText('Hello');

    const second = eventReader(await resume(t, visitor, conversationId, reply, 2));
    await second.until((events) => events.length >= 2);
    expect(second.events).toEqual([
      { type: 'resume', messageId: reply, offset: 2 },
      { type: 'delta', messageId: reply, text: 'llo' },
    ]);
    model.say(', world');
    model.end();
    expect((await first.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect((await second.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(first.text()).toBe('Hello, world');
    expect(`He${second.text()}`).toBe('Hello, world');
    expect(await storedReply(t, visitor, conversationId)).toMatchObject({ status: 'complete', content: 'Hello, world' });
  });

  it('answers a finished answer at once: the rest of its text and how it ended', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const { conversationId, stream, start, reply } = await asking(t, visitor);
    model.say('All done here');
    model.end();
    await stream.rest();
    await storedReply(t, visitor, conversationId);

    expect(await eventReader(await resume(t, visitor, conversationId, reply, 4)).rest()).toEqual([
      { type: 'resume', messageId: reply, offset: 4 },
      { type: 'delta', messageId: reply, text: 'done here' },
      { type: 'end', messageIds: [start.userMessageId, reply] },
    ]);
    // A reader that has it all gets no text; one that claims more than there is starts from the end.
    expect(await eventReader(await resume(t, visitor, conversationId, reply, 999)).rest()).toEqual([
      { type: 'resume', messageId: reply, offset: 13 },
      { type: 'end', messageIds: [start.userMessageId, reply] },
    ]);
  });

  it('tells a resumed failed answer as the same generic sentence with its reference', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const { conversationId, stream, reply } = await asking(t, visitor);
    model.say('Partial');
    model.fail();
    const failure = (await stream.rest()).at(-1) as Extract<ChatEvent, { type: 'error' }>;
    expect(failure.type).toBe('error');
    await storedReply(t, visitor, conversationId);
    expect(await eventReader(await resume(t, visitor, conversationId, reply, 0)).rest()).toEqual([
      { type: 'resume', messageId: reply, offset: 0 },
      { type: 'delta', messageId: reply, text: 'Partial' },
      { type: 'error', msg: failure.msg, ref: failure.ref },
    ]);
  });
});

describe('stop', () => {
  it('stops from another connection and stores exactly the text the readers were given', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime });
    const owner = await h.loggedIn(t);
    const { conversationId, stream, reply } = await asking(t, owner.headers);
    model.say('Here is how Kraken');
    await stream.untilText('Kraken');

    // Another tab of the same person.
    const stopped = await stop(t, owner.headers, conversationId, reply);
    expect(stopped.status).toBe(200);
    expect((await stopped.json()).data).toMatchObject({ messageId: reply, status: 'incomplete', content: 'Here is how Kraken' });
    // What the model says after the stop is neither sent nor stored.
    model.say(' Assistant would usually');
    const events = await stream.rest();
    expect(events.some((event) => event.type === 'end' || event.type === 'error')).toBe(false);
    expect(stream.text()).toBe('Here is how Kraken');
    expect(await storedReply(t, owner.headers, conversationId)).toMatchObject({ status: 'incomplete', content: 'Here is how Kraken' });

    // A reader coming back learns it was stopped, with the same text.
    expect(await eventReader(await resume(t, owner.headers, conversationId, reply, 0)).rest()).toEqual([
      { type: 'resume', messageId: reply, offset: 0 },
      { type: 'delta', messageId: reply, text: 'Here is how Kraken' },
      { type: 'incomplete', messageId: reply },
    ]);
    // Stopping it again changes nothing.
    expect((await (await stop(t, owner.headers, conversationId, reply)).json()).data).toMatchObject({ status: 'incomplete', content: 'Here is how Kraken' });
  });

  it('tells a reader following live that the answer was stopped', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const { conversationId, stream, reply } = await asking(t, visitor);
    model.say('abc');
    await stream.untilText('abc');
    const follower = eventReader(await resume(t, visitor, conversationId, reply, 3));
    await follower.until((events) => events.length > 0);
    await stop(t, visitor, conversationId, reply);
    expect(await follower.rest()).toEqual([
      { type: 'resume', messageId: reply, offset: 3 },
      { type: 'incomplete', messageId: reply },
    ]);
    await stream.rest();
  });

  it('a stopped answer is retried without sending the question twice', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const { conversationId, stream, start, reply } = await asking(t, visitor, 'The one question');
    model.say('cut short');
    await stream.untilText('cut short');
    await stop(t, visitor, conversationId, reply);
    await stream.rest();

    const retry = eventReader(await postJson(t, endpoints.chat.path, visitor, { conversationId, agentId: AGENT, retryMessageId: start.userMessageId }));
    await retry.until((events) => events.length > 0);
    model.say('whole');
    model.end();
    expect((await retry.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect((await messagesOf(t, visitor, conversationId)).map((m) => `${m.role}:${m.status}:${m.content}`)).toEqual([
      'user:complete:The one question',
      'assistant:complete:whole',
    ]);
    expect(model.asked()).toBe(2);
  });
});

describe('versions are answers like any other', () => {
  it("an edited question's answer outlives its connection, is read again live by its id, and Stop stores its text on that version only", async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const { conversationId, stream, start } = await asking(t, visitor, 'First wording');
    model.say('First answer');
    model.end();
    await stream.rest();
    const edit = eventReader(await postJson(t, endpoints.chat.path, visitor, { conversationId, agentId: AGENT, editMessageId: start.userMessageId, text: 'Second wording' }));
    const editStart = (await edit.until((events) => events.length > 0))[0] as Start;
    model.say('Second answer');
    await edit.untilText('Second answer');
    await edit.cancel();
    model.say(' goes on');

    const again = eventReader(await resume(t, visitor, conversationId, editStart.replyMessageId, 'Second answer'.length));
    await again.untilText(' goes on');
    expect(again.events[0]).toEqual({ type: 'resume', messageId: editStart.replyMessageId, offset: 'Second answer'.length });
    const stopped = await stop(t, visitor, conversationId, editStart.replyMessageId);
    expect((await stopped.json()).data).toMatchObject({ messageId: editStart.replyMessageId, content: 'Second answer goes on', status: 'incomplete' });
    expect(await again.rest()).toContainEqual({ type: 'incomplete', messageId: editStart.replyMessageId });
    // the chosen path is the edited one; the first version keeps its own text
    expect((await messagesOf(t, visitor, conversationId)).map((m) => [m.content, m.status])).toEqual([
      ['Second wording', 'complete'],
      ['Second answer goes on', 'incomplete'],
    ]);
    const first = (await postJson(t, endpoints.messageSelect.path, visitor, { conversationId, messageId: start.replyMessageId }).then((r) => r.json())).data as Stored[];
    expect(first.map((m) => m.content)).toEqual(['First wording', 'First answer']);
  });
});

describe('answers nobody reads end by a cap', () => {
  it('stops an answer nobody has read for the time allowed, kept incomplete', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, config: { answerUnwatchedMaxMs: 200 } });
    const visitor = h.visitor();
    const { conversationId, stream } = await asking(t, visitor);
    model.say('Started');
    await stream.untilText('Started');
    await stream.cancel();
    expect(await storedReply(t, visitor, conversationId)).toMatchObject({ status: 'incomplete', content: 'Started' });
  });

  it('stops an answer nobody reads at the length allowed, but not one that is read', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, config: { answerUnwatchedMaxChars: 10 } });
    const visitor = h.visitor();

    const read = await asking(t, visitor);
    model.say('0123456789');
    model.say('abcdef');
    model.end();
    await read.stream.rest();
    expect(await storedReply(t, visitor, read.conversationId)).toMatchObject({ status: 'complete', content: '0123456789abcdef' });

    const left = await asking(t, visitor);
    model.say('01234');
    await left.stream.untilText('01234');
    await left.stream.cancel();
    model.say('56789');
    model.say('never');
    expect(await storedReply(t, visitor, left.conversationId)).toMatchObject({ status: 'incomplete', content: '0123456789' });
  });
});

describe('resume and stop refuse what is not the caller’s, as not found', () => {
  it("refuses another visitor's answer, and leaves it running", async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime });
    const owner = h.visitor();
    const { conversationId, stream, start, reply } = await asking(t, owner);
    model.say('private');
    await stream.untilText('private');

    const stranger = h.visitor();
    for (const response of [await resume(t, stranger, conversationId, reply, 0), await stop(t, stranger, conversationId, reply)]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 1, msg: 'Conversation not found' });
    }
    // Their own conversation with the owner's message id: not found either.
    const theirs = await newConversation(t, stranger);
    expect((await resume(t, stranger, theirs, reply, 0)).status).toBe(404);
    expect((await stop(t, stranger, theirs, reply)).status).toBe(404);
    // A question is not an answer.
    expect((await resume(t, owner, conversationId, start.userMessageId, 0)).status).toBe(404);
    expect((await stop(t, owner, conversationId, start.userMessageId)).status).toBe(404);
    expect((await resume(t, {}, conversationId, reply, 0)).status).toBe(401);

    model.say(' and still going');
    model.end();
    expect((await stream.rest()).at(-1)?.type).toBe('end');
    expect(await storedReply(t, owner, conversationId)).toMatchObject({ status: 'complete', content: 'private and still going' });
  });

  it('refuses a bad offset or id as bad input', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = await newConversation(t, visitor);
    const messageId = '00000000-0000-0000-0000-000000000000';
    for (const offset of [-1, 1.5, '3', null, Number.MAX_SAFE_INTEGER + 2]) {
      expect((await postJson(t, endpoints.chatResume.path, visitor, { conversationId, messageId, offset })).status).toBe(400);
    }
    expect((await postJson(t, endpoints.chatResume.path, visitor, { conversationId, messageId })).status).toBe(400);
    expect((await postJson(t, endpoints.chatStop.path, visitor, { conversationId })).status).toBe(400);
    expect((await postJson(t, endpoints.chatStop.path, visitor, { conversationId, messageId: '' })).status).toBe(400);
    expect((await resume(t, visitor, conversationId, messageId, 0)).status).toBe(404);
  });
});
