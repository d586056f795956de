import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src/contract/tasks';
import { openDb, type DbHandle } from '../db/client';
import { tasks } from '../db/schema';
import type { FileStorage } from '../media/storage';
import { waitFor } from '../test/chat-client';
import { openHarness, testClock, type TestApp } from '../test/harness';
import { exportConnector, type Connector } from './connector';
import { createLinkedInConnector } from './linkedin';
import { startFakeLinkedIn } from './linkedin-fake';
import { sameForEveryCompany } from './directory';
import { createScheduler, INTERRUPTED_REASON, type Scheduler } from './scheduler';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const TOKEN = 'fake-linkedin-token';
const databaseUrl = process.env.DATABASE_URL;
/** Short leases, so a test sees one lapse, yet long enough that a busy machine never lets a live one lapse. */
const LEASE = { leaseMs: 1500, leaseRenewMs: 100 };

let h: Awaited<ReturnType<typeof openHarness>>;
let linkedin: Awaited<ReturnType<typeof startFakeLinkedIn>>;
const cleanups: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  if (!databaseUrl) return;
  h = await openHarness();
  linkedin = await startFakeLinkedIn({ token: TOKEN, version: '202505' });
});
afterAll(async () => {
  await linkedin?.close();
  await h?.close();
});
beforeEach(() => linkedin?.reset());
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const linkedInConnector = (): Connector =>
  createLinkedInConnector({ apiBase: linkedin.url, accessToken: TOKEN, authorUrn: 'urn:li:person:abc123', version: '202505' });
const connectorsWith = (linkedinConnector: Connector) => sameForEveryCompany({ xiaohongshu: exportConnector('xiaohongshu'), linkedin: linkedinConnector });

async function dueTask(t: TestApp, headers: Record<string, string>): Promise<Task> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'chart.png');
  const uploaded = await t.raw('/api/media/upload', { method: 'POST', headers, body: form });
  const images = [{ fileId: ((await uploaded.json()) as { data: { fileId: string } }).data.fileId }];
  const created = await t.post('/api/kraken/task/create', { platform: 'linkedin', title: 'Launch note', body: 'We shipped the planner #launch', images }, headers);
  const id = created.body.data.id as string;
  await t.post('/api/kraken/task/transition', { id, action: 'markReady' }, headers);
  const at = new Date(t.clock.now().getTime() + 10_000).toISOString();
  const reply = await t.post('/api/kraken/task/transition', { id, action: 'schedule', scheduledAt: at }, headers);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  t.clock.advance(20_000);
  return reply.body.data as Task;
}

const taskRow = async (id: string) => (await h.db.select().from(tasks).where(eq(tasks.id, id)))[0]!;

/** An instance with connections of its own, so that killing it cuts them as a dead process would. */
async function instanceA(t: TestApp, options: { storage?: FileStorage; connector?: Connector }) {
  const handle: DbHandle = await openDb({ databaseUrl: h.database.databaseUrl! });
  const scheduler = createScheduler({
    db: handle.db,
    clock: t.clock,
    connectors: connectorsWith(options.connector ?? linkedInConnector()),
    storage: options.storage ?? t.storage,
    log: () => {},
    intervalMs: 60_000,
    instanceId: 'instance-a',
    ...LEASE,
  });
  return { scheduler, kill: () => handle.close() };
}

function instanceB(t: TestApp): Scheduler {
  const scheduler = createScheduler({ db: h.db, clock: t.clock, connectors: connectorsWith(linkedInConnector()), storage: t.storage, log: () => {}, intervalMs: 100, ...LEASE });
  cleanups.push(() => scheduler.stop());
  return scheduler;
}

describe.skipIf(!databaseUrl)('publishing with several instances on one PostgreSQL', () => {
  it('an instance killed mid-publish, before reaching the platform: another publishes the task once its lease lapses, one post', async () => {
    const t = h.makeApp({ clock: testClock() });
    const { headers } = await h.operator(t);
    const task = await dueTask(t, headers);
    let readingImages: () => void = () => {};
    const reached = new Promise<void>((resolve) => (readingImages = resolve));
    // A dies while reading the task's images: the platform has not been called.
    const hanging: FileStorage = { ...t.storage, get: () => (readingImages(), new Promise(() => {})) };
    const a = await instanceA(t, { storage: hanging });
    void a.scheduler.runDue();
    await reached;

    // B starting now leaves A's task alone: A's lease is live.
    const b = instanceB(t);
    await b.start();
    expect(await taskRow(task.id)).toMatchObject({ status: 'publishing', leaseOwner: 'instance-a' });

    await a.kill();
    const done = await waitFor(() => taskRow(task.id), (row) => row.status !== 'publishing' && row.status !== 'scheduled');
    expect(done).toMatchObject({ status: 'published', failureReason: null });
    expect(linkedin.posts()).toHaveLength(1);
  });

  it('an instance killed after the platform received the post: another fails the task with a reason and never posts it again', async () => {
    const t = h.makeApp({ clock: testClock() });
    const { headers } = await h.operator(t);
    const task = await dueTask(t, headers);
    let posted: () => void = () => {};
    const reached = new Promise<void>((resolve) => (posted = resolve));
    const real = linkedInConnector();
    const dyingAfterPost: Connector = {
      ...real,
      mode: 'api',
      publish: async (input) => {
        if (real.mode === 'api') await real.publish(input);
        posted();
        return new Promise(() => {});
      },
    };
    const a = await instanceA(t, { connector: dyingAfterPost });
    void a.scheduler.runDue();
    await reached;
    await a.kill();

    const b = instanceB(t);
    await b.start();
    const done = await waitFor(() => taskRow(task.id), (row) => row.status !== 'publishing');
    expect(done).toMatchObject({ status: 'failed', failureReason: INTERRUPTED_REASON });
    expect(linkedin.posts()).toHaveLength(1);
  });
});
