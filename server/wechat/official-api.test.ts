import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { configFromEnv, type ServerConfig } from '../config';
import { providerTokens, wechatIdentities } from '../db/schema';
import { openHarness, type TestApp } from '../test/harness';
import { loopbackPictureSources } from '../test/pictures';
import { startFakeWechatApi } from './fake-wechat-api';
import { HIGH_RISK_MSG, INVALID_CODE_MSG, INVALID_MINIPROGRAM_CODE_MSG, WECHAT_UNREACHABLE_MSG } from './provider';
import { MINIPROGRAM_NOT_CONFIGURED } from './routes';
import { jsapiSignature } from './signature';

const CONFIG = '/api/system/openapi/wx/config';
const LOGIN = '/api/system/auth/wx-login';
const ME = '/api/system/user/get-user-info';
const APP = { appId: 'wx1234567890abcdef', appSecret: 'secret-of-the-app' };
const MINI_PROGRAM = { appId: 'wxminiprogram0000', appSecret: 'secret-of-the-mini-program' };
const PASSWORD_LOGIN = '/api/system/auth/login';

let h: Awaited<ReturnType<typeof openHarness>>;
let fake: Awaited<ReturnType<typeof startFakeWechatApi>>;
beforeAll(async () => {
  h = await openHarness();
  fake = await startFakeWechatApi({ ...APP, miniProgram: MINI_PROGRAM });
});
afterAll(async () => {
  await fake.close();
  await h.close();
});

/** A server that has never talked to WeChat: no token or ticket stored yet. */
const officialApp = async (options: { miniProgram?: boolean; config?: Partial<ServerConfig> } = {}): Promise<TestApp> => {
  await h.db.delete(providerTokens);
  for (const key of Object.keys(fake.calls)) delete fake.calls[key];
  Object.assign(fake.state, { staleTokenAnswers: 0, expiresIn: 7200, broken: false });
  const miniProgram = options.miniProgram ? { miniProgram: MINI_PROGRAM } : {};
  // WeChat's head images are served by the fake on loopback over http: allowed for this test only.
  return h.makeApp({
    config: { wechat: { mode: 'official', ...APP, apiBase: fake.url, ...miniProgram }, providerPictures: loopbackPictureSources(fake.url), ...options.config },
  });
};

describe("WeChat's real API (a local fake of it on loopback)", () => {
  it('signs the JS-SDK config with the jsapi ticket, fetching token and ticket once while they are valid', async () => {
    const t = await officialApp();
    const url = 'https://chat.example.com/chat?x=1#section';
    const first = await t.get(CONFIG, { url });
    expect(first.status).toBe(200);
    const config = first.body.data;
    expect(config).toMatchObject({ appId: APP.appId, authorizeUrl: 'https://open.weixin.qq.com/connect/oauth2/authorize' });
    expect(config.timestamp).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(config.nonceStr).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(config.signature).toBe(
      jsapiSignature({ ticket: fake.currentTicket(), nonceStr: config.nonceStr, timestamp: config.timestamp, url: 'https://chat.example.com/chat?x=1' }),
    );
    await Promise.all([t.get(CONFIG, { url }), t.get(CONFIG, { url }), t.get(CONFIG, { url })]);
    expect(fake.calls).toEqual({ 'cgi-bin/token': 1, 'cgi-bin/ticket/getticket': 1 });

    t.clock.advance(7200 * 1000);
    await t.get(CONFIG, { url });
    expect(fake.calls).toEqual({ 'cgi-bin/token': 2, 'cgi-bin/ticket/getticket': 2 });
  });

  it('renews an access token WeChat says is stale, once', async () => {
    const t = await officialApp();
    fake.state.staleTokenAnswers = 1;
    const reply = await t.get(CONFIG, { url: 'https://chat.example.com/' });
    expect(reply.status).toBe(200);
    expect(fake.calls).toEqual({ 'cgi-bin/token': 2, 'cgi-bin/ticket/getticket': 2 });
  });

  it('says so clearly when WeChat cannot be reached, without a 500', async () => {
    const t = await officialApp();
    fake.state.broken = true;
    const reply = await t.get(CONFIG, { url: 'https://chat.example.com/' });
    expect(reply.status).toBe(502);
    expect(reply.body).toMatchObject({ code: 1, msg: WECHAT_UNREACHABLE_MSG });
    expect(t.lines.join('\n')).not.toContain(APP.appSecret);
  });

  it('exchanges a code for a new account named after the WeChat user, and the same account next time', async () => {
    const t = await officialApp();
    const person = { openid: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M', nickname: '  Lin 林  ', headimgurl: fake.headImageUrl };
    const first = await t.get(LOGIN, { code: fake.issueCode(person) });
    expect(first.status).toBe(200);
    expect(first.body.data.userInfo).toMatchObject({ nickname: 'Lin 林' });
    // WeChat's head image, copied into the account's own upload (WeChat's hosts are outside the image policy)
    expect(first.body.data.userInfo.avatar).toMatch(/^\/api\/media\/file\//);
    expect((await t.raw(first.body.data.userInfo.avatar)).headers.get('content-type')).toBe('image/png');
    const me = await t.get(ME, {}, { authorization: `Bearer ${first.body.data.token}` });
    expect(me.body.data.id).toBe(first.body.data.userInfo.id);

    const second = await t.get(LOGIN, { code: fake.issueCode({ ...person, nickname: 'Lin (new name)' }) });
    expect(second.body.data.userInfo.id).toBe(first.body.data.userInfo.id);
    const [link] = await h.db.select().from(wechatIdentities).where(eq(wechatIdentities.openid, person.openid));
    expect(link).toMatchObject({ appId: APP.appId, nickname: 'Lin (new name)', userId: first.body.data.userInfo.id });
    expect(fake.calls).toMatchObject({ 'sns/oauth2/access_token': 2, 'sns/userinfo': 2 });
  });

  it('recognises the same person from another app of the account by unionid', async () => {
    const t = await officialApp();
    const person = { openid: 'o-first-app-openid-000000001', unionid: 'union-42', nickname: 'Mei', headimgurl: '' };
    const first = await t.get(LOGIN, { code: fake.issueCode(person) });
    const other = await t.get(LOGIN, { code: fake.issueCode({ ...person, openid: 'o-other-app-openid-00000002' }) });
    expect(other.body.data.userInfo.id).toBe(first.body.data.userInfo.id);
  });

  it('refuses a wrong or used code with 400 and a message for a person', async () => {
    const t = await officialApp();
    const code = fake.issueCode({ openid: 'o-used-code-user-000000003', nickname: 'Used', headimgurl: '' });
    expect((await t.get(LOGIN, { code })).status).toBe(200);
    for (const bad of [code, 'never-issued']) {
      const reply = await t.get(LOGIN, { code: bad });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 1, msg: INVALID_CODE_MSG });
    }
  });

  it('validates its input before calling WeChat', async () => {
    const t = await officialApp();
    expect((await t.get(LOGIN, {})).status).toBe(400);
    expect((await t.get(CONFIG, { url: 'not a url' })).status).toBe(400);
    expect(fake.calls).toEqual({});
  });
});

describe('the mini program login (code2session against the fake)', () => {
  const miniLogin = (t: TestApp, code: string, headers: Record<string, string> = {}) =>
    t.post(PASSWORD_LOGIN, { loginType: 'wechat-miniprogram', code }, headers);

  it('signs in with a wx.login() code, as the same account the official account knows by unionid', async () => {
    const t = await officialApp({ miniProgram: true });
    const person = { openid: 'o-official-openid-0000000010', unionid: 'union-mp-1', nickname: 'Wen', headimgurl: '' };
    const official = await t.get(LOGIN, { code: fake.issueCode(person) });
    const mini = await miniLogin(t, fake.issueMiniProgramCode({ openid: 'o-mini-program-openid-000010', unionid: 'union-mp-1' }));
    expect(mini.status).toBe(200);
    expect(mini.body.data.userInfo.id).toBe(official.body.data.userInfo.id);
    const [link] = await h.db.select().from(wechatIdentities).where(eq(wechatIdentities.openid, 'o-mini-program-openid-000010'));
    expect(link).toMatchObject({ appId: MINI_PROGRAM.appId, unionid: 'union-mp-1', userId: official.body.data.userInfo.id });
    expect(fake.calls['sns/jscode2session']).toBe(1);
    // the session key WeChat answered is neither stored nor logged
    expect(t.lines.join('\n')).not.toMatch(/SK\d/);
  });

  it('makes a new account for a person WeChat shows no other app for, and the same one next time', async () => {
    const t = await officialApp({ miniProgram: true });
    const person = { openid: 'o-mini-only-openid-000000011' };
    const first = await miniLogin(t, fake.issueMiniProgramCode(person));
    expect(first.status).toBe(200);
    expect(first.body.data.userInfo).toMatchObject({ username: `wechat-${person.openid}` });
    const second = await miniLogin(t, fake.issueMiniProgramCode(person));
    expect(second.body.data.userInfo.id).toBe(first.body.data.userInfo.id);
  });

  it('refuses a wrong or used code, a high-risk account and a server with no mini program, each clearly', async () => {
    const t = await officialApp({ miniProgram: true });
    const code = fake.issueMiniProgramCode({ openid: 'o-mini-used-openid-000000012' });
    expect((await miniLogin(t, code)).status).toBe(200);
    const used = await miniLogin(t, code);
    expect(used.status).toBe(400);
    expect(used.body.msg).toBe(INVALID_MINIPROGRAM_CODE_MSG);
    const risky = await miniLogin(t, fake.issueMiniProgramCode({ openid: 'o-mini-risky-openid-00000013', highRisk: true }));
    expect(risky.status).toBe(403);
    expect(risky.body.msg).toBe(HIGH_RISK_MSG);
    const without = await miniLogin(await officialApp(), fake.issueMiniProgramCode({ openid: 'o-mini-nowhere-openid-000014' }));
    expect(without.status).toBe(503);
    expect(without.body.msg).toBe(MINIPROGRAM_NOT_CONFIGURED);
  });

  it('takes the official account’s authorisation code through the same login call', async () => {
    const t = await officialApp();
    const person = { openid: 'o-login-call-openid-00000015', nickname: 'Via login', headimgurl: '' };
    const reply = await t.post(PASSWORD_LOGIN, { loginType: 'wechat-official-account', code: fake.issueCode(person) });
    expect(reply.status).toBe(200);
    expect(reply.body.data.userInfo.nickname).toBe('Via login');
  });
});

describe('the limit on WeChat sign-ins from one address', () => {
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const person = (n: number) => ({ openid: `o-limited-openid-00000000${n}`, nickname: `Limited ${n}`, headimgurl: '' });

  it('refuses the sign-in past the limit with 429 before WeChat is called, counting both login types and one IPv6 /64 as one address', async () => {
    const t = await officialApp({ miniProgram: true, config: { trustProxy: 1, wechatLoginsPerMinute: 3 } });
    // Three addresses of one host's /64, the second written out in full.
    expect((await t.get(LOGIN, { code: 'never-issued' }, from('2001:db8:77:1::1'))).status).toBe(400);
    const mini = await t.post(PASSWORD_LOGIN, { loginType: 'wechat-miniprogram', code: 'never-issued' }, from('2001:0db8:0077:0001:0:0:0:2'));
    expect(mini.status).toBe(400);
    expect((await t.get(LOGIN, { code: fake.issueCode(person(1)) }, from('2001:db8:77:1:ffff::3'))).status).toBe(200);
    const calls = { ...fake.calls };

    const refused = await t.post(PASSWORD_LOGIN, { loginType: 'wechat-official-account', code: fake.issueCode(person(2)) }, from('2001:db8:77:1:abcd::4'));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 1, success: false, data: null, msg: 'Too many WeChat sign-ins. Please wait 60 seconds and try again.' });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await t.get(LOGIN, { code: fake.issueCode(person(2)) }, from('2001:db8:77:1::5'))).status).toBe(429);
    expect(fake.calls).toEqual(calls);

    expect((await t.get(LOGIN, { code: fake.issueCode(person(3)) }, from('2001:db8:77:2::1'))).status).toBe(200);
    t.clock.advance(60 * 1000);
    expect((await t.get(LOGIN, { code: fake.issueCode(person(4)) }, from('2001:db8:77:1::6'))).status).toBe(200);
  });

  it('is 30 a minute unless WECHAT_LOGINS_PER_MINUTE says otherwise', () => {
    expect(configFromEnv({}).wechatLoginsPerMinute).toBe(30);
    expect(configFromEnv({ WECHAT_LOGINS_PER_MINUTE: '5' }).wechatLoginsPerMinute).toBe(5);
    expect(() => configFromEnv({ WECHAT_LOGINS_PER_MINUTE: 'lots' })).toThrow(/WECHAT_LOGINS_PER_MINUTE/);
  });
});
