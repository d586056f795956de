import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema';
import { LAST_USED_RESOLUTION_MS } from '../services/sessions';
import { openHarness } from '../test/harness';

const SESSIONS = '/api/system/user/sessions';
const REVOKE = '/api/system/user/sessions/revoke';
const REVOKE_OTHERS = '/api/system/user/sessions/revoke-others';
const ME = '/api/system/user/get-user-info';
const LOGIN = '/api/system/auth/login';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** One account signed in from a laptop and a phone. */
async function twoDevices() {
  const t = h.makeApp();
  const account = await h.newUser();
  const signIn = async (userAgent: string) => {
    const reply = await t.post(LOGIN, { username: account.username, password: account.password }, { 'user-agent': userAgent });
    expect(reply.status).toBe(200);
    return reply.body.data.token as string;
  };
  const laptop = await signIn(FIREFOX);
  t.clock.advance(1000);
  const phone = await signIn(SAFARI_IPHONE);
  return { t, account, laptop, phone };
}

describe('sessions', () => {
  it('lists every active session with device, address, sign-in and last use, this device marked', async () => {
    const { t, laptop } = await twoDevices();
    const list = await t.get(SESSIONS, {}, bearer(laptop));
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control') ?? '').not.toContain('public');
    expect(list.body.data).toHaveLength(2);
    const [first, second] = list.body.data;
    expect(first).toMatchObject({ device: { browser: 'Safari 17', os: 'iOS 17' }, method: 'password', current: false });
    expect(second).toMatchObject({ device: { browser: 'Firefox 133', os: 'Linux' }, method: 'password', current: true });
    for (const session of list.body.data) {
      expect(session.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(session.signedInAt)).not.toBeNaN();
      expect(typeof session.address).toBe('string');
      // The public id is never the token, nor its hash.
      expect(JSON.stringify(session)).not.toContain(laptop);
    }
  });

  it('signs out one session: that token stops working at once, the others go on', async () => {
    const { t, laptop, phone } = await twoDevices();
    const list = await t.get(SESSIONS, {}, bearer(laptop));
    const phoneSession = list.body.data.find((session: { current: boolean }) => !session.current);
    expect((await t.post(REVOKE, { id: phoneSession.id }, bearer(laptop))).status).toBe(200);
    expect((await t.get(ME, {}, bearer(phone))).status).toBe(401);
    expect((await t.get(ME, {}, bearer(laptop))).status).toBe(200);
    expect((await t.get(SESSIONS, {}, bearer(laptop))).body.data).toHaveLength(1);
    // Signing out what is already signed out: it is no longer there.
    expect((await t.post(REVOKE, { id: phoneSession.id }, bearer(laptop))).status).toBe(404);
  });

  it('signs out all others and keeps this one', async () => {
    const { t, account, laptop, phone } = await twoDevices();
    const third = (await t.post(LOGIN, { username: account.username, password: account.password })).body.data.token as string;
    const reply = await t.post(REVOKE_OTHERS, undefined, bearer(phone));
    expect(reply.body.data).toEqual({ revoked: 2 });
    expect((await t.get(ME, {}, bearer(laptop))).status).toBe(401);
    expect((await t.get(ME, {}, bearer(third))).status).toBe(401);
    expect((await t.get(ME, {}, bearer(phone))).status).toBe(200);
    const left = await t.get(SESSIONS, {}, bearer(phone));
    expect(left.body.data).toEqual([expect.objectContaining({ current: true })]);
  });

  it("only ever shows and signs out the caller's own sessions", async () => {
    const mine = await twoDevices();
    const theirs = await h.loggedIn(mine.t);
    const theirList = await mine.t.get(SESSIONS, {}, theirs.headers);
    expect(theirList.body.data).toHaveLength(1);
    const myIds = (await mine.t.get(SESSIONS, {}, bearer(mine.laptop))).body.data.map((session: { id: string }) => session.id);
    expect(theirList.body.data[0].id).not.toBeOneOf(myIds);
    for (const id of myIds) expect((await mine.t.post(REVOKE, { id }, theirs.headers)).status).toBe(404);
    expect((await mine.t.post(REVOKE_OTHERS, undefined, theirs.headers)).body.data).toEqual({ revoked: 0 });
    expect((await mine.t.get(ME, {}, bearer(mine.laptop))).status).toBe(200);
    expect((await mine.t.get(ME, {}, bearer(mine.phone))).status).toBe(200);
  });

  it('refreshes "last used" at most every few minutes, not on every call', async () => {
    const { t, account, phone } = await twoDevices();
    const lastUsed = async () => {
      const rows = await h.db.select().from(sessions).where(eq(sessions.userId, account.user.id));
      return rows.map((row) => row.lastUsedAt!.getTime()).sort((a, b) => a - b);
    };
    const before = await lastUsed();
    t.clock.advance(LAST_USED_RESOLUTION_MS - 1);
    await t.get(ME, {}, bearer(phone));
    expect(await lastUsed()).toEqual(before);
    t.clock.advance(1);
    await t.get(ME, {}, bearer(phone));
    expect((await lastUsed()).at(-1)).toBe(t.clock.now().getTime());
  });

  it('lists a session opened before devices were recorded by its sign-in time, device unknown', async () => {
    const { t, account, laptop } = await twoDevices();
    // As the migration leaves an older session: no method, device, address or last use.
    await h.db
      .update(sessions)
      .set({ method: null, userAgent: null, address: null, lastUsedAt: null })
      .where(eq(sessions.userId, account.user.id));
    t.clock.advance(LAST_USED_RESOLUTION_MS);
    const list = (await t.get(SESSIONS, {}, bearer(laptop))).body.data;
    // The call itself made the laptop's session used now: it comes first, the untouched one after.
    expect(list.map((session: { current: boolean }) => session.current)).toEqual([true, false]);
    const older = list[1];
    expect(older).toEqual({
      id: expect.any(String),
      device: { browser: '', os: '' },
      address: '',
      signedInAt: older.signedInAt,
      lastUsedAt: older.signedInAt,
      current: false,
    });
  });

  it('leaves out expired and logged-out sessions', async () => {
    const { t, laptop, phone } = await twoDevices();
    await t.post('/api/system/auth/logout', undefined, bearer(phone));
    expect((await t.get(SESSIONS, {}, bearer(laptop))).body.data).toHaveLength(1);
  });
});
