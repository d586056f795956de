import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Task } from '../../src/contract/tasks';
import { tasks } from '../db/schema';
import { openHarness, testClock, type TestApp } from '../test/harness';
import { exportConnector, type Connectors } from './connector';
import { createLinkedInConnector, linkedInConfigFromEnv, toCommentary } from './linkedin';
import { startFakeLinkedIn } from './linkedin-fake';
import { createConnectorDirectory } from './directory';
import { createScheduler, INTERRUPTED_REASON } from './scheduler';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const TOKEN = 'fake-linkedin-token';
const AUTHOR = 'urn:li:person:abc123';

let h: Awaited<ReturnType<typeof openHarness>>;
let linkedin: Awaited<ReturnType<typeof startFakeLinkedIn>>;
beforeAll(async () => {
  h = await openHarness();
  linkedin = await startFakeLinkedIn({ token: TOKEN, version: '202505' });
});
afterAll(async () => {
  await linkedin.close();
  await h.close();
});
beforeEach(() => linkedin.reset());

/** The default company's connectors as the environment configures them, behind the real directory. */
const apiConnectors = (token = TOKEN) =>
  inDirectory({
    xiaohongshu: exportConnector('xiaohongshu'),
    linkedin: createLinkedInConnector({ apiBase: linkedin.url, accessToken: token, authorUrn: AUTHOR, version: '202505' }),
  });
const inDirectory = (environment: Connectors) => createConnectorDirectory({ db: h.db, sealer: null, environment });

async function scheduledTask(t: TestApp, headers: Record<string, string>, platform: 'linkedin' | 'xiaohongshu', inMs: number, withImage = false): Promise<Task> {
  let images: { fileId: string }[] = [];
  if (withImage || platform === 'xiaohongshu') {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'chart.png');
    const uploaded = await t.raw('/api/media/upload', { method: 'POST', headers, body: form });
    images = [{ fileId: ((await uploaded.json()) as { data: { fileId: string } }).data.fileId }];
  }
  const created = await t.post(
    '/api/kraken/task/create',
    { platform, title: 'Launch note', body: 'We shipped (finally) the new planner! #launch #product', images },
    headers,
  );
  const id = created.body.data.id as string;
  await t.post('/api/kraken/task/transition', { id, action: 'markReady' }, headers);
  const at = new Date(t.clock.now().getTime() + inMs).toISOString();
  const reply = await t.post('/api/kraken/task/transition', { id, action: 'schedule', scheduledAt: at }, headers);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.data as Task;
}

const detail = async (t: TestApp, headers: Record<string, string>, id: string) =>
  (await t.get('/api/kraken/task/detail', { id }, headers)).body.data as Task;

describe('the LinkedIn connector', () => {
  it('posts through the Posts API with the documented headers and body, and keeps the post id', async () => {
    const clock = testClock();
    const t = h.makeApp({ clock });
    const { headers } = await h.operator(t);
    const task = await scheduledTask(t, headers, 'linkedin', 60_000);
    const scheduler = createScheduler({ db: h.db, clock, connectors: apiConnectors(), storage: t.storage, log: () => undefined });

    expect(await scheduler.runDue()).toBe(0);
    expect(linkedin.requests).toHaveLength(0);
    clock.advance(60_000);
    expect(await scheduler.runDue()).toBe(1);

    const [request] = linkedin.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/rest/posts' });
    expect(request!.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'linkedin-version': '202505', 'x-restli-protocol-version': '2.0.0' });
    expect(linkedin.posts()[0]).toEqual({
      author: AUTHOR,
      commentary: 'We shipped \\(finally\\) the new planner! {hashtag|\\#|launch} {hashtag|\\#|product}',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
    });
    const published = await detail(t, headers, task.id);
    expect(published).toMatchObject({
      status: 'published',
      externalId: 'urn:li:share:700000000000001',
      externalUrl: 'https://www.linkedin.com/feed/update/urn:li:share:700000000000001/',
    });
    expect(published.history.slice(-2).map((e) => `${e.from}→${e.to} by ${e.by}`)).toEqual(['scheduled→publishing by scheduler', 'publishing→published by scheduler']);
    expect(await scheduler.runDue()).toBe(0);
  });

  it('uploads images through the Images API before the post', async () => {
    const clock = testClock();
    const t = h.makeApp({ clock });
    const { headers } = await h.operator(t);
    const task = await scheduledTask(t, headers, 'linkedin', 0, true);
    const scheduler = createScheduler({ db: h.db, clock, connectors: apiConnectors(), storage: t.storage, log: () => undefined });
    await scheduler.runDue();
    expect(linkedin.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /rest/images?action=initializeUpload', 'PUT /upload/1', 'POST /rest/posts']);
    expect(JSON.parse(linkedin.requests[0]!.body.toString())).toEqual({ initializeUploadRequest: { owner: AUTHOR } });
    expect(new Uint8Array(linkedin.requests[1]!.body)).toEqual(PNG);
    expect(linkedin.posts()[0]!.content).toEqual({ media: { id: 'urn:li:image:C4E1', altText: 'chart.png' } });
    expect((await detail(t, headers, task.id)).status).toBe('published');
  });

  it('fails the task with LinkedIn\'s reason, and it can be scheduled again', async () => {
    const clock = testClock();
    const t = h.makeApp({ clock });
    const { headers } = await h.operator(t);
    const task = await scheduledTask(t, headers, 'linkedin', 0);
    const scheduler = createScheduler({ db: h.db, clock, connectors: apiConnectors('expired-token'), storage: t.storage, log: () => undefined });
    await scheduler.runDue();
    const failed = await detail(t, headers, task.id);
    expect(failed.status).toBe('failed');
    expect(failed.failureReason).toBe(
      'LinkedIn refused the post (HTTP 401): Invalid access token. The access token is invalid or expired: renew the LinkedIn access token (in the console, or LINKEDIN_ACCESS_TOKEN).',
    );
    const again = await t.post('/api/kraken/task/transition', { id: task.id, action: 'schedule', scheduledAt: clock.now().toISOString() }, headers);
    expect(again.body.data).toMatchObject({ status: 'scheduled', failureReason: null });
    const working = createScheduler({ db: h.db, clock, connectors: apiConnectors(), storage: t.storage, log: () => undefined });
    await working.runDue();
    expect((await detail(t, headers, task.id)).status).toBe('published');
  });

  it('says when LinkedIn cannot be reached', async () => {
    const clock = testClock();
    const t = h.makeApp({ clock });
    const { headers } = await h.operator(t);
    const task = await scheduledTask(t, headers, 'linkedin', 0);
    const connectors: Connectors = {
      xiaohongshu: exportConnector('xiaohongshu'),
      linkedin: createLinkedInConnector({ apiBase: 'http://127.0.0.1:1', accessToken: TOKEN, authorUrn: AUTHOR, version: '202505' }),
    };
    await createScheduler({ db: h.db, clock, connectors: inDirectory(connectors), storage: t.storage, log: () => undefined }).runDue();
    expect((await detail(t, headers, task.id)).failureReason).toBe('LinkedIn could not take the post: it could not be reached. Schedule the task again to retry.');
  });

  it('escapes LinkedIn little-text characters and reads its settings from the environment', () => {
    expect(toCommentary('Hi @team [draft] #AI_tools <3 * done_')).toBe('Hi \\@team \\[draft\\] {hashtag|\\#|AI\\_tools} \\<3 \\* done\\_');
    expect(linkedInConfigFromEnv({})).toBeNull();
    expect(linkedInConfigFromEnv({ LINKEDIN_ACCESS_TOKEN: 't', LINKEDIN_AUTHOR_URN: AUTHOR, LINKEDIN_API_BASE: 'http://127.0.0.1:9/' })).toEqual({
      apiBase: 'http://127.0.0.1:9',
      accessToken: 't',
      authorUrn: AUTHOR,
      version: '202505',
    });
    expect(() => linkedInConfigFromEnv({ LINKEDIN_ACCESS_TOKEN: 't' })).toThrow(/LINKEDIN_AUTHOR_URN/);
  });
});

describe('the scheduler', () => {
  it('hands Xiaohongshu and token-less LinkedIn tasks over for export at their time', async () => {
    const clock = testClock();
    const t = h.makeApp({ clock });
    const { headers } = await h.operator(t);
    const note = await scheduledTask(t, headers, 'xiaohongshu', 30_000);
    const post = await scheduledTask(t, headers, 'linkedin', 90_000);
    const connectors: Connectors = { xiaohongshu: exportConnector('xiaohongshu'), linkedin: exportConnector('linkedin') };
    const scheduler = createScheduler({ db: h.db, clock, connectors: inDirectory(connectors), storage: t.storage, log: () => undefined });
    clock.advance(60_000);
    await scheduler.runDue();
    expect((await detail(t, headers, note.id)).status).toBe('due');
    expect((await detail(t, headers, post.id)).status).toBe('scheduled');
    clock.advance(60_000);
    await scheduler.runDue();
    expect((await detail(t, headers, post.id)).status).toBe('due');
    expect(linkedin.requests).toHaveLength(0);

    const done = await t.post('/api/kraken/task/transition', { id: note.id, action: 'markPublished', postUrl: 'https://www.xiaohongshu.com/explore/abc' }, headers);
    expect(done.body.data).toMatchObject({ status: 'published', externalUrl: 'https://www.xiaohongshu.com/explore/abc' });
    expect((await t.post('/api/kraken/task/update', { id: note.id, title: 'Too late' }, headers)).status).toBe(409);
  });

  it('survives a restart: due tasks are found by a new scheduler, interrupted ones fail honestly or are published once', async () => {
    const clock = testClock();
    const t = h.makeApp({ clock });
    const { headers } = await h.operator(t);
    const waiting = await scheduledTask(t, headers, 'linkedin', 10_000);
    const interrupted = await scheduledTask(t, headers, 'linkedin', 10_000);
    const unstarted = await scheduledTask(t, headers, 'linkedin', 10_000);
    // One server stopped after calling the platform, another before: both held leases not yet lapsed.
    const lease = { status: 'publishing' as const, leaseOwner: 'stopped-server', leaseExpiresAt: new Date(Date.now() + 3600_000) };
    await h.db.update(tasks).set({ ...lease, publishAttemptedAt: new Date() }).where(eq(tasks.id, interrupted.id));
    await h.db.update(tasks).set(lease).where(eq(tasks.id, unstarted.id));
    clock.advance(20_000);

    const logs: string[] = [];
    const scheduler = createScheduler({
      db: h.db,
      clock,
      connectors: apiConnectors(),
      storage: t.storage,
      log: (line) => logs.push(line),
      intervalMs: 60_000,
      exclusive: true,
    });
    await scheduler.start();
    await expect.poll(async () => (await detail(t, headers, waiting.id)).status).toBe('published');
    await expect.poll(async () => (await detail(t, headers, unstarted.id)).status).toBe('published');
    await scheduler.stop();
    const failed = await detail(t, headers, interrupted.id);
    expect(failed).toMatchObject({ status: 'failed', failureReason: INTERRUPTED_REASON });
    // The one that failed is not posted again: two tasks published, two posts.
    expect(linkedin.posts()).toHaveLength(2);
    expect(logs[0]).toBe("publishing: each company's tasks with its own connectors; checking every 60 s");
  });
});
