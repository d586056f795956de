import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness } from '../test/harness';
import { loopbackPictureSources } from '../test/pictures';
import { startFakeGoogle, type FakeGoogle, type FakeGoogleUser } from './fake-google';
import { createGoogleConnector, GOOGLE_INVALID_CODE, GOOGLE_NOT_CONFIGURED, GOOGLE_UNREACHABLE, googleConfigFromEnv } from './google';
import { GOOGLE_STATE_TTL_MS, GOOGLE_STATE_USED } from './google-sign-in';
import { GOOGLE_STARTS_PER_MINUTE } from '../routes/auth';

const LOGIN = '/api/system/auth/login';
const AUTHORIZE = '/api/system/auth/google/authorize';
const OPTIONS = '/api/system/auth/login-options';
const ENV = { GOOGLE_CLIENT_ID: 'client-1', GOOGLE_CLIENT_SECRET: 'shh', GOOGLE_REDIRECT_URI: 'https://chat.example.com/login/google' };

const ADA: FakeGoogleUser = { sub: '1001', email: 'ada@gmail.example', email_verified: true, name: 'Ada Lovelace', picture: 'https://lh3.example/ada.png' };

let h: Awaited<ReturnType<typeof openHarness>>;
let google: FakeGoogle;
beforeAll(async () => {
  h = await openHarness();
  google = await startFakeGoogle({ clientId: 'client-1', clientSecret: 'shh', redirectUri: ENV.GOOGLE_REDIRECT_URI, users: [ADA] });
});
afterAll(async () => {
  await google.close();
  await h.close();
});

/** Google's pictures are served by the fake on loopback over http: allowed for this test only. */
const configured = (options: Parameters<typeof h.makeApp>[0] = {}) =>
  h.makeApp({ ...options, config: { google: google.config, providerPictures: loopbackPictureSources(google.url), ...options.config } });

/** What a person does on Google's page: start, pick the account, come back with code and state. */
async function signIn(t: ReturnType<typeof configured>, user: FakeGoogleUser, headers: Record<string, string> = {}) {
  const started = await t.post(AUTHORIZE, undefined, headers);
  expect(started.status).toBe(200);
  const reply = await t.post(LOGIN, { loginType: 'google-oauth', code: google.issueCode(user), state: started.body.data.state }, headers);
  return reply;
}

describe('Google sign-in, unconfigured', () => {
  it('is not offered, cannot be started and refuses a code clearly', async () => {
    const t = h.makeApp();
    expect((await t.get(OPTIONS)).body.data).toEqual({ google: false, signup: 'invite', resetByMail: false });
    const started = await t.post(AUTHORIZE);
    expect(started.status).toBe(503);
    expect(started.body).toMatchObject({ code: 1, msg: GOOGLE_NOT_CONFIGURED });
    const login = await t.post(LOGIN, { loginType: 'google-oauth', code: 'c', state: 's' });
    expect(login.status).toBe(503);
    expect(login.body.msg).toBe(GOOGLE_NOT_CONFIGURED);
  });

  it('reads its configuration from the environment, all three or none', () => {
    expect(googleConfigFromEnv({})).toBeNull();
    expect(googleConfigFromEnv(ENV)).toMatchObject({ clientId: 'client-1', redirectUri: ENV.GOOGLE_REDIRECT_URI });
    expect(() => googleConfigFromEnv({ GOOGLE_CLIENT_ID: 'x' })).toThrow(/together/);
    expect(() => googleConfigFromEnv({ ...ENV, GOOGLE_REDIRECT_URI: 'not a url' })).toThrow(/absolute URL/);
  });
});

describe('Google sign-in, configured (against a local fake of Google)', () => {
  it('is offered and starts on Google’s consent page with a fresh state each time', async () => {
    const t = configured();
    expect((await t.get(OPTIONS)).body.data).toEqual({ google: true, signup: 'invite', resetByMail: false });
    const first = (await t.post(AUTHORIZE)).body.data;
    const second = (await t.post(AUTHORIZE)).body.data;
    expect(first.state).not.toBe(second.state);
    const url = new URL(first.url);
    expect(url.origin + url.pathname).toBe(`${google.url}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-1',
      redirect_uri: ENV.GOOGLE_REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      state: first.state,
    });
    const page = await fetch(first.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Continue as Ada Lovelace');
  });

  it('signs a new Google user into a new account named after them, and the same account next time', async () => {
    const t = configured();
    const grace: FakeGoogleUser = { sub: '2002', email: 'grace@gmail.example', email_verified: true, name: 'Grace Hopper', picture: google.pictureUrl };
    const first = await signIn(t, grace);
    expect(first.status).toBe(200);
    expect(first.body.data.userInfo).toMatchObject({ nickname: 'Grace Hopper', username: 'google-2002' });
    // Google's picture, copied into the account's own upload: shown under the app's image policy
    const avatar = first.body.data.userInfo.avatar as string;
    expect(avatar).toMatch(/^\/api\/media\/file\/[0-9a-f-]{36}$/);
    const picture = await t.raw(avatar);
    expect(picture.headers.get('content-type')).toBe('image/png');
    const second = await signIn(t, { ...grace, name: 'Grace B. Hopper' });
    expect(second.body.data.userInfo.id).toBe(first.body.data.userInfo.id);
    // the token is a real session
    const me = await t.get('/api/system/user/get-user-info', {}, { authorization: `Bearer ${second.body.data.token}` });
    expect(me.body.data.id).toBe(first.body.data.userInfo.id);
  });

  it('leaves the account without an avatar when Google’s picture is not an image or cannot be fetched', async () => {
    const t = configured();
    for (const [sub, picture] of [
      ['2101', `${google.url}/authorize`],
      ['2102', 'http://127.0.0.1:9/unreachable.png'],
    ]) {
      const reply = await signIn(t, { sub: sub!, name: 'No Picture', picture: picture! });
      expect(reply.status).toBe(200);
      expect(reply.body.data.userInfo.avatar).toBe('');
    }
  });

  it('signs into the existing account whose username is the address Google has verified', async () => {
    const t = configured();
    const { user } = await h.newUser();
    const verified = await signIn(t, { sub: '3003', email: user.username.toUpperCase(), email_verified: true, name: 'Same Person', picture: '' });
    expect(verified.body.data.userInfo.id).toBe(user.id);
    const other = await h.newUser();
    const unverified = await signIn(t, { sub: '3004', email: other.username, email_verified: false, name: 'Claimant', picture: '' });
    expect(unverified.status).toBe(200);
    expect(unverified.body.data.userInfo.id).not.toBe(other.user.id);
    expect(unverified.body.data.userInfo.username).toBe('google-3004');
  });

  it('gives the account what the visitor started before signing in', async () => {
    const t = configured();
    const visitor = h.visitor();
    const created = await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' }, visitor);
    expect(created.status).toBe(200);
    const login = await signIn(t, { ...ADA, sub: '4004', email: 'visitor@gmail.example' }, visitor);
    const list = await t.post(
      '/api/workflow/agent-im/conversation',
      { source: 'agent', current: 1, pageSize: 20 },
      { authorization: `Bearer ${login.body.data.token}` },
    );
    expect(list.body.data.list.map((item: { conversationId: string }) => item.conversationId)).toContain(created.body.data.conversationId);
  });

  it('takes each state once, only if this server issued it and only for ten minutes', async () => {
    const t = configured();
    const { state } = (await t.post(AUTHORIZE)).body.data;
    const ok = await t.post(LOGIN, { loginType: 'google-oauth', code: google.issueCode(ADA), state });
    expect(ok.status).toBe(200);
    const again = await t.post(LOGIN, { loginType: 'google-oauth', code: google.issueCode(ADA), state });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe(GOOGLE_STATE_USED);
    const forged = await t.post(LOGIN, { loginType: 'google-oauth', code: google.issueCode(ADA), state: 'made-up' });
    expect(forged.body.msg).toBe(GOOGLE_STATE_USED);
    const late = (await t.post(AUTHORIZE)).body.data.state;
    t.clock.advance(GOOGLE_STATE_TTL_MS + 1);
    expect((await t.post(LOGIN, { loginType: 'google-oauth', code: google.issueCode(ADA), state: late })).body.msg).toBe(GOOGLE_STATE_USED);
  });

  it('refuses a wrong or used code, and says so when Google cannot be reached', async () => {
    const t = configured();
    const wrong = await t.post(LOGIN, { loginType: 'google-oauth', code: 'not-a-code', state: (await t.post(AUTHORIZE)).body.data.state });
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe(GOOGLE_INVALID_CODE);
    google.state.broken = true;
    try {
      const down = await t.post(LOGIN, { loginType: 'google-oauth', code: google.issueCode(ADA), state: (await t.post(AUTHORIZE)).body.data.state });
      expect(down.status).toBe(502);
      expect(down.body.msg).toBe(GOOGLE_UNREACHABLE);
    } finally {
      google.state.broken = false;
    }
  });

  it('wants the code and the state, and never a password', async () => {
    const t = configured();
    const reply = await t.post(LOGIN, { loginType: 'google-oauth', username: 'ada@example.com', password: 'whatever' });
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toMatch(/^Invalid request: code: /);
  });

  it('limits how many sign-ins one address starts in a minute', async () => {
    const t = configured({ config: { trustProxy: 1 } });
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < GOOGLE_STARTS_PER_MINUTE; i += 1) expect((await t.post(AUTHORIZE, undefined, headers)).status).toBe(200);
    const refused = await t.post(AUTHORIZE, undefined, headers);
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/Too many Google sign-ins started/);
    expect((await t.post(AUTHORIZE, undefined, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(200);
    t.clock.advance(61_000);
    expect((await t.post(AUTHORIZE, undefined, headers)).status).toBe(200);
  });

  it('counts the sign-ins started from one IPv6 /64 together', async () => {
    const t = configured({ address: '2001:db8:600:1::1' });
    for (let i = 0; i < GOOGLE_STARTS_PER_MINUTE; i += 1) expect((await t.post(AUTHORIZE)).status).toBe(200);
    const sameHost = configured({ clock: t.clock, address: '2001:db8:600:1:ffff:ffff:ffff:fffe' });
    const refused = await sameHost.post(AUTHORIZE);
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/Too many Google sign-ins started/);
    expect((await configured({ clock: t.clock, address: '2001:db8:600:2::1' }).post(AUTHORIZE)).status).toBe(200);
  });
});

describe('the Google OAuth connector', () => {
  it('exchanges a code for the profile once, with the registered redirect URI', async () => {
    const connector = createGoogleConnector(google.config);
    const code = google.issueCode(ADA);
    await expect(connector.profileForCode(code)).resolves.toEqual({
      sub: '1001',
      email: 'ada@gmail.example',
      emailVerified: true,
      name: 'Ada Lovelace',
      picture: 'https://lh3.example/ada.png',
    });
    await expect(connector.profileForCode(code)).rejects.toMatchObject({ status: 400 });
    const wrongRedirect = createGoogleConnector({ ...google.config, redirectUri: 'https://evil.example/cb' });
    await expect(wrongRedirect.profileForCode(google.issueCode(ADA))).rejects.toMatchObject({ status: 400 });
  });
});
