import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import { createSealer } from '../auth/sealed';
import { exportConnector } from '../publishing/connector';
import { createConnectorDirectory } from '../publishing/directory';
import { createLinkedInConnector } from '../publishing/linkedin';
import { startFakeLinkedIn } from '../publishing/linkedin-fake';
import { createScheduler } from '../publishing/scheduler';
import { openHarness, testClock, type TestApp } from '../test/harness';

/**
 * The operations area is its companies' operators' and admins' alone: a stranger who signed in
 * (by WeChat or sign-up, in no company), a member of the company and an operator of another
 * company cannot list, create, schedule or publish the company's tasks, and no post leaves with
 * a company's credentials but for that company's own tasks.
 */

const COMPANY_TOKEN = 'kraken-company-linkedin-token';
const NORTHWIND_TOKEN = 'northwind-own-linkedin-token';
const COMPANY_AUTHOR = 'urn:li:organization:1001';

let h: Awaited<ReturnType<typeof openHarness>>;
let linkedin: Awaited<ReturnType<typeof startFakeLinkedIn>>;
beforeAll(async () => {
  h = await openHarness();
  linkedin = await startFakeLinkedIn({ token: COMPANY_TOKEN, version: '202505' });
});
afterAll(async () => {
  await linkedin.close();
  await h.close();
});
beforeEach(() => linkedin.reset());

const KRAKEN_CALLS = Object.entries(endpoints).filter(([, endpoint]) => endpoint.path.startsWith('/api/kraken/'));

async function call(t: TestApp, name: string, headers: Record<string, string>, taskId = 'no-such-task') {
  const endpoint = endpoints[name as keyof typeof endpoints];
  const bodies: Record<string, Record<string, unknown>> = {
    taskList: {},
    taskCreate: { platform: 'linkedin', title: 'Posted by a stranger', body: 'Posted by a random stranger on the company page' },
    taskUpdate: { id: taskId, title: 'Changed by a stranger' },
    taskTransition: { id: taskId, action: 'markReady' },
    taskDelete: { id: taskId },
    taskDrafting: { platform: 'linkedin', brief: { topic: 'Stranger danger' }, count: 1 },
  };
  if (endpoint.method === 'GET') return t.get(endpoint.path, endpoint.input === 'query' ? { id: taskId } : {}, headers);
  return t.post(endpoint.path, bodies[name] ?? {}, headers);
}

async function scheduleLinkedIn(t: TestApp, headers: Record<string, string>, title: string) {
  const created = await t.post('/api/kraken/task/create', { platform: 'linkedin', title, body: `${title}: the launch.` }, headers);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as string;
  await t.post('/api/kraken/task/transition', { id, action: 'markReady' }, headers);
  const scheduled = await t.post('/api/kraken/task/transition', { id, action: 'schedule', scheduledAt: t.clock.now().toISOString() }, headers);
  expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
  return id;
}

describe('who may use the operations area', () => {
  it('refuses every operations call to a stranger, a member of the company and a visitor, and lets an operator and an admin in', async () => {
    const t = h.makeApp();
    const operator = await h.operator(t);
    const task = await t.post('/api/kraken/task/create', { platform: 'linkedin', title: 'Ours', body: 'Text' }, operator.headers);
    const taskId = task.body.data.id as string;
    const stranger = await h.loggedIn(t); // signed in by WeChat or sign-up: no company, a member
    const member = await h.loggedIn(t, { companyId: 'kraken', role: 'member' });
    const strangerAdminOfNothing = await h.loggedIn(t, { companyId: null, role: 'operator' });
    expect(KRAKEN_CALLS.length).toBeGreaterThanOrEqual(8);
    for (const [name] of KRAKEN_CALLS) {
      for (const [who, headers, status] of [
        ['a stranger', stranger.headers, 403],
        ['a member of the company', member.headers, 403],
        ['an operator of no company', strangerAdminOfNothing.headers, 403],
        ['a visitor', h.visitor(), 401],
        ['nobody', {}, 401],
      ] as const) {
        const reply = await call(t, name, headers, taskId);
        expect(reply.status, `${name} as ${who}`).toBe(status);
        expect(reply.body.code).toBe(1);
      }
    }
    const verify = await t.get('/api/kraken/session/verify', {}, stranger.headers);
    expect(verify.body).toMatchObject({ code: 1, success: false });
    expect(verify.body.msg).toMatch(/permission for the operations area/);
    const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    for (const headers of [operator.headers, admin.headers]) {
      expect((await t.get('/api/kraken/session/verify', {}, headers)).status).toBe(200);
      expect((await t.get('/api/kraken/task/detail', { id: taskId }, headers)).body.data.title).toBe('Ours');
    }
    const untouched = await t.get('/api/kraken/task/detail', { id: taskId }, operator.headers);
    expect(untouched.body.data).toMatchObject({ title: 'Ours', status: 'draft' });
  });

  it('shares a company\'s tasks among its operators, and keeps them from another company\'s', async () => {
    const t = h.makeApp();
    const lin = await h.operator(t);
    const colleague = await h.operator(t);
    const rival = await h.operator(t, { companyId: 'northwind' });
    const id = await scheduleLinkedIn(t, lin.headers, 'Colleagues');
    const seen = await t.get('/api/kraken/task/detail', { id }, colleague.headers);
    expect(seen.body.data).toMatchObject({ title: 'Colleagues', status: 'scheduled' });
    expect((await t.post('/api/kraken/task/transition', { id, action: 'unschedule' }, colleague.headers)).status).toBe(200);
    expect((await t.get('/api/kraken/task/detail', { id }, rival.headers)).status).toBe(404);
    expect((await t.post('/api/kraken/task/transition', { id, action: 'backToDraft' }, rival.headers)).status).toBe(404);
    const rivalList = await t.post('/api/kraken/task/list', {}, rival.headers);
    expect(rivalList.body.data.list.map((task: { id: string }) => task.id)).not.toContain(id);
  });

  it('a member made operator gets in at once, and one made member again is out at once', async () => {
    const t = h.makeApp();
    const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    const person = await h.loggedIn(t, { companyId: 'kraken' });
    expect((await t.get('/api/kraken/session/verify', {}, person.headers)).status).toBe(403);
    await t.post('/api/admin/user/update', { id: person.user.id, role: 'operator' }, admin.headers);
    expect((await t.get('/api/kraken/session/verify', {}, person.headers)).status).toBe(200);
    await t.post('/api/admin/user/update', { id: person.user.id, role: 'member' }, admin.headers);
    expect((await t.post('/api/kraken/task/list', {}, person.headers)).status).toBe(403);
  });
});

describe('whose credentials a post leaves with', () => {
  it('posts a company\'s task with its own connector only: another company\'s task is never posted with it', async () => {
    const clock = testClock();
    const t = h.makeApp({ clock });
    const ours = await h.operator(t);
    const theirs = await h.operator(t, { companyId: 'northwind' });
    const ourTask = await scheduleLinkedIn(t, ours.headers, 'Company news');
    const theirTask = await scheduleLinkedIn(t, theirs.headers, 'Posted by a random stranger on the company page');
    const connectors = createConnectorDirectory({
      db: h.db,
      sealer: null,
      environment: {
        xiaohongshu: exportConnector('xiaohongshu'),
        linkedin: createLinkedInConnector({ apiBase: linkedin.url, accessToken: COMPANY_TOKEN, authorUrn: COMPANY_AUTHOR, version: '202505' }),
      },
    });
    const scheduler = createScheduler({ db: h.db, clock, connectors, storage: t.storage, log: () => undefined });
    expect(await scheduler.runDue()).toBeGreaterThanOrEqual(2);
    const posts = linkedin.posts();
    expect(posts).toHaveLength(1);
    expect(posts[0]!.commentary).toContain('Company news');
    expect(JSON.stringify(linkedin.requests.map((r) => r.body.toString()))).not.toContain('stranger');
    expect((await t.get('/api/kraken/task/detail', { id: ourTask }, ours.headers)).body.data.status).toBe('published');
    expect((await t.get('/api/kraken/task/detail', { id: theirTask }, theirs.headers)).body.data.status).toBe('due');
    expect((await t.get('/api/kraken/session/verify', {}, theirs.headers)).body.data.publishing.linkedin).toBe('export');
    const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    const log = (await t.post('/api/admin/audit/list', { pageSize: 100 }, admin.headers)).body.data.list as { action: string; target: string; actorName: string }[];
    expect(log.find((entry) => entry.target === ourTask && entry.action === 'task.published')).toMatchObject({ actorName: 'scheduler' });
    expect(log.find((entry) => entry.target === theirTask && entry.action === 'task.handedOver')).toMatchObject({ actorName: 'scheduler' });
  });

  it('posts with the connector an admin set for that company, sealed at rest and never shown again', async () => {
    const clock = testClock();
    const sealer = createSealer('k'.repeat(40));
    const t = h.makeApp({ clock, sealer });
    const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    const set = await t.post(
      '/api/admin/connector/set',
      { companyId: 'northwind', platform: 'linkedin', accessToken: NORTHWIND_TOKEN, authorUrn: 'urn:li:organization:2002' },
      admin.headers,
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(JSON.stringify(set.body)).not.toContain(NORTHWIND_TOKEN);
    const listed = await t.get('/api/admin/connector/list', { companyId: 'northwind' }, admin.headers);
    expect(listed.body.data).toEqual([expect.objectContaining({ configured: true, source: 'console', authorUrn: 'urn:li:organization:2002' })]);
    expect(JSON.stringify(listed.body)).not.toContain(NORTHWIND_TOKEN);
    const stored = await h.db.execute<{ sealed_secret: string }>(`select sealed_secret from connectors where company_id = 'northwind'` as never);
    const rows = (stored as unknown as { rows: { sealed_secret: string }[] }).rows;
    expect(rows[0]!.sealed_secret).not.toContain(NORTHWIND_TOKEN);

    const northwindFake = await startFakeLinkedIn({ token: NORTHWIND_TOKEN, version: '202505' });
    try {
      const theirs = await h.operator(t, { companyId: 'northwind' });
      const id = await scheduleLinkedIn(t, theirs.headers, 'Northwind news');
      const connectors = createConnectorDirectory({
        db: h.db,
        sealer,
        environment: { xiaohongshu: exportConnector('xiaohongshu'), linkedin: exportConnector('linkedin') },
        linkedIn: { apiBase: northwindFake.url, version: '202505' },
      });
      await createScheduler({ db: h.db, clock, connectors, storage: t.storage, log: () => undefined }).runDue();
      expect(northwindFake.posts()).toEqual([expect.objectContaining({ author: 'urn:li:organization:2002' })]);
      expect((await t.get('/api/kraken/task/detail', { id }, theirs.headers)).body.data.status).toBe('published');
    } finally {
      await northwindFake.close();
      await t.post('/api/admin/connector/clear', { companyId: 'northwind', platform: 'linkedin' }, admin.headers);
    }
  });

  it('refuses to store a connector when the server has no key to seal it with', async () => {
    const t = h.makeApp();
    const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    const set = await t.post(
      '/api/admin/connector/set',
      { companyId: 'northwind', platform: 'linkedin', accessToken: NORTHWIND_TOKEN, authorUrn: 'urn:li:organization:2002' },
      admin.headers,
    );
    expect(set.status).toBe(409);
    expect(set.body.msg).toMatch(/CONNECTOR_KEY/);
  });

  it('writes who scheduled what, from which session, to the audit log', async () => {
    const t = h.makeApp();
    const ops = await h.operator(t, { nickname: 'Ops Lin' });
    const id = await scheduleLinkedIn(t, ops.headers, 'Audited');
    const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    const log = await t.post('/api/admin/audit/list', { action: 'task.schedule', pageSize: 50 }, admin.headers);
    const entry = log.body.data.list.find((e: { target: string }) => e.target === id);
    expect(entry).toMatchObject({ actorId: ops.user.id, actorName: 'Ops Lin', action: 'task.schedule', details: { platform: 'linkedin' } });
    expect(entry.sessionId).toEqual(expect.any(String));
  });
});
