import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress';
import type { AgentRuntime } from '../agents/runtime';
import { createApp } from '../app';
import { createOfflineResponder } from '../agents/offline-responder';
import { defaultConfig } from '../config';
import { createMemoryStorage } from '../media/storage';
import { openHarness } from '../test/harness';
import { accepts } from './spa';

/**
 * Every byte on the wire: the built files go compressed as the build made them, by the
 * client's Accept-Encoding, with Vary; what the server makes as it answers is compressed above a
 * small size; an answer's events are never held back by compression.
 */

let h: Awaited<ReturnType<typeof openHarness>>;
let spaDir: string;
const SCRIPT = `export const words = ${JSON.stringify('the quick brown fox jumps over the lazy dog '.repeat(200))};\n`;
const PAGE = `<!doctype html><html><head><title>Kraken AI</title></head><body>${'<p>hello</p>'.repeat(100)}</body></html>`;

beforeAll(async () => {
  h = await openHarness();
  spaDir = mkdtempSync(join(tmpdir(), 'kraken-spa-'));
  mkdirSync(join(spaDir, 'assets'));
  writeFileSync(join(spaDir, 'index.html'), PAGE);
  writeFileSync(join(spaDir, 'assets', 'index-abc123.js'), SCRIPT);
  writeFileSync(join(spaDir, 'assets', 'tiny-abc123.js'), 'export {};\n');
  writeFileSync(join(spaDir, 'robots.txt'), 'User-agent: *\nDisallow: /share/\n');
  await precompress(spaDir);
});
afterAll(() => h.close());

const app = () =>
  createApp({ db: h.db, config: defaultConfig, clock: { now: () => new Date() }, runtime: createOfflineResponder(0), storage: createMemoryStorage(), log: () => {}, spaDir });
const get = (path: string, acceptEncoding?: string) => app().request(path, acceptEncoding === undefined ? {} : { headers: { 'accept-encoding': acceptEncoding } });

describe('the build', () => {
  it('writes a brotli and a gzip copy beside each text file worth it, smaller than the file', () => {
    const script = join(spaDir, 'assets', 'index-abc123.js');
    expect(brotliDecompressSync(readFileSync(`${script}.br`)).toString()).toBe(SCRIPT);
    expect(gunzipSync(readFileSync(`${script}.gz`)).toString()).toBe(SCRIPT);
    expect(readFileSync(`${script}.br`).byteLength).toBeLessThan(SCRIPT.length / 10);
    expect(existsSync(join(spaDir, 'assets', 'tiny-abc123.js.br'))).toBe(false);
  });
});

describe('the built files', () => {
  it('go in brotli to a browser that takes it, in gzip to one that takes only that, and as they are otherwise, always with Vary', async () => {
    const br = await get('/assets/index-abc123.js', 'gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(br.headers.get('cache-control')).toContain('immutable');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(SCRIPT);

    const gz = await get('/assets/index-abc123.js', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(SCRIPT);

    for (const header of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get('/assets/index-abc123.js', header);
      expect(plain.headers.get('content-encoding'), String(header)).toBeNull();
      expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await plain.text()).toBe(SCRIPT);
    }
  });

  it('serve the app\'s page compressed for every route of the app, and never a compressed copy by its own name', async () => {
    const page = await get('/chat/some-conversation', 'br');
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await page.arrayBuffer())).toString()).toBe(PAGE);
    expect((await get('/assets/index-abc123.js.br', 'br')).status).toBe(404);
    expect((await get('/index.html.gz')).status).toBe(404);
  });

  it('answer a real robots.txt, and 404 for a file that is not there instead of the app\'s page', async () => {
    const robots = await get('/robots.txt');
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await robots.text()).toContain('Disallow: /share/');
    for (const path of ['/favicon.ico', '/missing.png', '/wp-login.php', '/assets/gone-123.js']) expect((await get(path)).status, path).toBe(404);
    expect((await get('/kraken-operation/task/linkedin')).status).toBe(200);
  });

  it('read Accept-Encoding as browsers and proxies write it', () => {
    expect(accepts('gzip, deflate, br', 'br')).toBe(true);
    expect(accepts('GZIP;q=0.5', 'gzip')).toBe(true);
    expect(accepts('br;q=0', 'br')).toBe(false);
    expect(accepts('*', 'br')).toBe(true);
    expect(accepts('*, br;q=0', 'br')).toBe(false);
    expect(accepts('gzip', 'br')).toBe(false);
    expect(accepts(undefined, 'gzip')).toBe(false);
  });
});

describe('what the server makes as it answers', () => {
  it('is compressed with gzip above a small size, with Vary, and left as it is below it', async () => {
    const t = h.makeApp();
    const big = await t.raw('/api/workflow/agent/published-list', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br', ...h.visitor() },
      body: JSON.stringify({ pageSize: 50 }),
    });
    expect(big.headers.get('content-encoding')).toBe('gzip');
    expect(big.headers.get('vary')).toMatch(/accept-encoding/i);
    const body = JSON.parse(gunzipSync(Buffer.from(await big.arrayBuffer())).toString()) as { data: { list: unknown[] } };
    expect(body.data.list.length).toBeGreaterThan(5);

    const small = await t.raw('/api/system/user/get-user-info', { headers: { 'accept-encoding': 'gzip' } });
    expect(small.status).toBe(401);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(((await small.json()) as { code: number }).code).toBe(1);
  });

  it('never holds an answer\'s events back: each arrives as the model writes it, unencoded', async () => {
    let release: () => void = () => undefined;
    const halfway = new Promise<void>((resolve) => (release = resolve));
    const runtime: AgentRuntime = {
      label: 'held halfway',
      async *streamAnswer() {
        yield 'first half ';
        await halfway;
        yield 'second half';
      },
    };
    const t = h.makeApp({ runtime });
    const visitor = h.visitor();
    const created = await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback', source: 'agent' }, visitor);
    const response = await t.raw('/api/workflow/sse/agent/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br', ...visitor },
      body: JSON.stringify({ conversationId: created.body.data.conversationId, agentId: 'SpecialNoAgentFallback', text: 'Tell me in two halves' }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('content-encoding')).toBeNull();
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    // The first half is on the wire while the model still holds the second.
    while (!seen.includes('first half')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${seen}`);
      seen += decoder.decode(value, { stream: true });
    }
    expect(seen).not.toContain('second half');
    release();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    expect(seen).toContain('second half');
    expect(seen).toContain('"type":"end"');
  });
});
