import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wechatIdentities } from '../db/schema';
import { openHarness, type TestApp } from '../test/harness';
import { INVALID_CODE_MSG, INVALID_MINIPROGRAM_CODE_MSG } from './provider';
import { WECHAT_NOT_CONFIGURED } from './routes';
import { SIMULATOR_APP_ID, SIMULATOR_AUTHORIZE_PATH, simulatedProfile } from './simulator';

const CONFIG = '/api/system/openapi/wx/config';
const LOGIN = '/api/system/auth/wx-login';
const ORIGIN = 'http://localhost';
const RETURN_TO = `${ORIGIN}/login?redirect_url=%2Fchat&scanid=s1`;

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const authorizeQuery = (overrides: Record<string, string> = {}) =>
  new URLSearchParams({
    appid: SIMULATOR_APP_ID,
    redirect_uri: RETURN_TO,
    response_type: 'code',
    scope: 'snsapi_userinfo',
    state: '1.abc-123',
    ...overrides,
  });

/** Submits the consent form the way a browser on this site would. */
const consent = (t: TestApp, fields: Record<string, string>, origin = ORIGIN) =>
  t.raw(SIMULATOR_AUTHORIZE_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams(fields).toString(),
  });

const codeFrom = (response: Response) => new URL(response.headers.get('location')!).searchParams.get('code')!;

describe('the WeChat simulator (no WeChat credentials)', () => {
  it('tells the SPA to authorise on its own consent page, with a signed config', async () => {
    const t = h.makeApp();
    const reply = await t.get(CONFIG, { url: `${ORIGIN}/` });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ appId: SIMULATOR_APP_ID, authorizeUrl: SIMULATOR_AUTHORIZE_PATH });
    expect(reply.body.data.signature).toMatch(/^[0-9a-f]{40}$/);
  });

  it('shows a consent page for the query WeChat takes, naming the site that asks', async () => {
    const t = h.makeApp();
    const response = await t.raw(`${SIMULATOR_AUTHORIZE_PATH}?${authorizeQuery()}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('<strong>localhost</strong> asks for your WeChat nickname and avatar');
    expect(html).toContain(`value="${RETURN_TO.replace(/&/g, '&amp;')}"`);
    expect(html).toContain('<button type="submit">Allow</button>');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('speaks the person’s language (Accept-Language) and offers a Cancel', async () => {
    const t = h.makeApp();
    const response = await t.raw(`${SIMULATOR_AUTHORIZE_PATH}?${authorizeQuery()}`, { headers: { 'accept-language': 'fr-CH, en;q=0.5' } });
    const html = await response.text();
    expect(html).toContain('<html lang="fr-FR">');
    expect(html).toContain('<h1>Se connecter avec WeChat</h1>');
    expect(html).toContain('<strong>localhost</strong> demande votre pseudo et votre photo WeChat.');
    expect(html).toContain('>Autoriser</button>');
    expect(html).toContain('name="decision" value="cancel" formnovalidate>Annuler</button>');
    expect(html).not.toMatch(/Sign in with WeChat|Allow|Simulated WeChat user/);
    const japanese = await (await t.raw(`${SIMULATOR_AUTHORIZE_PATH}?${authorizeQuery()}`, { headers: { 'accept-language': 'ja-JP' } })).text();
    expect(japanese).toContain('<h1>WeChat でログイン</h1>');
    expect(japanese).toContain('>キャンセル</button>');
  });

  it('cancels without a code: nothing goes back to the site, and the page leads back to it', async () => {
    const t = h.makeApp();
    const response = await t.raw(SIMULATOR_AUTHORIZE_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, 'accept-language': 'zh-CN' },
      body: new URLSearchParams({ redirect_uri: RETURN_TO, state: '1.abc-123', name: 'Sim Lin', decision: 'cancel' }).toString(),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    const html = await response.text();
    expect(html).toContain('<h1>你没有登录</h1>');
    expect(html).toContain(`<a href="${ORIGIN}/">返回 localhost</a>`);
    expect(html).not.toContain('code=');
    // a cancel naming another site is refused like any other answer to it
    const foreign = await consent(t, { redirect_uri: 'https://evil.example/steal', state: '', name: 'X', decision: 'cancel' });
    expect(foreign.status).toBe(400);
  });

  it.each([
    ['an unknown appid', { appid: 'wx-other' }],
    ['another response_type', { response_type: 'token' }],
    ['another scope', { scope: 'snsapi_login' }],
    ['a relative redirect_uri', { redirect_uri: '/login' }],
    ['a javascript: redirect_uri', { redirect_uri: 'javascript:alert(1)' }],
    ['a state with markup', { state: '"><script>' }],
  ])('refuses %s with a 400 page', async (_label, overrides) => {
    const t = h.makeApp();
    const response = await t.raw(`${SIMULATOR_AUTHORIZE_PATH}?${authorizeQuery(overrides)}`);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('<script>');
  });

  it('returns to redirect_uri with a one-time code and the state; the code signs in a simulated WeChat user', async () => {
    const t = h.makeApp();
    const response = await consent(t, { redirect_uri: RETURN_TO, state: '1.abc-123', name: 'Sim Lin' });
    expect(response.status).toBe(303);
    const back = new URL(response.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/login`);
    expect(back.searchParams.get('redirect_url')).toBe('/chat');
    expect(back.searchParams.get('scanid')).toBe('s1');
    expect(back.searchParams.get('state')).toBe('1.abc-123');

    const login = await t.get(LOGIN, { code: back.searchParams.get('code')! });
    expect(login.status).toBe(200);
    expect(login.body.data.userInfo).toMatchObject({ nickname: 'Sim Lin' });
    expect(login.body.data.userInfo.avatar).toMatch(/^data:image\/svg\+xml/);

    const reused = await t.get(LOGIN, { code: back.searchParams.get('code')! });
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ code: 1, msg: INVALID_CODE_MSG });

    const again = await t.get(LOGIN, { code: codeFrom(await consent(t, { redirect_uri: RETURN_TO, state: 's', name: 'Sim Lin' })) });
    expect(again.body.data.userInfo.id).toBe(login.body.data.userInfo.id);
    const other = await t.get(LOGIN, { code: codeFrom(await consent(t, { redirect_uri: RETURN_TO, state: 's', name: 'Sim Mei' })) });
    expect(other.body.data.userInfo.id).not.toBe(login.body.data.userInfo.id);
  });

  it('lets a consent code stand in for the mini program’s wx.login(): the same person, by unionid', async () => {
    const t = h.makeApp();
    const official = await t.get(LOGIN, { code: codeFrom(await consent(t, { redirect_uri: RETURN_TO, state: 's', name: 'Sim Mini' })) });
    const code = codeFrom(await consent(t, { redirect_uri: RETURN_TO, state: 's', name: 'Sim Mini' }));
    const mini = await t.post('/api/system/auth/login', { loginType: 'wechat-miniprogram', code });
    expect(mini.status).toBe(200);
    expect(mini.body.data.userInfo.id).toBe(official.body.data.userInfo.id);
    const reused = await t.post('/api/system/auth/login', { loginType: 'wechat-miniprogram', code });
    expect(reused.status).toBe(400);
    expect(reused.body.msg).toBe(INVALID_MINIPROGRAM_CODE_MSG);
  });

  it('returns to this site or a development server on this machine, never to another site', async () => {
    const t = h.makeApp();
    const proxied = await consent(t, { redirect_uri: 'http://localhost:5173/', state: '', name: 'Dev' }, 'http://localhost:5173');
    expect(proxied.status).toBe(303);
    const foreign = await consent(t, { redirect_uri: 'https://evil.example/steal', state: '', name: 'Dev' }, 'https://evil.example');
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain('redirect_uri must be on this site');
    expect((await consent(t, { redirect_uri: 'https://evil.example/steal', state: '', name: 'X' })).status).toBe(400);
  });

  it('wants a name for the simulated user', async () => {
    const t = h.makeApp();
    expect((await consent(t, { redirect_uri: RETURN_TO, state: '', name: '  ' })).status).toBe(400);
    expect((await consent(t, { redirect_uri: RETURN_TO, state: '', name: 'x'.repeat(33) })).status).toBe(400);
  });

  it('never signs in as an account of a real person, whatever name is typed', async () => {
    const t = h.makeApp();
    const person = await h.newUser({ nickname: 'Ada' });
    const linked = await h.newUser({ nickname: 'Lin' });
    // a real WeChat user of the official app, with the very openid the simulator derives from "Lin"
    const now = new Date();
    await h.db.insert(wechatIdentities).values({
      appId: 'wx-real-app', openid: simulatedProfile('Lin').openid, unionid: 'o-real-union', nickname: 'Lin', avatar: '', userId: linked.user.id, createdAt: now, updatedAt: now,
    });
    for (const name of [person.username, 'Ada', 'Lin', linked.username, 'demo@kraken.local']) {
      const login = await t.get(LOGIN, { code: codeFrom(await consent(t, { redirect_uri: RETURN_TO, state: 's', name })) });
      expect(login.status).toBe(200);
      expect(login.body.data.userInfo.id).not.toBe(person.user.id);
      expect(login.body.data.userInfo.id).not.toBe(linked.user.id);
      expect(login.body.data.userInfo.username).toMatch(/^wechat-sim-/);
    }
  });

  it('expires unused codes after five minutes', async () => {
    const t = h.makeApp();
    const code = codeFrom(await consent(t, { redirect_uri: RETURN_TO, state: '', name: 'Late' }));
    t.clock.advance(5 * 60 * 1000);
    expect((await t.get(LOGIN, { code })).status).toBe(400);
  });
});

describe('WeChat switched off (WECHAT_SIMULATOR=off, no credentials)', () => {
  it('refuses WeChat logins clearly and has no consent page', async () => {
    const t = h.makeApp({ config: { wechat: { mode: 'off' } } });
    const config = await t.get(CONFIG, { url: `${ORIGIN}/` });
    expect(config.status).toBe(503);
    expect(config.body).toMatchObject({ code: 1, msg: WECHAT_NOT_CONFIGURED });
    expect((await t.get(LOGIN, { code: 'abc' })).body.msg).toBe(WECHAT_NOT_CONFIGURED);
    for (const loginType of ['wechat-official-account', 'wechat-miniprogram']) {
      const reply = await t.post('/api/system/auth/login', { loginType, code: 'abc' });
      expect(reply.status).toBe(503);
      expect(reply.body.msg).toBe(WECHAT_NOT_CONFIGURED);
    }
    expect((await t.raw(`${SIMULATOR_AUTHORIZE_PATH}?${authorizeQuery()}`)).status).toBe(404);
  });
});
