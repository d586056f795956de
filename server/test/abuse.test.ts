import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import { createOfflineResponder } from '../agents/offline-responder';
import { createApp } from '../app';
import { defaultConfig } from '../config';
import { rateCounters } from '../db/schema';
import { createMemoryStorage } from '../media/storage';
import { openHarness, type TestApp } from './harness';

/** Bursts, lying files and the headers that keep a browser from running what it should not. */

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const LOGIN = endpoints.login.path;

const loginAs = (t: TestApp, username: string, password: string) =>
  t.raw(LOGIN, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });

describe('the login rate limit under a burst', () => {
  it('lets exactly 5 guesses from one address at one account through, however many arrive at once', async () => {
    const t = h.makeApp();
    const { username, password } = await h.newUser();
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => loginAs(t, username, `wrong-${i}`)));
    const statuses = burst.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    // That address is refused even the right password until the window has passed...
    expect((await loginAs(t, username, password)).status).toBe(429);
    // ...while the owner, somewhere else, signs in (slowed down at most 3 s: only 5 failures here).
    const owner = h.makeApp({ clock: t.clock });
    expect((await loginAs(owner, username, password)).status).toBe(200);
    t.clock.advance(61_000);
    expect((await loginAs(t, username, password)).status).toBe(200);
  });

  it('slows down a burst at one account from 30 addresses, each answer waiting up to 3 s, and locks none of them out', async () => {
    const t = h.makeApp({ config: { trustProxy: 1 } });
    const { username } = await h.newUser();
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.raw(LOGIN, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i + 1}` },
          body: JSON.stringify({ username, password: `wrong-${i}` }),
        }),
      ),
    );
    expect(burst.map((response) => response.status)).toEqual(Array.from({ length: 30 }, () => 401));
    // Every attempt after the 6th waited; from the 9th on, the 3 s cap.
    expect(t.pauses).toHaveLength(24);
    expect(t.pauses.filter((ms) => ms === 3000)).toHaveLength(21);
    expect(Math.max(...t.pauses)).toBe(3000);
  });

  it('enforces one limit across instances sharing the database', async () => {
    const address = '203.0.113.77';
    const first = h.makeApp({ address });
    const second = h.makeApp({ address, clock: first.clock });
    const { username } = await h.newUser();
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => loginAs(i % 2 ? first : second, username, `wrong-${i}`)));
    expect(burst.filter((response) => response.status === 401)).toHaveLength(5);
  });

  it('forgets closed windows: the counters table keeps only limits still running', async () => {
    const t = h.makeApp();
    for (let i = 0; i < 3; i++) await loginAs(t, `gone-${i}@test.local`, 'guess-123');
    const open = await h.db.select().from(rateCounters).where(like(rateCounters.key, `%${t.address}%`));
    expect(open.length).toBeGreaterThan(0);
    t.clock.advance(2 * 60_000);
    await loginAs(h.makeApp({ clock: t.clock }), 'someone@test.local', 'guess-123');
    const left = await h.db.select().from(rateCounters).where(like(rateCounters.key, `%${t.address}%`));
    expect(left).toEqual([]);
  });

  it('lets at most 20 guesses from one address through in a burst spread over many accounts', async () => {
    const t = h.makeApp();
    const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => loginAs(t, `nobody-${i}@test.local`, 'guess-123')));
    expect(burst.filter((response) => response.status === 401).length).toBeLessThanOrEqual(defaultConfig.loginMaxFailuresPerAddress);
    expect(burst.filter((response) => response.status === 429).length).toBeGreaterThanOrEqual(40);
  });

  it('lets an office behind one address get through a few colleagues’ typos, each account still held to 5', async () => {
    const t = h.makeApp();
    const colleagues = await Promise.all(Array.from({ length: 4 }, () => h.newUser()));
    for (const colleague of colleagues) {
      for (let i = 0; i < 3; i++) expect((await loginAs(t, colleague.username, `typo-${i}`)).status).toBe(401);
      expect((await loginAs(t, colleague.username, colleague.password)).status).toBe(200);
    }
    const unlucky = colleagues[0]!;
    for (let i = 0; i < 5; i++) await loginAs(t, unlucky.username, `again-${i}`);
    expect((await loginAs(t, unlucky.username, unlucky.password)).status).toBe(429);
    expect((await loginAs(t, colleagues[1]!.username, colleagues[1]!.password)).status).toBe(200);
  });

  it('does not count successful logins against the address', async () => {
    const t = h.makeApp();
    const accounts = await Promise.all(Array.from({ length: 8 }, () => h.newUser()));
    for (const account of accounts) expect((await loginAs(t, account.username, account.password)).status).toBe(200);
  });
});

const UPLOAD = endpoints.upload.path;
const upload = async (t: TestApp, bytes: Uint8Array, name: string, type: string) => {
  const form = new FormData();
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  const uploader = h.visitor();
  const response = await t.raw(UPLOAD, { method: 'POST', body: form, headers: uploader });
  return { uploader, status: response.status, body: (await response.json()) as { msg: string; data: { fileId: string; kind: string; mimeType: string; url: string } } };
};
const text = (value: string) => new TextEncoder().encode(value);

describe('uploads that lie about what they are', () => {
  const lies: [string, Uint8Array, string, string][] = [
    ['an HTML page claimed as a PNG', text('<!doctype html><script>alert(document.cookie)</script>'), 'photo.png', 'image/png'],
    ['an SVG with script claimed as an image', text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'logo.svg', 'image/svg+xml'],
    ['JavaScript claimed as a JPEG', text('fetch("/api/system/user/get-user-info")'), 'me.jpg', 'image/jpeg'],
    ['plain text claimed as MP4 video', text('just words, not a video'), 'clip.mp4', 'video/mp4'],
    ['HTML claimed as MP3 audio', text('<html><body onload=alert(1)>'), 'song.mp3', 'audio/mpeg'],
    ['a PDF claimed as a GIF', text('%PDF-1.7\n1 0 obj <<>> endobj'), 'anim.gif', 'image/gif'],
    ['an empty-looking XML claimed as text/html', text('<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>'), 'page.html', 'text/html'],
  ];

  it.each(lies)('stores %s as "other" and serves it only as a download', async (_what, bytes, name, type) => {
    const t = h.makeApp();
    const reply = await upload(t, bytes, name, type);
    expect(reply.status).toBe(200);
    expect(reply.body.data.kind).toBe('other');
    expect(reply.body.data.mimeType).not.toBe(type);
    const file = await t.raw(reply.body.data.url, { headers: reply.uploader });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(file.headers.get('content-type')).not.toMatch(/html|svg|javascript|xml|image|audio|video/);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('refuses a file over the limit, even several at once, and stores none of them', async () => {
    const t = h.makeApp({ config: { uploadLimitBytes: 4096 } });
    const replies = await Promise.all(Array.from({ length: 6 }, () => upload(t, new Uint8Array(4097), 'big.bin', 'application/octet-stream')));
    for (const reply of replies) {
      expect(reply.status).toBe(413);
      expect(reply.body.msg).toMatch(/too large/);
    }
    expect((await upload(t, new Uint8Array(4096), 'fits.bin', 'application/octet-stream')).status).toBe(200);
  });
});

/** Directives of a Content-Security-Policy, by name. */
const directives = (policy: string) =>
  new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );

const expectProtectiveHeaders = (response: Response, what: string) => {
  const policy = response.headers.get('content-security-policy');
  expect(policy, `${what}: Content-Security-Policy`).toBeTruthy();
  const csp = directives(policy!);
  const scripts = csp.get('script-src') ?? csp.get('default-src');
  expect(scripts, `${what}: script-src`).toBeDefined();
  expect(scripts, `${what}: inline script`).not.toContain("'unsafe-inline'");
  expect(scripts, `${what}: eval`).not.toContain("'unsafe-eval'");
  expect(scripts!.some((source) => source === '*' || source === 'data:' || source === 'http:' || source === 'https:'), `${what}: script from anywhere`).toBe(false);
  expect(csp.get('object-src') ?? csp.get('default-src'), `${what}: object-src`).toEqual(["'none'"]);
  expect(csp.get('base-uri'), `${what}: base-uri`).toBeDefined();
  expect(csp.get('frame-ancestors'), `${what}: frame-ancestors`).toEqual(["'none'"]);
  expect(response.headers.get('x-frame-options'), `${what}: X-Frame-Options`).toBe('DENY');
  expect(response.headers.get('x-content-type-options'), `${what}: X-Content-Type-Options`).toBe('nosniff');
  expect(['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'], `${what}: Referrer-Policy`).toContain(
    response.headers.get('referrer-policy'),
  );
};

describe('security headers', () => {
  it('protect the SPA page, its client routes, an API answer, an API error and the chat stream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spa-headers-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Kraken</title><script type="module" src="/assets/app.js"></script>');
    writeFileSync(join(dir, 'assets', 'app.js'), 'export {}');
    const app = createApp({
      db: h.db,
      config: { ...defaultConfig, offlineTokenDelayMs: 0 },
      clock: { now: () => new Date() },
      runtime: createOfflineResponder(0),
      storage: createMemoryStorage(),
      log: () => {},
      spaDir: dir,
    });
    const visitor = h.visitor();
    const created = await app.request(endpoints.conversationCreate.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...visitor },
      body: JSON.stringify({ sourceId: 'SpecialNoAgentFallback' }),
    });
    const conversationId = ((await created.json()) as { data: { conversationId: string } }).data.conversationId;
    const stream = await app.request(endpoints.chat.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...visitor },
      body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'hi' }),
    });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.text();

    const answers: [string, Response][] = [
      ['index.html', await app.request('/')],
      ['a client route', await app.request('/chat/some-id')],
      ['a script', await app.request('/assets/app.js')],
      ['an API answer', await app.request('/api/workflow/agent/detail?agentId=SpecialNoAgentFallback')],
      ['an API refusal', await app.request(endpoints.userInfo.path)],
      ['an unknown API path', await app.request('/api/nothing')],
      ['the chat stream', stream],
    ];
    for (const [what, response] of answers) expectProtectiveHeaders(response, what);
    expect(await answers[0]![1].text()).toContain('<title>Kraken</title>');
  });
});
