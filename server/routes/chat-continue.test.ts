import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';
import { CONTINUE_INSTRUCTION, type AgentRuntime, type StreamAnswerInput } from '../agents/runtime';
import { createOfflineResponder, offlineAnswer } from '../agents/offline-responder';
import { eventReader, postJson, puppetRuntime } from '../test/chat-client';
import { openHarness, type TestApp } from '../test/harness';

// Continue: an answer cut short (stopped, capped, failed, left by an instance that stopped) is
// written on from its stored text, in the same answer; the reader sees one answer grow.

const AGENT = 'SpecialNoAgentFallback';
type Start = Extract<ChatEvent, { type: 'start' }>;
type Headers = Record<string, string>;

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

/** The puppet model, and what each request to it carried. */
function watchedPuppet() {
  const puppet = puppetRuntime();
  const asked: StreamAnswerInput[] = [];
  const runtime: AgentRuntime = {
    label: 'watched',
    streamAnswer: (input) => {
      asked.push(input);
      return puppet.runtime.streamAnswer(input);
    },
  };
  return { ...puppet, runtime, asked };
}

const messagesOf = async (t: TestApp, headers: Headers, conversationId: string) =>
  (await t.get(endpoints.messages.path, { conversationId }, headers)).body.data as { messageId: string; role: string; content: string; status: string; error?: string }[];

async function stoppedAnswer(t: TestApp, model: ReturnType<typeof watchedPuppet>, headers: Headers, said = 'The first half') {
  const conversationId = (await t.post(endpoints.conversationCreate.path, { sourceId: AGENT }, headers)).body.data.conversationId as string;
  const stream = eventReader(await postJson(t, endpoints.chat.path, headers, { conversationId, agentId: AGENT, text: 'Tell me all of it' }));
  const start = (await stream.until((events) => events.length > 0))[0] as Start;
  model.say(said);
  await stream.untilText(said);
  const stopped = await postJson(t, endpoints.chatStop.path, headers, { conversationId, messageId: start.replyMessageId });
  expect(stopped.status).toBe(200);
  await stream.rest();
  return { conversationId, start, reply: start.replyMessageId };
}

describe('continuing an answer cut short', () => {
  it('goes on from the stored text in the same answer: the stream carries only what is added, the model gets the answer so far', async () => {
    const model = watchedPuppet();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const { conversationId, start, reply } = await stoppedAnswer(t, model, visitor);

    const stream = eventReader(await postJson(t, endpoints.chat.path, visitor, { conversationId, agentId: AGENT, continueMessageId: reply }));
    const begun = (await stream.until((events) => events.length > 0))[0] as Start;
    expect(begun).toMatchObject({ type: 'start', conversationId, userMessageId: start.userMessageId, replyMessageId: reply });
    model.say(', and the second half.');
    model.end();
    expect((await stream.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(stream.text()).toBe(', and the second half.');

    const continued = model.asked.at(-1)!;
    expect(continued.continuing).toBe('The first half');
    expect(continued.history.at(-1)).toMatchObject({ role: 'user', content: 'Tell me all of it' });
    const stored = await messagesOf(t, visitor, conversationId);
    expect(stored.map((m) => `${m.role}:${m.status}:${m.content}`)).toEqual(['user:complete:Tell me all of it', 'assistant:complete:The first half, and the second half.']);
    // A reader coming back reads the whole answer from any offset.
    const again = eventReader(await postJson(t, endpoints.chatResume.path, visitor, { conversationId, messageId: reply, offset: 4 }));
    await again.rest();
    expect(again.text()).toBe('first half, and the second half.');
  });

  it('a failed answer with text is continued too, its failure gone once the rest is written', async () => {
    const model = watchedPuppet();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const conversationId = (await t.post(endpoints.conversationCreate.path, { sourceId: AGENT }, visitor)).body.data.conversationId as string;
    const stream = eventReader(await postJson(t, endpoints.chat.path, visitor, { conversationId, agentId: AGENT, text: 'Go' }));
    const start = (await stream.until((events) => events.length > 0))[0] as Start;
    model.say('Half');
    await stream.untilText('Half');
    model.fail();
    expect((await stream.rest()).at(-1)).toMatchObject({ type: 'error' });

    const continued = eventReader(await postJson(t, endpoints.chat.path, visitor, { conversationId, agentId: AGENT, continueMessageId: start.replyMessageId }));
    await continued.until((events) => events.length > 0);
    model.say(' and whole');
    model.end();
    expect((await continued.rest()).at(-1)).toMatchObject({ type: 'end' });
    const [, answer] = await messagesOf(t, visitor, conversationId);
    expect(answer).toMatchObject({ status: 'complete', content: 'Half and whole' });
    expect(answer!.error).toBeUndefined();
  });

  it('is refused for a complete answer, an answer with no text, a question, and another owner’s answer; nothing changes', async () => {
    const model = watchedPuppet();
    const t = h.makeApp({ runtime: model.runtime });
    const visitor = h.visitor();
    const { conversationId, start, reply } = await stoppedAnswer(t, model, visitor);
    const asking = (headers: Headers, continueMessageId: string) => postJson(t, endpoints.chat.path, headers, { conversationId, agentId: AGENT, continueMessageId });

    const stranger = await asking(h.visitor(), reply);
    expect(stranger.status).toBe(404);
    const member = await h.loggedIn(t);
    expect((await asking(member.headers, reply)).status).toBe(404);
    expect((await asking(visitor, start.userMessageId)).status).toBe(404);
    // Text with it is not a continuation.
    const withText = await postJson(t, endpoints.chat.path, visitor, { conversationId, agentId: AGENT, continueMessageId: reply, text: 'more' });
    expect(withText.status).toBe(400);

    const finishing = eventReader(await asking(visitor, reply));
    await finishing.until((events) => events.length > 0);
    // While it is being written, a second continuation is refused.
    expect((await asking(visitor, reply)).status).toBe(409);
    model.end();
    await finishing.rest();
    const complete = await asking(visitor, reply);
    expect(complete.status).toBe(409);
    expect(await complete.json()).toMatchObject({ msg: 'This answer is complete.' });

    // An answer stopped before any text: retried, not continued.
    const empty = await stoppedAnswer(t, model, visitor, '');
    const nothing = await postJson(t, endpoints.chat.path, visitor, { conversationId: empty.conversationId, agentId: AGENT, continueMessageId: empty.reply });
    expect(nothing.status).toBe(409);
    expect((await messagesOf(t, visitor, conversationId)).map((m) => m.status)).toEqual(['complete', 'complete']);
  });

  it('the offline responder continues its own answer with the rest of it', async () => {
    const history = [{ role: 'user' as const, content: 'What can you do?' }];
    const whole = offlineAnswer('Kraken', history, 'en-US');
    const cut = whole.slice(0, 40);
    let rest = '';
    const runtime = createOfflineResponder(0);
    const agent = { id: AGENT, name: 'Kraken', systemPrompt: '' };
    for await (const piece of runtime.streamAnswer({ agent, history, signal: new AbortController().signal, language: 'en-US', continuing: cut })) rest += piece;
    expect(cut + rest).toBe(whole);
    expect(CONTINUE_INSTRUCTION).toContain('Continue');
  });
});
