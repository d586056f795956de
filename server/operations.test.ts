import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_ARGS } from './test/serve-command';
import type { AgentRuntime } from './agents/runtime';
import { createApp } from './app';
import { defaultConfig, systemClock } from './config';
import { openDb, pgliteDirOf } from './db/client';
import { messages } from './db/schema';
import { createMemoryStorage } from './media/storage';
import { startServer } from './start';
import { openHarness } from './test/harness';
import { openTestDb } from './test/test-db';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const AGENT = 'SpecialNoAgentFallback';

type Chat = { conversationId: string; events: AsyncGenerator<{ type: string; text?: string; replyMessageId?: string }> };

/** Opens a conversation as a visitor and asks in it; the answer's events as they come. */
async function ask(url: string, text: string): Promise<Chat> {
  const visitor = crypto.randomUUID();
  const headers = { 'content-type': 'application/json', 'x-visitor-id': visitor };
  const created = await fetch(`${url}/api/workflow/im/conversation/create`, { method: 'POST', headers, body: JSON.stringify({ sourceId: AGENT }) });
  const conversationId = ((await created.json()) as { data: { conversationId: string } }).data.conversationId;
  const response = await fetch(`${url}/api/workflow/sse/agent/chat`, { method: 'POST', headers, body: JSON.stringify({ conversationId, agentId: AGENT, text }) });
  expect(response.status).toBe(200);
  async function* events() {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body!) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop()!;
      for (const block of blocks) {
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (data) yield JSON.parse(data.slice(6));
      }
    }
  }
  return { conversationId, events: events() };
}

describe('/healthz and /readyz', () => {
  let h: Awaited<ReturnType<typeof openHarness>>;
  beforeAll(async () => {
    h = await openHarness();
  });
  afterAll(() => h.close());

  it('answer 200 while the instance should get traffic; /readyz 503 once it drains', async () => {
    let draining = false;
    const t = h.makeApp({ draining: () => draining });
    const health = await t.raw('/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('cache-control')).toBe('no-store');
    const ready = await t.raw('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    draining = true;
    const drained = await t.raw('/readyz');
    expect(drained.status).toBe(503);
    expect(await drained.json()).toEqual({ status: 'not ready', reason: 'draining' });
    expect((await t.raw('/healthz')).status).toBe(200);
    // Probes come every few seconds: they stay out of the request log.
    expect(t.logs.filter((line) => /\/(healthz|readyz)/.test(line))).toEqual([]);
  });

  it('/readyz says 503 before the migrations are applied, /healthz does not touch the database', async () => {
    const empty = await openTestDb({ migrated: false });
    try {
      const app = createApp({ db: empty.db, config: defaultConfig, clock: systemClock, runtime: { label: 'none', async *streamAnswer() {} }, storage: createMemoryStorage(), log: () => {} });
      expect((await app.request('/healthz')).status).toBe(200);
      const ready = await app.request('/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'not ready', reason: 'database unreachable or not migrated' });
      await empty.migrate();
      expect((await app.request('/readyz')).status).toBe(200);
    } finally {
      await empty.close();
    }
  });
});

describe('shutting down', { timeout: 120_000 }, () => {
  it('lets a running answer finish within the grace, and its reader gets the whole of it', async () => {
    // Longer than the shutdown waits for connections to end by themselves once answers are settled.
    const words: AgentRuntime = {
      label: 'ten words in 3 s',
      async *streamAnswer() {
        for (let i = 0; i < 10; i++) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          yield `w${i} `;
        }
      },
    };
    const server = await startServer({ dataDir: mkdtempSync(join(tmpdir(), 'kraken-drain-')), env: {}, spaDir: null, log: () => {}, runtime: words, config: { shutdownGraceMs: 30_000 } });
    const chat = await ask(server.url, 'Ten words please');
    const seen: string[] = [];
    for (let next = await chat.events.next(); !next.done; next = await chat.events.next()) {
      seen.push(next.value.type);
      if (next.value.type === 'delta') break;
    }
    const closed = server.close();
    for (let next = await chat.events.next(); !next.done; next = await chat.events.next()) seen.push(next.value.type);
    await closed;
    expect(seen.at(-1)).toBe('end');
    expect(seen.filter((type) => type === 'delta').length).toBeGreaterThan(1);
  });

  describe('SIGTERM to `npm run serve` with an answer streaming', () => {
    /** A model that streams a word every 50 ms for as long as anyone listens. */
    let model: Server;
    let modelUrl: string;
    beforeAll(async () => {
      model = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          let i = 0;
          const timer = setInterval(() => res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: `word${i++} ` } }] })}\n\n`), 50);
          res.on('close', () => clearInterval(timer));
        });
      });
      await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
      modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    });
    afterAll(() => {
      model.closeAllConnections();
      return new Promise<void>((resolve) => model.close(() => resolve()));
    });

    it('stops taking connections, stops the answer after SHUTDOWN_GRACE_SECONDS keeping what was sent, and exits 0', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'kraken-sigterm-'));
      const child = spawn(process.execPath, SERVE_ARGS, {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LLM_BASE_URL: modelUrl, LLM_API_KEY: '', SHUTDOWN_GRACE_SECONDS: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const url = await new Promise<string>((resolve, reject) => {
        const listen = (chunk: Buffer) => {
          output += chunk.toString();
          const match = /running at (http:\/\/[^\s"]+)/.exec(output);
          if (match) resolve(match[1]!);
        };
        child.stdout!.on('data', listen);
        child.stderr!.on('data', listen);
        void exited.then(() => reject(new Error(`the server exited:\n${output}`)));
      });

      const chat = await ask(url, 'Tell me everything');
      let streamed = '';
      let replyId = '';
      for (let next = await chat.events.next(); !next.done; next = await chat.events.next()) {
        if (next.value.type === 'start') replyId = next.value.replyMessageId!;
        if (next.value.type === 'delta') streamed += next.value.text;
        if (streamed.split(' ').length > 5) break;
      }
      child.kill('SIGTERM');
      const after: string[] = [];
      for (let next = await chat.events.next(); !next.done; next = await chat.events.next()) {
        after.push(next.value.type);
        if (next.value.type === 'delta') streamed += next.value.text;
      }
      expect(await exited).toBe(0);
      // The chat call's stream of a stopped answer closes without an ending event.
      expect(after.filter((type) => type !== 'delta')).toEqual([]);
      expect(output).toContain('SIGTERM received, shutting down: running answers get up to 1 s to finish');
      expect(output).toContain('shutdown: 0 running answers finished, 1 stopped and kept incomplete');
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();

      // Read as stored, before any start-up could touch it: incomplete, with exactly what was sent.
      const database = await openDb({ pgliteDir: pgliteDirOf(dataDir) });
      try {
        const [reply] = await database.db.select().from(messages).where(eq(messages.id, replyId));
        expect(reply).toMatchObject({ status: 'incomplete', content: streamed });
      } finally {
        await database.close();
      }
    });
  });
});
