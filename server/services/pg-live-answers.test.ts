import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';
import type { ServerConfig } from '../config';
import { openDb } from '../db/client';
import { messages } from '../db/schema';
import { startServer } from '../start';
import { eventReader, postJson, puppetRuntime, waitFor } from '../test/chat-client';
import { openHarness, type TestApp } from '../test/harness';
import { takeOverAnswers } from './answer-leases';
import type { LiveAnswers } from './live-answers';
import { pgLiveAnswers } from './pg-live-answers';

const AGENT = 'SpecialNoAgentFallback';
type Start = Extract<ChatEvent, { type: 'start' }>;
type Headers = Record<string, string>;

let h: Awaited<ReturnType<typeof openHarness>>;
const databaseUrl = process.env.DATABASE_URL;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  if (databaseUrl) h = await openHarness();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});
afterAll(() => h?.close());

/**
 * One server instance over the file's PostgreSQL database: its own app, model, answers registry
 * and, when it is to be killed, its own connections.
 */
async function instance(options: { ownConnections?: boolean; poolMax?: number; config?: Partial<ServerConfig> } = {}) {
  const model = puppetRuntime();
  const instanceId = randomUUID();
  const handle = options.ownConnections
    ? await openDb({ databaseUrl: h.database.databaseUrl!, ...(options.poolMax ? { poolMax: options.poolMax } : {}) })
    : null;
  const db = handle?.db ?? h.db;
  const logs: string[] = [];
  // Leases long enough that a busy machine never lets a live one lapse, unless a test shortens them.
  const config = { leaseMs: 10_000, leaseRenewMs: 100, answerCommitMs: 50, ...options.config };
  const answers: LiveAnswers = await pgLiveAnswers({ databaseUrl: h.database.databaseUrl!, db, instanceId, leaseMs: config.leaseMs, leaseRenewMs: config.leaseRenewMs, log: (line) => logs.push(line) });
  const t = h.makeApp({ runtime: model.runtime, db, instanceId, answers, config });
  let sweeper: ReturnType<typeof setInterval> | undefined;
  const kill = async () => {
    clearInterval(sweeper);
    await answers.close();
    await handle?.close();
  };
  cleanups.push(async () => {
    model.end();
    await kill();
  });
  return {
    t,
    model,
    answers,
    instanceId,
    db,
    logs,
    /** What a running server does every renewal period: take over answers whose writer is gone. */
    sweepEvery: (ms: number) => void (sweeper = setInterval(() => void answers.sweep().catch(() => {}), ms)),
    /** As a killed process: nothing it holds is renewed, nothing it writes reaches the database. */
    kill,
  };
}

const newConversation = async (t: TestApp, headers: Headers) =>
  (await t.post(endpoints.conversationCreate.path, { sourceId: AGENT }, headers)).body.data.conversationId as string;
const ask = (t: TestApp, headers: Headers, body: Record<string, unknown>) => postJson(t, endpoints.chat.path, headers, { agentId: AGENT, ...body });
const resume = (t: TestApp, headers: Headers, conversationId: string, messageId: string, offset: number) =>
  postJson(t, endpoints.chatResume.path, headers, { conversationId, messageId, offset });
const stop = (t: TestApp, headers: Headers, conversationId: string, messageId: string) =>
  postJson(t, endpoints.chatStop.path, headers, { conversationId, messageId });
const storedRow = async (id: string) => (await h.db.select().from(messages).where(eq(messages.id, id)))[0]!;

async function asking(t: TestApp, headers: Headers) {
  const conversationId = await newConversation(t, headers);
  const stream = eventReader(await ask(t, headers, { conversationId, text: 'Tell me a long story' }));
  const start = (await stream.until((events) => events.length > 0))[0] as Start;
  return { conversationId, stream, start, reply: start.replyMessageId };
}

describe.skipIf(!databaseUrl)('answers across instances on one PostgreSQL', () => {
  it('a reader on B follows the answer A writes, from its offset, live, with nothing lost or doubled', async () => {
    const a = await instance();
    const b = await instance();
    const visitor = h.visitor();
    const { conversationId, stream, start, reply } = await asking(a.t, visitor);
    a.model.say('Hello');
    await stream.untilText('Hello');

    const second = eventReader(await resume(b.t, visitor, conversationId, reply, 2));
    await second.until((events) => events.length >= 2);
    expect(second.events).toEqual([
      { type: 'resume', messageId: reply, offset: 2 },
      { type: 'delta', messageId: reply, text: 'llo' },
    ]);
    // Pieces larger than one notification holds, in several bytes a character, arrive whole.
    const long = 'é✓'.repeat(6000);
    for (const piece of [', world', long, '!']) a.model.say(piece);
    await second.untilText(`${long}!`);
    a.model.end();
    expect((await second.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(second.text()).toBe(`llo, world${long}!`);
    expect((await stream.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: `Hello, world${long}!` });
  });

  it('stop on B stops the answer A writes; what every reader saw is what is stored', async () => {
    const a = await instance();
    const b = await instance();
    const owner = await h.loggedIn(a.t);
    const { conversationId, stream, reply } = await asking(a.t, owner.headers);
    a.model.say('Here is how ');
    a.model.say('Kraken');
    await stream.untilText('Kraken');
    const onB = eventReader(await resume(b.t, owner.headers, conversationId, reply, 0));
    await onB.untilText('Kraken');

    const stopped = await stop(b.t, owner.headers, conversationId, reply);
    expect(stopped.status).toBe(200);
    expect((await stopped.json()).data).toMatchObject({ messageId: reply, status: 'incomplete', content: 'Here is how Kraken' });
    a.model.say(' would usually');
    // The asker's stream closes without an ending, as a stopped answer always did; B is told.
    expect((await stream.rest()).some((event) => event.type === 'end' || event.type === 'error')).toBe(false);
    expect((await onB.rest()).at(-1)).toEqual({ type: 'incomplete', messageId: reply });
    expect(stream.text()).toBe('Here is how Kraken');
    expect(onB.text()).toBe('Here is how Kraken');
    expect(await storedRow(reply)).toMatchObject({ status: 'incomplete', content: 'Here is how Kraken' });
  });

  it('a retry sent to B while A writes the answer stops it and answers again, as on one instance', async () => {
    const a = await instance();
    const b = await instance();
    const visitor = h.visitor();
    const { conversationId, stream, start, reply } = await asking(a.t, visitor);
    a.model.say('Partial');
    await stream.untilText('Partial');

    const retried = await ask(b.t, visitor, { conversationId, retryMessageId: start.userMessageId });
    expect(retried.status).toBe(200);
    const again = eventReader(retried);
    expect((await again.until((events) => events.length > 0))[0]).toMatchObject({ type: 'start', replyMessageId: reply });
    expect((await stream.rest()).some((event) => event.type === 'end' || event.type === 'error')).toBe(false);
    b.model.say('Fresh answer');
    b.model.end();
    expect((await again.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(a.model.asked()).toBe(1);
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: 'Fresh answer', leaseOwner: null });
  });

  it('an instance starting while B writes an answer leaves it to B', async () => {
    const b = await instance();
    const visitor = h.visitor();
    const { stream, start, reply } = await asking(b.t, visitor);
    b.model.say('Going on');
    await stream.untilText('Going on');

    const other = await startServer({
      dataDir: mkdtempSync(join(tmpdir(), 'kraken-instance-')),
      databaseUrl: h.database.databaseUrl!,
      env: {},
      spaDir: null,
      log: () => {},
      demo: { username: 'demo-cluster@test.local', password: 'a-long-demo-password' },
    });
    await other.close();
    expect(await storedRow(reply)).toMatchObject({ status: 'streaming', leaseOwner: b.instanceId });

    b.model.say(' and on');
    b.model.end();
    expect((await stream.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: 'Going on and on' });
  });

  it('an answer read only on B counts as read on A: it is not cut as unwatched', async () => {
    const a = await instance({ config: { answerUnwatchedMaxChars: 10 } });
    const b = await instance();
    const visitor = h.visitor();
    const { conversationId, stream, start, reply } = await asking(a.t, visitor);
    const onB = eventReader(await resume(b.t, visitor, conversationId, reply, 0));
    await onB.until((events) => events.length > 0);
    // The asker leaves; only B reads now.
    await stream.cancel();
    a.model.say('0123456789abcdef');
    await onB.untilText('0123456789abcdef');
    a.model.end();
    expect((await onB.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: '0123456789abcdef' });
  });

  it('an instance whose notification connection is cut connects again and serves readers live', async () => {
    const a = await instance();
    const b = await instance();
    const visitor = h.visitor();
    const { conversationId, stream, start, reply } = await asking(a.t, visitor);
    a.model.say('Before');
    await stream.untilText('Before');
    const backendOf = async () => {
      const result = await h.db.execute(sql`select pid from pg_stat_activity where application_name = ${`kraken answers ${b.instanceId}`}`);
      return (result as unknown as { rows: { pid: number }[] }).rows;
    };
    const [cut] = await backendOf();
    await h.db.execute(sql`select pg_terminate_backend(${cut!.pid})`);
    await waitFor(backendOf, (rows) => rows.length === 1 && rows[0]!.pid !== cut!.pid);

    const onB = eventReader(await resume(b.t, visitor, conversationId, reply, 0));
    await onB.untilText('Before');
    a.model.say(' and after');
    await onB.untilText('Before and after');
    a.model.end();
    expect((await onB.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(onB.text()).toBe('Before and after');
  });

  it("a reader on B whose writer's last notifications never went out still gets the rest and the end, within a lease", async () => {
    const a = await instance({ config: { leaseMs: 1000 } });
    const b = await instance({ config: { leaseMs: 1000 } });
    const visitor = h.visitor();
    const { conversationId, stream, start, reply } = await asking(a.t, visitor);
    a.model.say('Before');
    await stream.untilText('Before');
    const onB = eventReader(await resume(b.t, visitor, conversationId, reply, 0));
    await onB.untilText('Before');
    // A's notification connection goes down just as the answer ends: B hears neither the last
    // piece nor the end from it.
    const [cut] = (
      (await h.db.execute(sql`select pid from pg_stat_activity where application_name = ${`kraken answers ${a.instanceId}`}`)) as unknown as {
        rows: { pid: number }[];
      }
    ).rows;
    await h.db.execute(sql`select pg_terminate_backend(${cut!.pid})`);
    a.model.say(' and the end');
    a.model.end();
    expect((await stream.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect((await onB.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(onB.text()).toBe('Before and the end');
  });

  it('an instance killed mid-answer: once its lease lapses another stores the answer incomplete with its saved text, and tells its readers', async () => {
    const a = await instance({ ownConnections: true, config: { leaseMs: 500 } });
    // CONTINUE_TAKEN_OVER=off: the answer is not written on (the next test).
    const b = await instance({ config: { continueTakenOverMax: 0 } });
    const visitor = h.visitor();
    const { conversationId, stream, reply } = await asking(a.t, visitor);
    a.model.say('Saved before the crash');
    await stream.untilText('crash');
    const onB = eventReader(await resume(b.t, visitor, conversationId, reply, 0));
    await onB.untilText('crash');
    await waitFor(() => storedRow(reply), (row) => row.content === 'Saved before the crash');

    await a.kill();
    b.sweepEvery(100);
    expect((await onB.rest()).at(-1)).toEqual({ type: 'incomplete', messageId: reply });
    expect(onB.text()).toBe('Saved before the crash');
    expect(await storedRow(reply)).toMatchObject({ status: 'incomplete', content: 'Saved before the crash', leaseOwner: null });
  });

  it('an instance whose answer was taken over while its model was silent stops relaying it at its next renewal', async () => {
    const a = await instance({ config: { leaseMs: 10_000, leaseRenewMs: 100 } });
    const visitor = h.visitor();
    const { stream, reply } = await asking(a.t, visitor);
    a.model.say('Shown and stored');
    await stream.untilText('Shown and stored');
    // As when A was paused past its lease: another instance found it lapsed and took it over.
    const taken = await h.db.transaction(async (tx) => {
      await tx.update(messages).set({ leaseExpiresAt: new Date(0) }).where(eq(messages.id, reply));
      return takeOverAnswers(tx as never, 'instance-sweeping');
    });
    expect(taken).toContain(reply);
    // Its reader's stream closes as a stopped answer's does, without an ending of its own.
    const events = await stream.rest();
    expect(events.some((event) => event.type === 'end' || event.type === 'error')).toBe(false);
    a.model.say(' and what came after');
    expect(stream.text()).toBe('Shown and stored');
    expect(a.logs.join('\n') + a.t.logs.join('\n')).toContain('taken over by another instance');
    expect(await storedRow(reply)).toMatchObject({ status: 'incomplete', content: 'Shown and stored' });
  });

  it('an instance killed mid-answer: the one that takes it over writes it on, and a reader on it follows to the end', async () => {
    const a = await instance({ ownConnections: true, config: { leaseMs: 500 } });
    const b = await instance();
    const visitor = h.visitor();
    const { conversationId, stream, start, reply } = await asking(a.t, visitor);
    a.model.say('Begun by A');
    await stream.untilText('Begun by A');
    const onB = eventReader(await resume(b.t, visitor, conversationId, reply, 0));
    await onB.untilText('Begun by A');

    await a.kill();
    b.sweepEvery(100);
    await waitFor(() => storedRow(reply), (row) => row.leaseOwner === b.instanceId);
    b.model.say(', finished by B.');
    b.model.end();
    expect((await onB.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(onB.text()).toBe('Begun by A, finished by B.');
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: 'Begun by A, finished by B.', takeoverContinuations: 1 });
  });

  it('an instance whose connections are all busy keeps its answers: their leases are renewed outside the queue', async () => {
    const a = await instance({ ownConnections: true, poolMax: 2, config: { leaseMs: 600, leaseRenewMs: 100 } });
    const b = await instance();
    const visitor = h.visitor();
    const { stream, start, reply } = await asking(a.t, visitor);
    a.model.say('Before the rush');
    await stream.untilText('Before the rush');

    // Every connection of A's pool is taken for longer than a lease, while B sweeps.
    b.sweepEvery(50);
    await Promise.all([1, 2].map(() => a.db.execute(sql`select pg_sleep(1.5)`)));
    expect(await storedRow(reply)).toMatchObject({ status: 'streaming', leaseOwner: a.instanceId });

    a.model.say(' and after it');
    a.model.end();
    expect((await stream.rest()).at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: 'Before the rush and after it' });
    expect(b.logs.join('\n')).not.toContain(reply);
  });

  it('stop on B of an answer whose instance was killed stores it incomplete with its saved text once the lease lapses', async () => {
    const a = await instance({ ownConnections: true, config: { leaseMs: 500 } });
    // B waits for an answer from A for its own lease, longer than A's: A's has lapsed by then.
    const b = await instance({ config: { leaseMs: 1000 } });
    const visitor = h.visitor();
    const { conversationId, stream, reply } = await asking(a.t, visitor);
    a.model.say('Written by A');
    await stream.untilText('Written by A');
    await waitFor(() => storedRow(reply), (row) => row.content === 'Written by A');

    await a.kill();
    const stopped = await stop(b.t, visitor, conversationId, reply);
    expect(stopped.status).toBe(200);
    expect((await stopped.json()).data).toMatchObject({ messageId: reply, status: 'incomplete', content: 'Written by A' });
  });
});
