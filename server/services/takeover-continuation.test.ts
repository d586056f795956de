import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';
import { messages } from '../db/schema';
import { eventReader, postJson, puppetRuntime, waitFor } from '../test/chat-client';
import { openHarness, type TestApp } from '../test/harness';
import { takeOverAnswers } from './answer-leases';
import { localLiveAnswers } from './live-answers';

// An answer whose writer was gone (killed, paused past its lease) is written on by the instance
// that takes it over, as if its reader had pressed Continue; at most twice per answer.

const AGENT = 'SpecialNoAgentFallback';
type Start = Extract<ChatEvent, { type: 'start' }>;

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const storedRow = async (id: string) => (await h.db.select().from(messages).where(eq(messages.id, id)))[0]!;

/** An instance that takes over what another left: its own registry, its own model. */
function successor(id: string, config: Record<string, number> = {}) {
  const model = puppetRuntime();
  const answers = localLiveAnswers((options) => takeOverAnswers(h.db, id, options));
  const t = h.makeApp({ runtime: model.runtime, instanceId: id, answers, config });
  return { model, answers, t };
}

/** An answer written by an instance that then stopped renewing its lease (a pause, a crash). */
async function leftBehind(said: string) {
  const model = puppetRuntime();
  const t: TestApp = h.makeApp({ runtime: model.runtime, instanceId: `instance-gone-${crypto.randomUUID()}` });
  const visitor = h.visitor();
  const conversationId = (await t.post(endpoints.conversationCreate.path, { sourceId: AGENT }, visitor)).body.data.conversationId as string;
  const stream = eventReader(await postJson(t, endpoints.chat.path, visitor, { conversationId, agentId: AGENT, text: 'Tell me a story' }));
  const start = (await stream.until((events) => events.length > 0))[0] as Start;
  model.say(said);
  await stream.untilText(said);
  await h.db.update(messages).set({ leaseExpiresAt: new Date(0) }).where(eq(messages.id, start.replyMessageId));
  return { visitor, conversationId, start, reply: start.replyMessageId, gone: model };
}

describe('an answer taken over from an instance that was gone', () => {
  it('is written on by the instance that takes it over; a reader coming back follows it to its end', async () => {
    const left = await leftBehind('Once upon a time');
    const next = successor('instance-next');
    expect(await next.answers.sweep()).toBe(1);
    expect(await storedRow(left.reply)).toMatchObject({ status: 'streaming', leaseOwner: 'instance-next', takeoverContinuations: 1 });

    const reader = eventReader(await postJson(next.t, endpoints.chatResume.path, left.visitor, { conversationId: left.conversationId, messageId: left.reply, offset: 16 }));
    await reader.until((events) => events.length > 0);
    expect(reader.events[0]).toEqual({ type: 'resume', messageId: left.reply, offset: 16 });
    next.model.say(', there was a lighthouse.');
    next.model.end();
    expect((await reader.rest()).at(-1)).toEqual({ type: 'end', messageIds: [left.start.userMessageId, left.reply] });
    expect(reader.text()).toBe(', there was a lighthouse.');
    expect(await storedRow(left.reply)).toMatchObject({ status: 'complete', content: 'Once upon a time, there was a lighthouse.', leaseOwner: null });
    // The instance that was gone wakes: its answer is no longer its own, and it writes nothing.
    left.gone.say(' Late words.');
    left.gone.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await storedRow(left.reply)).content).toBe('Once upon a time, there was a lighthouse.');
  });

  it('at most twice: the third instance to find it left behind stores it incomplete', async () => {
    const left = await leftBehind('Twice cut');
    for (const [n, id] of [[1, 'instance-second'], [2, 'instance-third']] as const) {
      const next = successor(id);
      expect(await next.answers.sweep()).toBe(1);
      expect(await storedRow(left.reply)).toMatchObject({ status: 'streaming', takeoverContinuations: n });
      // This one is gone too before it wrote anything.
      await h.db.update(messages).set({ leaseExpiresAt: new Date(0) }).where(eq(messages.id, left.reply));
    }
    const last = successor('instance-fourth');
    expect(await last.answers.sweep()).toBe(1);
    expect(await storedRow(left.reply)).toMatchObject({ status: 'incomplete', content: 'Twice cut', takeoverContinuations: 2, leaseOwner: null });
    expect(last.model.asked()).toBe(0);
  });

  it('is not written on with CONTINUE_TAKEN_OVER off, nor when it has no text', async () => {
    const left = await leftBehind('Left as it is');
    const off = successor('instance-off', { continueTakenOverMax: 0 });
    expect(await off.answers.sweep()).toBe(1);
    expect(await storedRow(left.reply)).toMatchObject({ status: 'incomplete', content: 'Left as it is', takeoverContinuations: 0 });

    const empty = await leftBehind('');
    const next = successor('instance-empty');
    await next.answers.sweep();
    expect(await waitFor(() => storedRow(empty.reply), (row) => row.status !== 'streaming')).toMatchObject({ status: 'incomplete', content: '' });
    expect(next.model.asked()).toBe(0);
  });
});
