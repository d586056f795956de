import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';
import type { Db } from '../db/client';
import { messages } from '../db/schema';
import { eventReader, postJson, puppetRuntime, waitFor } from '../test/chat-client';
import { openHarness, type TestApp } from '../test/harness';
import { takeOverAnswers } from './answer-leases';
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
  return { conversationId, stream, reply: start.replyMessageId };
}

describe('leases of streaming answers', () => {
  it('an answer is created with the lease of the instance writing it, renewed while it runs, and released when stored', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, instanceId: 'instance-renewing', config: { leaseMs: 60_000, leaseRenewMs: 20 } });
    const { stream, reply } = await asking(t, h.visitor());
    const first = await storedRow(reply);
    expect(first).toMatchObject({ status: 'streaming', leaseOwner: 'instance-renewing' });
    await waitFor(() => storedRow(reply), (row) => row.leaseExpiresAt!.getTime() > first.leaseExpiresAt!.getTime());
    model.say('Done');
    model.end();
    await stream.rest();
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: 'Done', leaseOwner: null, leaseExpiresAt: null });
  });

  it('a sweep leaves an answer whose writer renews its lease; at the start of the embedded database every other is taken over', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, instanceId: 'instance-live' });
    const { stream, reply } = await asking(t, h.visitor());
    model.say('Still here');
    await stream.untilText('Still here');

    expect(await takeOverAnswers(h.db, 'instance-other')).not.toContain(reply);
    expect(await localLiveAnswers((options) => takeOverAnswers(h.db, 'instance-other', options).then((ids) => ids.length)).sweep()).toBe(0);
    expect(await storedRow(reply)).toMatchObject({ status: 'streaming', leaseOwner: 'instance-live' });
    // The embedded database is one process's: a new start takes every answer it does not write.
    expect(await takeOverAnswers(h.db, 'instance-restarted', { everyOther: true })).toContain(reply);
    expect(await storedRow(reply)).toMatchObject({ status: 'incomplete', leaseOwner: null });
    await stream.rest();
  });

  it('an answer taken over after its lease lapsed is not written again by the instance that lost it', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, instanceId: 'instance-stalled', config: { leaseMs: 60_000, leaseRenewMs: 20, answerSaveIntervalMs: 20 } });
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
    // Its reader is told (once the answer is settled) that it ended as stored; the late text is stored nowhere.
    const events = await stream.rest();
    expect(events.some((event) => event.type === 'end' || event.type === 'error')).toBe(false);
    expect(await storedRow(reply)).toMatchObject({ status: 'incomplete', content: 'Saved part' });
  });
});
