import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineResponder } from '../agents/offline-responder';
import { createApp } from '../app';
import { configFromEnv, defaultConfig, type ServerConfig } from '../config';
import { createMemoryStorage } from '../media/storage';
import { openHarness } from '../test/harness';
import { STRICT_TRANSPORT_SECURITY } from './security-headers';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

function builtSpa() {
  const dir = mkdtempSync(join(tmpdir(), 'spa-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Kraken</title>');
  writeFileSync(join(dir, 'assets', 'app-1234.js'), 'console.log(1)\n//# sourceMappingURL=app-1234.js.map');
  writeFileSync(join(dir, 'assets', 'app-1234.js.map'), '{"version":3,"sourcesContent":["// the secret plan"]}');
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dir, 'manifest.webmanifest'), '{"name":"Kraken AI"}');
  return dir;
}

const spaApp = (config: Partial<ServerConfig> = {}) =>
  createApp({
    db: h.db,
    config: { ...defaultConfig, ...config },
    clock: { now: () => new Date() },
    runtime: createOfflineResponder(0),
    storage: createMemoryStorage(),
    log: () => {},
    spaDir: builtSpa(),
  });

describe('caching', () => {
  it('no API answer about logins, the user or conversations may be stored; uploaded files and built assets may', async () => {
    const t = h.makeApp();
    const account = await h.loggedIn(t);
    const answers = [
      await t.raw('/api/system/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: account.username, password: account.password }),
      }),
      await t.raw('/api/system/auth/login-options'),
      await t.raw('/api/system/user/get-user-info', { headers: account.headers }),
      await t.raw('/api/system/user/get-user-info'),
      await t.raw('/api/workflow/agent-im/conversation', { method: 'POST', headers: { 'content-type': 'application/json', ...account.headers }, body: '{}' }),
      await t.raw('/api/nothing-here'),
    ];
    for (const answer of answers) expect(answer.headers.get('cache-control'), answer.url).toBe('no-store');

    const form = new FormData();
    form.set('file', new File([PNG], 'pic.png'));
    const upload = (await (await t.raw('/api/media/upload', { method: 'POST', headers: account.headers, body: form })).json()) as { data: { url: string } };
    expect((await t.raw(upload.data.url, { headers: account.headers })).headers.get('cache-control')).toBe('private, no-cache');
    expect((await spaApp().request('/assets/app-1234.js')).headers.get('cache-control')).toContain('immutable');
    // The service worker and the manifest are checked on every visit, so a new version is found at once.
    const worker = await spaApp().request('/sw.js');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(worker.headers.get('content-type')).toContain('text/javascript');
    const manifest = await spaApp().request('/manifest.webmanifest');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(manifest.headers.get('content-type')).toContain('application/manifest+json');
  });
});

describe('HSTS', () => {
  it('is sent on every answer only when the server is told it is reached over https', async () => {
    const plain = h.makeApp();
    expect((await plain.raw('/api/system/auth/login-options')).headers.get('strict-transport-security')).toBeNull();
    const https = h.makeApp({ config: { hsts: true } });
    for (const path of ['/api/system/auth/login-options', '/api/nothing-here']) {
      expect((await https.raw(path)).headers.get('strict-transport-security')).toBe(STRICT_TRANSPORT_SECURITY);
    }
    expect((await spaApp({ hsts: true }).request('/')).headers.get('strict-transport-security')).toBe(STRICT_TRANSPORT_SECURITY);
  });

  it('is switched on by PUBLIC_URL=https://… or HSTS=on, and off by HSTS=off', () => {
    expect(configFromEnv({}).hsts).toBe(false);
    expect(configFromEnv({ PUBLIC_URL: 'https://chat.example.com' }).hsts).toBe(true);
    expect(configFromEnv({ PUBLIC_URL: 'http://chat.example.com' }).hsts).toBe(false);
    expect(configFromEnv({ HSTS: 'on' }).hsts).toBe(true);
    expect(configFromEnv({ PUBLIC_URL: 'https://chat.example.com', HSTS: 'off' }).hsts).toBe(false);
  });
});

describe('source maps', () => {
  it('are not served unless SERVE_SOURCEMAPS asks for them', async () => {
    const app = spaApp();
    expect((await app.request('/assets/app-1234.js')).status).toBe(200);
    for (const path of ['/assets/app-1234.js.map', '/assets/app-1234.js.MAP', '/assets/app-1234.js%2Emap']) {
      const answer = await app.request(path);
      expect(answer.status, path).toBe(404);
      expect(await answer.text()).not.toContain('secret plan');
    }
    const asked = await spaApp({ serveSourceMaps: true }).request('/assets/app-1234.js.map');
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('secret plan');
    expect(configFromEnv({ SERVE_SOURCEMAPS: 'on' }).serveSourceMaps).toBe(true);
    expect(configFromEnv({}).serveSourceMaps).toBe(false);
  });
});
