import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../db/schema';
import { hashToken } from '../auth/tokens';
import { openHarness } from '../test/harness';

const LOGIN = '/api/system/auth/login';
const LOGOUT = '/api/system/auth/logout';
const ME = '/api/system/user/get-user-info';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

describe('password login', () => {
  it('answers a token and the user, and the token opens user endpoints', async () => {
    const t = h.makeApp();
    const { username, password } = await h.newUser({ nickname: 'Ada' });
    const reply = await t.post(LOGIN, { username: username.toUpperCase(), password, loginType: 'password' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ code: 0, success: true, data: { userInfo: { username, nickname: 'Ada' } } });
    const token = reply.body.data.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await t.get(ME, {}, { authorization: `Bearer ${token}` });
    expect(me.body.data).toMatchObject({ username, nickname: 'Ada' });
  });

  it('stores only a hash of the token and a scrypt hash of the password', async () => {
    const t = h.makeApp();
    const account = await h.loggedIn(t);
    expect(account.user.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(account.user.passwordHash).not.toContain(account.password);
    const rows = await h.db.select().from(sessions).where(eq(sessions.userId, account.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashToken(account.token));
    expect(rows[0]!.tokenHash).not.toBe(account.token);
  });

  it('refuses a wrong password or an unknown account with the same message', async () => {
    const t = h.makeApp();
    const { username } = await h.newUser();
    const wrong = await t.post(LOGIN, { username, password: 'not-the-password' });
    const unknown = await t.post(LOGIN, { username: 'nobody@test.local', password: 'whatever1' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 1, success: false });
    expect(unknown.body.msg).toBe(wrong.body.msg);
  });

  it('refuses bad input with 400 and a message naming the field', async () => {
    const t = h.makeApp();
    const notAnAccount = await t.post(LOGIN, { username: 'just words', password: 'x' });
    expect(notAnAccount.status).toBe(400);
    expect(notAnAccount.body.msg).toContain('username');
    expect((await t.post(LOGIN, { username: 'a@b.co' })).status).toBe(400);
    expect((await t.post(LOGIN, { username: 42, password: 'x' })).status).toBe(400);
    const malformed = await t.post(LOGIN, '{"username":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.msg).toMatch(/not valid JSON/);
    expect((await t.post(LOGIN, { username: 'a@b.co', password: 'x', loginType: 'fax' })).status).toBe(400);
  });

  it('wants a code, not a password, for every login type but the password', async () => {
    const t = h.makeApp();
    for (const loginType of ['wechat-official-account', 'wechat-miniprogram', 'google-oauth']) {
      const reply = await t.post(LOGIN, { username: 'a@b.co', password: 'x', loginType });
      expect(reply.status).toBe(400);
      expect(reply.body.msg).toMatch(/^Invalid request: code: /);
    }
  });
});

describe('login rate limit', () => {
  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('locks out only the address that failed 5 times for an account: its owner elsewhere still signs in', async () => {
    const t = h.makeApp({ config: { trustProxy: 1 } });
    const { username, password } = await h.newUser();
    const attacker = from('203.0.113.5');
    for (let i = 0; i < 5; i++) expect((await t.post(LOGIN, { username, password: `guess-${i}` }, attacker)).status).toBe(401);
    const blocked = await t.post(LOGIN, { username, password }, attacker);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 1, success: false, msg: 'Too many failed logins. Please wait 60 seconds and try again.' });
    expect(blocked.headers.get('retry-after')).toBe('60');

    expect((await t.post(LOGIN, { username, password }, from('198.51.100.7'))).status).toBe(200);
    t.clock.advance(61_000);
    expect((await t.post(LOGIN, { username, password: 'guess-again' }, attacker)).status).toBe(401);
  });

  it('slows an account guessed at from many addresses down to at most 3 s, and logs it without the name', async () => {
    const t = h.makeApp({ config: { trustProxy: 1 } });
    const { username, password } = await h.newUser();
    for (let address = 1; address <= 4; address++) {
      for (let i = 0; i < 3; i++) {
        expect((await t.post(LOGIN, { username, password: `guess-${i}` }, from(`203.0.113.${address}`))).status).toBe(401);
      }
    }
    // After 5 failures each further answer waits: 0.5 s, doubling, never more than 3 s.
    expect(t.pauses).toEqual([500, 1000, 2000, 3000, 3000, 3000]);
    expect((await t.post(LOGIN, { username, password }, from('198.51.100.7'))).status).toBe(200);
    expect(t.pauses.at(-1)).toBe(3000);
    const slowing = t.logs.filter((line) => line.startsWith('login: slowing down'));
    // One line as the slowdown starts, then one each time the failures beyond 5 double.
    expect(slowing).toEqual([
      'login: slowing down an account after 6 failures from 3 addresses',
      'login: slowing down an account after 7 failures from 3 addresses',
      'login: slowing down an account after 9 failures from 4 addresses',
    ]);
    expect(t.lines.join('\n')).not.toContain(username.split('@')[0]);
  });

  it('forgets an address’s failures for an account once it signs in', async () => {
    const t = h.makeApp();
    const { username, password } = await h.newUser();
    for (let i = 0; i < 4; i++) expect((await t.post(LOGIN, { username, password: `typo-${i}` })).status).toBe(401);
    expect((await t.post(LOGIN, { username, password })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await t.post(LOGIN, { username, password: `typo-${i}` })).status).toBe(401);
    expect((await t.post(LOGIN, { username, password })).status).toBe(429);
  });

  it('answers 429 after 20 failures a minute from one address, whatever the account', async () => {
    const t = h.makeApp({ config: { trustProxy: 1 } });
    const addr = from('192.0.2.7');
    for (let i = 0; i < 20; i++) {
      expect((await t.post(LOGIN, { username: `guess${i}@test.local`, password: 'wrong-pass' }, addr)).status).toBe(401);
    }
    const { username, password } = await h.newUser();
    expect((await t.post(LOGIN, { username, password }, addr)).status).toBe(429);
    expect((await t.post(LOGIN, { username, password }, from('192.0.2.8'))).status).toBe(200);
  });

  it('counts an IPv6 host by its /64: guesses from new addresses in it stay locked out, another network signs in', async () => {
    const t = h.makeApp({ config: { trustProxy: 1 } });
    const { username, password } = await h.newUser();
    const oneNetwork = ['2001:db8:5eed:10::1', '2001:db8:5eed:10:1::2', '2001:0db8:5eed:0010:0:0:0:3', '2001:db8:5eed:10:abcd:ef01:2345:6789', '2001:db8:5eed:10::5'];
    for (const [i, address] of oneNetwork.entries()) {
      expect((await t.post(LOGIN, { username, password: `guess-${i}` }, from(address))).status).toBe(401);
    }
    const blocked = await t.post(LOGIN, { username, password }, from('2001:DB8:5EED:10:FFFF:FFFF:FFFF:FFFF'));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('60');
    expect(blocked.body.msg).toBe('Too many failed logins. Please wait 60 seconds and try again.');
    expect((await t.post(LOGIN, { username, password }, from('2001:db8:5eed:11::1'))).status).toBe(200);
  });

  it('counts an IPv4 address the same whether it arrives as itself or mapped into IPv6', async () => {
    const t = h.makeApp({ config: { trustProxy: 1 } });
    const { username, password } = await h.newUser();
    for (const address of ['192.0.2.77', '::ffff:192.0.2.77', '::FFFF:c000:24d', '192.0.2.77', '[::ffff:192.0.2.77]']) {
      expect((await t.post(LOGIN, { username, password: 'wrong-pass' }, from(address))).status).toBe(401);
    }
    expect((await t.post(LOGIN, { username, password }, from('::ffff:192.0.2.77'))).status).toBe(429);
  });

  // What reaches the server for one attacker, each guess with a new made-up X-Forwarded-For start.
  const forgedChains: [string, number, (forged: string) => string | undefined][] = [
    ['no proxy trusted: the header is ignored', 0, (forged) => forged],
    ['one proxy: only its entry, the right-most, counts', 1, (forged) => `${forged}, 203.0.113.50`],
    ['two proxies: the entry the outer proxy saw counts', 2, (forged) => `${forged}, 203.0.113.50, 10.0.0.2`],
    ['two proxies, but a header with one entry: the left-most counts', 2, () => '203.0.113.50'],
  ];
  it.each(forgedChains)('cannot be dodged with a forged X-Forwarded-For (%s)', async (_case, hops, header) => {
    const t = h.makeApp({ config: { trustProxy: hops } });
    const { username } = await h.newUser();
    const guess = (i: number) => t.post(LOGIN, { username, password: `guess-${i}` }, { 'x-forwarded-for': header(`192.0.2.${i}`)! });
    for (let i = 0; i < 5; i++) expect((await guess(i)).status).toBe(401);
    expect((await guess(99)).status).toBe(429);
  });

  it('treats TRUST_PROXY=true as one proxy, and never the first entry a client can forge', async () => {
    const { configFromEnv } = await import('../config');
    expect(configFromEnv({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(configFromEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(configFromEnv({}).trustProxy).toBe(0);
    expect(() => configFromEnv({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
  });
});

describe('sessions', () => {
  it('expire after the configured time', async () => {
    const t = h.makeApp({ config: { sessionTtlMs: 60 * 60 * 1000 } });
    const { headers } = await h.loggedIn(t);
    t.clock.advance(59 * 60 * 1000);
    expect((await t.get(ME, {}, headers)).status).toBe(200);
    t.clock.advance(2 * 60 * 1000);
    const expired = await t.get(ME, {}, headers);
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 1, success: false });
  });

  it('last 7 days by default', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    t.clock.advance(6.9 * 24 * 3600 * 1000);
    expect((await t.get(ME, {}, headers)).status).toBe(200);
    t.clock.advance(0.2 * 24 * 3600 * 1000);
    expect((await t.get(ME, {}, headers)).status).toBe(401);
  });

  it('logout revokes the token it carries, and only that one', async () => {
    const t = h.makeApp();
    const account = await h.loggedIn(t);
    const second = await t.post(LOGIN, { username: account.username, password: account.password });
    const otherHeaders = { authorization: `Bearer ${second.body.data.token}` };
    const out = await t.post(LOGOUT, undefined, account.headers);
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ code: 0, data: null });
    expect((await t.get(ME, {}, account.headers)).status).toBe(401);
    expect((await t.post(LOGOUT, undefined, account.headers)).status).toBe(401);
    expect((await t.get(ME, {}, otherHeaders)).status).toBe(200);
  });

  it('only the Authorization header authenticates: a cookie alone is not enough', async () => {
    const t = h.makeApp();
    const { token } = await h.loggedIn(t);
    const reply = await t.get(ME, {}, { cookie: `ai-chat-ops-token=${token}` });
    expect(reply.status).toBe(401);
    expect(reply.body.msg).toBeTruthy();
  });

  it('answers 401 with code 1 on user endpoints without a token, or with a forged one', async () => {
    const t = h.makeApp();
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer ' + 'x'.repeat(43) }, { authorization: 'Basic abc' }];
    for (const headers of attempts) {
      const reply = await t.get(ME, {}, headers);
      expect(reply.status).toBe(401);
      expect(reply.body).toMatchObject({ code: 1, success: false, data: null });
    }
    expect((await t.post(LOGOUT)).status).toBe(401);
    expect((await t.post('/api/system/user/update', { nickname: 'x' })).status).toBe(401);
    expect((await t.post('/api/system/user/update-scanid', { scanid: 'abc' })).status).toBe(401);
  });
});

describe('visitors', () => {
  it("keep their conversations when they log in: the account adopts them", async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const created = await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' }, visitor);
    expect(created.status).toBe(200);
    const { username, password } = await h.newUser();
    const login = await t.post(LOGIN, { username, password }, visitor);
    const headers = { authorization: `Bearer ${login.body.data.token}` };
    const list = await t.post('/api/workflow/agent-im/conversation', {}, headers);
    expect(list.body.data.list.map((c: { conversationId: string }) => c.conversationId)).toEqual([created.body.data.conversationId]);
    const asVisitorAgain = await t.post('/api/workflow/agent-im/conversation', {}, visitor);
    expect(asVisitorAgain.body.data.total).toBe(0);
  });

  it('keep their uploads when they log in: the account may attach them', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const form = new FormData();
    form.set('file', new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1])], 'me.jpg'));
    const uploaded = await (await t.raw('/api/media/upload', { method: 'POST', body: form, headers: visitor })).json();
    const { username, password } = await h.newUser();
    const login = await t.post(LOGIN, { username, password }, visitor);
    const headers = { authorization: `Bearer ${login.body.data.token}` };
    const conversation = await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' }, headers);
    const asUser = await t.raw('/api/workflow/sse/agent/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ conversationId: conversation.body.data.conversationId, agentId: 'SpecialNoAgentFallback', files: [uploaded.data] }),
    });
    expect(asUser.status).toBe(200);
    await asUser.text();
  });

  it('need an identity to own anything, and a well-formed visitor id', async () => {
    const t = h.makeApp();
    const none = await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' });
    expect(none.status).toBe(401);
    expect(none.body.msg).toMatch(/X-Visitor-Id/);
    const bad = await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' }, { 'x-visitor-id': '<script>' });
    expect(bad.status).toBe(400);
  });
});
