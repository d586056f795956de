import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { userInfoSchema } from '../../src/contract/users';
import { scanTickets } from '../db/schema';
import { openHarness } from '../test/harness';
import { pngOf } from '../test/png';

const ME = '/api/system/user/get-user-info';
const UPDATE = '/api/system/user/update';
const SCAN = '/api/system/user/update-scanid';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

describe('user info', () => {
  it('falls back to the username when no nickname is set', async () => {
    const t = h.makeApp();
    const { headers, username } = await h.loggedIn(t);
    const reply = await t.get(ME, {}, headers);
    expect(v.parse(userInfoSchema, reply.body.data)).toMatchObject({ username, nickname: username, avatar: '' });
  });

  it('answers the company of a company user', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t, { companyId: 'northwind', nickname: 'Nora' });
    expect((await t.get(ME, {}, headers)).body.data).toMatchObject({ nickname: 'Nora', companyId: 'northwind' });
  });
});

describe('updating the user', () => {
  it('changes nickname, avatar and WeChat id, never the username', async () => {
    const t = h.makeApp();
    const { headers, username } = await h.loggedIn(t);
    const form = new FormData();
    form.set('file', new File([new Uint8Array(pngOf(4, [1, 2, 3]))], 'me.png', { type: 'image/png' }));
    const avatar = (await (await t.raw('/api/media/upload', { method: 'POST', body: form, headers })).json()).data.url;
    const reply = await t.post(
      UPDATE,
      { nickname: '  Ada L ', avatar, wechatId: 'ada_lovelace', username: 'hacker@evil.example' },
      headers,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ username, nickname: 'Ada L', avatar, wechatId: 'ada_lovelace' });
    expect((await t.get(ME, {}, headers)).body.data.username).toBe(username);
    const cleared = await t.post(UPDATE, { wechatId: '' }, headers);
    expect(cleared.body.data).not.toHaveProperty('wechatId');
  });

  it('changes only the caller', async () => {
    const t = h.makeApp();
    const a = await h.loggedIn(t, { nickname: 'A' });
    const b = await h.loggedIn(t, { nickname: 'B' });
    await t.post(UPDATE, { nickname: 'A2' }, a.headers);
    expect((await t.get(ME, {}, b.headers)).body.data.nickname).toBe('B');
  });

  it('refuses bad values with 400', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    for (const body of [{ nickname: '' }, { nickname: 'x'.repeat(33) }, { wechatId: '1abc' }, { wechatId: 'ab' }, { avatar: 5 }]) {
      const reply = await t.post(UPDATE, body, headers);
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe(1);
    }
  });
});

describe('confirming a scan id', () => {
  it('confirms a waiting ticket with the signed-in user, once', async () => {
    const t = h.makeApp();
    const { headers, user } = await h.loggedIn(t);
    const now = t.clock.now();
    await h.db.insert(scanTickets).values({
      id: 'scan-waiting-1',
      fingerPrint: 'fp',
      status: 'waiting',
      createdAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
    });
    const reply = await t.post(SCAN, { scanid: 'scan-waiting-1' }, headers);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ code: 0, data: null });
    const [row] = await h.db.select().from(scanTickets);
    expect(row).toMatchObject({ status: 'confirmed', userId: user.id });
    expect((await t.post(SCAN, { scanid: 'scan-waiting-1' }, headers)).status).toBe(409);
  });

  it('answers 410 for an expired scan id, 404 for an unknown one, 400 for a missing one', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    const now = t.clock.now();
    await h.db.insert(scanTickets).values({
      id: 'scan-expired-1',
      fingerPrint: 'fp',
      status: 'waiting',
      createdAt: new Date(now.getTime() - 120_000),
      expiresAt: new Date(now.getTime() - 60_000),
    });
    expect((await t.post(SCAN, { scanid: 'scan-expired-1' }, headers)).status).toBe(410);
    expect((await t.post(SCAN, { scanid: 'no-such-scan' }, headers)).body).toMatchObject({ code: 1, msg: 'Scan id not found' });
    expect((await t.post(SCAN, {}, headers)).status).toBe(400);
  });
});
