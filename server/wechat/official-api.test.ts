import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { wechatIdentities } from '../db/schema';
import { openHarness, type TestApp } from '../test/harness';
import { startFakeWechatApi } from './fake-wechat-api';
import { INVALID_CODE_MSG, WECHAT_UNREACHABLE_MSG } from './provider';
import { jsapiSignature } from './signature';

const CONFIG = '/api/system/openapi/wx/config';
const LOGIN = '/api/system/auth/wx-login';
const ME = '/api/system/user/get-user-info';
const APP = { appId: 'wx1234567890abcdef', appSecret: 'secret-of-the-app' };

let h: Awaited<ReturnType<typeof openHarness>>;
let fake: Awaited<ReturnType<typeof startFakeWechatApi>>;
beforeAll(async () => {
  h = await openHarness();
  fake = await startFakeWechatApi(APP);
});
afterAll(async () => {
  await fake.close();
  await h.close();
});

const officialApp = (): TestApp => {
  for (const key of Object.keys(fake.calls)) delete fake.calls[key];
  Object.assign(fake.state, { staleTokenAnswers: 0, expiresIn: 7200, broken: false });
  return h.makeApp({ config: { wechat: { mode: 'official', ...APP, apiBase: fake.url } } });
};

describe("WeChat's real API (a local fake of it on loopback)", () => {
  it('signs the JS-SDK config with the jsapi ticket, fetching token and ticket once while they are valid', async () => {
    const t = officialApp();
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
    const t = officialApp();
    fake.state.staleTokenAnswers = 1;
    const reply = await t.get(CONFIG, { url: 'https://chat.example.com/' });
    expect(reply.status).toBe(200);
    expect(fake.calls).toEqual({ 'cgi-bin/token': 2, 'cgi-bin/ticket/getticket': 2 });
  });

  it('says so clearly when WeChat cannot be reached, without a 500', async () => {
    const t = officialApp();
    fake.state.broken = true;
    const reply = await t.get(CONFIG, { url: 'https://chat.example.com/' });
    expect(reply.status).toBe(502);
    expect(reply.body).toMatchObject({ code: 1, msg: WECHAT_UNREACHABLE_MSG });
    expect(t.logs.join('\n')).not.toContain(APP.appSecret);
  });

  it('exchanges a code for a new account named after the WeChat user, and the same account next time', async () => {
    const t = officialApp();
    const person = { openid: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M', nickname: '  Lin 林  ', headimgurl: 'https://thirdwx.qlogo.cn/mmopen/abc/132' };
    const first = await t.get(LOGIN, { code: fake.issueCode(person) });
    expect(first.status).toBe(200);
    expect(first.body.data.userInfo).toMatchObject({ nickname: 'Lin 林', avatar: person.headimgurl });
    const me = await t.get(ME, {}, { authorization: `Bearer ${first.body.data.token}` });
    expect(me.body.data.id).toBe(first.body.data.userInfo.id);

    const second = await t.get(LOGIN, { code: fake.issueCode({ ...person, nickname: 'Lin (new name)' }) });
    expect(second.body.data.userInfo.id).toBe(first.body.data.userInfo.id);
    const [link] = await h.db.select().from(wechatIdentities).where(eq(wechatIdentities.openid, person.openid));
    expect(link).toMatchObject({ appId: APP.appId, nickname: 'Lin (new name)', userId: first.body.data.userInfo.id });
    expect(fake.calls).toMatchObject({ 'sns/oauth2/access_token': 2, 'sns/userinfo': 2 });
  });

  it('recognises the same person from another app of the account by unionid', async () => {
    const t = officialApp();
    const person = { openid: 'o-first-app-openid-000000001', unionid: 'union-42', nickname: 'Mei', headimgurl: '' };
    const first = await t.get(LOGIN, { code: fake.issueCode(person) });
    const other = await t.get(LOGIN, { code: fake.issueCode({ ...person, openid: 'o-other-app-openid-00000002' }) });
    expect(other.body.data.userInfo.id).toBe(first.body.data.userInfo.id);
  });

  it('refuses a wrong or used code with 400 and a message for a person', async () => {
    const t = officialApp();
    const code = fake.issueCode({ openid: 'o-used-code-user-000000003', nickname: 'Used', headimgurl: '' });
    expect((await t.get(LOGIN, { code })).status).toBe(200);
    for (const bad of [code, 'never-issued']) {
      const reply = await t.get(LOGIN, { code: bad });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 1, msg: INVALID_CODE_MSG });
    }
  });

  it('validates its input before calling WeChat', async () => {
    const t = officialApp();
    expect((await t.get(LOGIN, {})).status).toBe(400);
    expect((await t.get(CONFIG, { url: 'not a url' })).status).toBe(400);
    expect(fake.calls).toEqual({});
  });
});
