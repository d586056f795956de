import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import { createOfflineResponder } from '../agents/offline-responder';
import { createApp } from '../app';
import { defaultConfig } from '../config';
import { createMemoryStorage } from '../media/storage';
import { openHarness } from '../test/harness';
import { CONTENT_SECURITY_POLICY } from './security-headers';
import { SPA_NOT_BUILT } from './spa';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

function spaApp(spaDir: string) {
  return createApp({
    db: h.db,
    config: defaultConfig,
    clock: { now: () => new Date() },
    runtime: createOfflineResponder(0),
    storage: createMemoryStorage(),
    log: () => {},
    spaDir,
  });
}

describe('every answer', () => {
  it('carries the security headers', async () => {
    const t = h.makeApp();
    for (const response of [
      await t.raw('/api/workflow/agent/detail?agentId=SpecialNoAgentFallback'),
      await t.raw('/api/system/user/get-user-info'),
      await t.raw('/api/nothing-here'),
    ]) {
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it('is logged in one line without the query string, tokens or passwords', async () => {
    const t = h.makeApp();
    const account = await h.loggedIn(t);
    await t.get('/api/workflow/agent/detail', { agentId: 'SpecialNoAgentFallback', secret: 'query-secret' }, account.headers);
    await t.post('/api/system/auth/login', { username: account.username, password: 'wrong-password-123' });
    expect(t.logs).toContain(t.logs.find((l) => /^GET \/api\/workflow\/agent\/detail 200 \d+ms$/.test(l)));
    expect(t.logs.some((l) => /^POST \/api\/system\/auth\/login 401 \d+ms$/.test(l))).toBe(true);
    const all = t.lines.join('\n');
    for (const secret of [account.token, account.password, 'wrong-password-123', 'query-secret', account.username]) {
      expect(all).not.toContain(secret);
    }
  });
});

describe('bad requests', () => {
  it('answer 413 for oversize JSON bodies', async () => {
    const t = h.makeApp({ config: { jsonBodyLimitBytes: 2000 } });
    const reply = await t.post('/api/workflow/agent/published-list', { keyword: 'x', padding: 'y'.repeat(5000) });
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ code: 1, success: false });
    expect(reply.body.msg).toMatch(/too large/);
  });

  it('answer 400 for non-object JSON bodies', async () => {
    const t = h.makeApp();
    for (const body of ['null', '[]', '"text"', '42']) {
      const reply = await t.post('/api/workflow/agent/published-list', body);
      expect(reply.status).toBe(400);
      expect(reply.body.msg).toMatch(/JSON object/);
    }
  });

  it('answer 404 in the envelope for unknown API paths and wrong methods', async () => {
    const t = h.makeApp();
    const unknown = await t.get('/api/does/not/exist');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 1, success: false });
    expect((await t.get('/api/system/auth/login')).status).toBe(404);
  });

  it('never answer 500 for any endpoint of the contract given garbage', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    // An endpoint that takes no input and answers anyone (the public ones, the model list) has
    // nothing to be wrong about: it simply answers.
    const takingInput = Object.values(endpoints).filter((endpoint) => endpoint.input !== 'none' || (endpoint.access !== 'public' && endpoint.access !== 'visitor'));
    for (const endpoint of takingInput) {
      const response =
        endpoint.method === 'GET'
          ? await t.raw(`${endpoint.path}?conversationId=&agentId=&url=nope&code=&fingerPrint=`, { headers: visitor })
          : await t.raw(endpoint.path, { method: 'POST', headers: { 'content-type': 'application/json', ...visitor }, body: '{"a":' });
      expect(response.status, `${endpoint.method} ${endpoint.path}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${endpoint.method} ${endpoint.path}`).toBeLessThan(500);
      expect((await response.json()).code).toBe(1);
    }
  });
});

describe('WeChat endpoints', () => {
  it('are registered and refuse clearly while WeChat is switched off', async () => {
    const t = h.makeApp({ config: { wechat: { mode: 'off' } } });
    const reply = await t.get('/api/system/auth/wx-login', { code: 'abc' });
    expect(reply.body).toMatchObject({ code: 1, msg: 'WeChat login is not configured', success: false });
    expect((await t.get('/api/system/openapi/wx/config', { url: 'https://x.example/' })).body.msg).toBe('WeChat login is not configured');
    // scan login needs no WeChat: a signed-in user confirms the ticket
    expect((await t.post('/api/system/auth/wx-login-by-scanid', { scanid: 'x1', fingerPrint: 'fp-0123456789abcdef' })).status).toBe(404);
  });
});

describe('the SPA', () => {
  it('is served from its build, with every client route falling back to index.html', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spa-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Kraken</title>');
    writeFileSync(join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
    writeFileSync(join(dir, 'favicon.svg'), '<svg/>');
    const app = spaApp(dir);
    const script = await app.request('/assets/app-1234.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect((await app.request('/favicon.svg')).headers.get('content-type')).toBe('image/svg+xml');
    for (const path of ['/', '/home', '/chat/abc/def', '/kraken-operation/task/edit/7?x=1', '/login']) {
      const page = await app.request(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('<title>Kraken</title>');
    }
    expect((await app.request('/assets/missing.js')).status).toBe(404);
    expect((await app.request('/..%2f..%2fetc%2fpasswd')).status).toBe(200);
    expect(await (await app.request('/..%2f..%2fetc%2fpasswd')).text()).toContain('<title>Kraken</title>');
    expect((await app.request('/api/nope')).headers.get('content-type')).toMatch(/json/);
  });

  it('allows the page its own inline boot script by hash, and no other inline script', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spa-'));
    const boot = "document.documentElement.classList.toggle('dark', true);";
    writeFileSync(join(dir, 'index.html'), `<!doctype html><head><script>${boot}</script></head><body><script type="module" src="/assets/a.js"></script>`);
    const hash = createHash('sha256').update(boot).digest('base64');
    const app = spaApp(dir);
    for (const path of ['/', '/chat', '/index.html', '/share/some-token']) {
      const policy = (await app.request(path)).headers.get('content-security-policy') ?? '';
      expect(policy, path).toContain(`script-src 'self' 'sha256-${hash}'`);
      expect(policy.split('; ').find((part) => part.startsWith('script-src'))).not.toContain('unsafe-inline');
    }
    // API answers keep the plain policy: no script is allowed there by hash.
    expect((await app.request('/api/nope')).headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    // The hash is the text's: a page whose boot script changed gets its new hash.
    writeFileSync(join(dir, 'index.html'), '<!doctype html><script>window.other = 1</script>');
    const changed = (await app.request('/')).headers.get('content-security-policy') ?? '';
    expect(changed).not.toContain(hash);
    expect(changed).toContain(`'sha256-${createHash('sha256').update('window.other = 1').digest('base64')}'`);
  });

  it('says to run the build when there is none', async () => {
    const app = spaApp(join(tmpdir(), 'no-such-build-dir'));
    const page = await app.request('/chat');
    expect(page.status).toBe(503);
    expect(await page.text()).toBe(SPA_NOT_BUILT);
  });
});
