// @vitest-environment jsdom
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginWithPassword } from '../../src/services/api/auth';
import { getUserInfo, updateScanId } from '../../src/services/api/users';
import { getWxConfig, loginWithScanId, loginWithWxCode, openScanTicket, validateScanLogin } from '../../src/services/api/wechat';
import { clearToken, setToken } from '../../src/services/cookies';
import { configureHttp } from '../../src/services/http';
import { authorizationUrl } from '../../src/services/wechat-links';
import { startServer, type RunningServer } from '../../server/start';

/** The SPA's WeChat and scan-login service functions against the real server running its WeChat simulator. */
describe('WeChat services against the reference server (simulator)', () => {
  let server: RunningServer;
  let dataDir: string;
  const demo = { username: 'wechat-contract@kraken.local', password: 'contract-Password-2' };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kraken-wechat-contract-'));
    server = await startServer({ port: 0, dataDir, spaDir: null, env: {}, demo, log: () => undefined });
    configureHttp({ baseURL: server.url, currentPath: () => '/' });
  }, 60_000);

  afterAll(async () => {
    clearToken();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes from the config to the consent page to a signed-in WeChat user, as the SPA does', async () => {
    const page = `${server.url}/login?redirect_url=%2Fchat`;
    const config = await getWxConfig(page);
    expect(config).toMatchObject({ appId: 'wx-simulator', authorizeUrl: '/api/wechat-simulator/authorize' });

    const authorize = new URL(authorizationUrl({ appId: config.appId, authorizeUrl: config.authorizeUrl, href: page, state: '1.abc' }), server.url);
    const consentPage = await fetch(authorize);
    expect(consentPage.status).toBe(200);
    expect(await consentPage.text()).toContain('Sign in with WeChat');

    const consent = await fetch(new URL(authorize.pathname, server.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ redirect_uri: authorize.searchParams.get('redirect_uri')!, state: '1.abc', name: 'Contract Lin' }),
    });
    expect(consent.status).toBe(303);
    const back = new URL(consent.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe('1.abc');
    const session = await loginWithWxCode(back.searchParams.get('code')!);
    expect(session.userInfo.nickname).toBe('Contract Lin');
  });

  it('scan login: open, wait, approve from a signed-in session, collect once', async () => {
    const fingerPrint = crypto.randomUUID();
    const ticket = await openScanTicket(fingerPrint);
    expect(await validateScanLogin(ticket.id, fingerPrint)).toEqual({ status: 'waiting' });

    const phone = await loginWithPassword(demo);
    setToken(phone.token);
    await updateScanId(ticket.id);
    clearToken();

    const confirmed = await validateScanLogin(ticket.id, fingerPrint);
    expect(confirmed.status).toBe('confirmed');
    setToken(confirmed.token!);
    expect((await getUserInfo()).id).toBe(phone.userInfo.id);
    clearToken();
    await expect(loginWithScanId(ticket.id, fingerPrint, { silent: true })).rejects.toMatchObject({ status: 404 });
  });
});
