import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';
import type { Db } from '../db/client';
import { messages } from '../db/schema';
import { eventReader, postJson, puppetRuntime, waitFor } from '../test/chat-client';
import { openHarness, type TestApp } from '../test/harness';
import { renewAnswerLeases, takeOverAnswers } from './answer-leases';
import { localLiveAnswers } from './live-answers';

const AGENT = 'SpecialNoAgentFallback';
type Start = Extract<ChatEvent, { type: 'start' }>;

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const storedRow = async (id: string) => (await h.db.select().from(messages).where(eq(messages.id, id)))[0]!;

async function asking(t: TestApp, headers: Record<string, string>) {
  const conversationId = (await t.post(endpoints.conversationCreate.path, { sourceId: AGENT }, headers)).body.data.conversationId as string;
  const stream = eventReader(await postJson(t, endpoints.chat.path, headers, { conversationId, agentId: AGENT, text: 'Tell me' }));
  const start = (await stream.until((events) => events.length > 0))[0] as Start;
  return { conversationId, stream, start, reply: start.replyMessageId };
}

describe('leases of streaming answers', () => {
  it('an answer is created with the lease of the instance writing it, and released when stored', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, instanceId: 'instance-writing', config: { leaseMs: 60_000 } });
    const { stream, reply } = await asking(t, h.visitor());
    const first = await storedRow(reply);
    expect(first).toMatchObject({ status: 'streaming', leaseOwner: 'instance-writing' });
    expect(first.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);
    model.say('Done');
    model.end();
    await stream.rest();
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: 'Done', leaseOwner: null, leaseExpiresAt: null });
  });

  it("one statement renews the leases of every answer an instance writes, and of no other instance's", async () => {
    const mine = [puppetRuntime(), puppetRuntime()];
    const theirs = puppetRuntime();
    const asked = await Promise.all(
      [...mine.map((model) => ({ model, id: 'instance-renewing' })), { model: theirs, id: 'instance-elsewhere' }].map(({ model, id }) =>
        asking(h.makeApp({ runtime: model.runtime, instanceId: id, config: { leaseMs: 60_000 } }), h.visitor()),
      ),
    );
    await h.db.update(messages).set({ leaseExpiresAt: new Date(0) }).where(inArray(messages.id, asked.map((one) => one.reply)));
    await renewAnswerLeases(h.db, 'instance-renewing', 60_000);
    const leases = await Promise.all(asked.map(async (one) => (await storedRow(one.reply)).leaseExpiresAt!.getTime()));
    expect(leases.slice(0, 2).every((until) => until > Date.now() + 30_000)).toBe(true);
    expect(leases[2]).toBe(0);
    for (const model of [...mine, theirs]) model.end();
    await Promise.all(asked.map((one) => one.stream.rest()));
  });

  it('a sweep never takes over an answer its own instance writes, however late its lease', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, instanceId: 'instance-busy' });
    const { stream, start, reply } = await asking(t, h.visitor());
    model.say('Busy, not gone');
    await stream.untilText('Busy, not gone');
    await h.db.update(messages).set({ leaseExpiresAt: new Date(0) }).where(eq(messages.id, reply));

    expect(await takeOverAnswers(h.db, 'instance-busy')).not.toContain(reply);
    expect(await takeOverAnswers(h.db, 'instance-busy', { messageId: reply })).toEqual([]);
    expect(await storedRow(reply)).toMatchObject({ status: 'streaming', leaseOwner: 'instance-busy' });
    model.end();
    expect((await stream.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: 'Busy, not gone' });
  });

  it('a sweep leaves an answer whose writer renews its lease; at the start of the embedded database every other is taken over', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, instanceId: 'instance-live' });
    const { stream, reply } = await asking(t, h.visitor());
    model.say('Still here');
    await stream.untilText('Still here');

    expect(await takeOverAnswers(h.db, 'instance-other')).not.toContain(reply);
    expect(await localLiveAnswers((options) => takeOverAnswers(h.db, 'instance-other', options)).sweep()).toBe(0);
    expect(await storedRow(reply)).toMatchObject({ status: 'streaming', leaseOwner: 'instance-live' });
    // The embedded database is one process's: a new start takes every answer it does not write.
    expect(await takeOverAnswers(h.db, 'instance-restarted', { everyOther: true })).toContain(reply);
    expect(await storedRow(reply)).toMatchObject({ status: 'incomplete', leaseOwner: null });
    model.end();
    await stream.rest();
  });

  it('an answer taken over after its lease lapsed is not written again by the instance that lost it', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, instanceId: 'instance-stalled', config: { leaseMs: 60_000, leaseRenewMs: 20, answerCommitMs: 20 } });
    const { stream, reply } = await asking(t, h.visitor());
    model.say('Saved part');
    await waitFor(() => storedRow(reply), (row) => row.content === 'Saved part');
    // The lease lapsed (the instance stalled) and another instance took the answer over, in one
    // step: the writer's next renewal waits for it, then finds the answer no longer its own.
    const taken = await h.db.transaction(async (tx) => {
      await tx.update(messages).set({ leaseExpiresAt: new Date(0) }).where(eq(messages.id, reply));
      return takeOverAnswers(tx as unknown as Db, 'instance-sweeping');
    });
    expect(taken).toContain(reply);

    model.say(' and a late part');
    model.end();
    // Its reader is told (once the answer is settled) that it ended as stored; the late text is
    // stored nowhere and shown to no one: the instance that lost the lease no longer relays.
    const events = await stream.rest();
    expect(stream.text()).toBe('Saved part');
    expect(events.some((event) => event.type === 'end' || event.type === 'error')).toBe(false);
    expect(await storedRow(reply)).toMatchObject({ status: 'incomplete', content: 'Saved part' });
  });
});
