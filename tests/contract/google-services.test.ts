// @vitest-environment jsdom
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../../server/auth/fake-google';
import { startServer, type RunningServer } from '../../server/start';
import { getLoginOptions, loginWithGoogle, startGoogleAuthorization } from '../../src/services/api/auth';
import { configureHttp } from '../../src/services/http';

const REDIRECT_URI = 'https://chat.example.test/login/google';

/** The SPA's Google sign-in service functions against the real server, configured with a local fake of Google. */
describe('Google sign-in services against the reference server', () => {
  let google: FakeGoogle;
  let withGoogle: RunningServer;
  let without: RunningServer;
  const dataDirs: string[] = [];
  const start = (config: Parameters<typeof startServer>[0]['config']) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kraken-google-contract-'));
    dataDirs.push(dataDir);
    return startServer({ port: 0, dataDir, spaDir: null, env: {}, config, log: () => undefined });
  };

  beforeAll(async () => {
    google = await startFakeGoogle({
      clientId: 'contract-client',
      clientSecret: 'contract-secret',
      redirectUri: REDIRECT_URI,
      users: [{ sub: '555', email: 'lin@gmail.example', email_verified: true, name: 'Lin Contract', picture: '' }],
    });
    [withGoogle, without] = await Promise.all([start({ google: google.config }), start({})]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([withGoogle?.close(), without?.close(), google?.close()]);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('is offered, starts on Google’s page and finishes with the code and state Google sends back', async () => {
    configureHttp({ baseURL: withGoogle.url, currentPath: () => '/login' });
    expect(await getLoginOptions()).toMatchObject({ google: true });
    const { url, state } = await startGoogleAuthorization();
    const page = await (await fetch(url)).text();
    const href = /href="([^"]+)">Continue as Lin Contract/.exec(page)?.[1]?.replace(/&amp;/g, '&');
    const back = new URL(href!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe(state);
    const session = await loginWithGoogle({ code: back.searchParams.get('code')!, state });
    expect(session.userInfo).toMatchObject({ nickname: 'Lin Contract', username: 'google-555' });
    await expect(loginWithGoogle({ code: back.searchParams.get('code')!, state })).rejects.toThrow(/expired or was already used/);
  });

  it('is neither offered nor startable where Google is not configured', async () => {
    configureHttp({ baseURL: without.url, currentPath: () => '/login' });
    expect(await getLoginOptions()).toMatchObject({ google: false });
    await expect(startGoogleAuthorization({ silent: true })).rejects.toThrow('Google login is not configured on this server.');
  });
});
