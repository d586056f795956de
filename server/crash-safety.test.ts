import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_ARGS } from './test/serve-command';
import type { AgentRuntime } from './agents/runtime';
import { LOCK_FILE } from './data-dir-lock';
import { startServer } from './start';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const AGENT = 'SpecialNoAgentFallback';

/** A model that streams a word every 100 ms for as long as anyone listens. */
let model: Server;
let modelUrl: string;
beforeAll(async () => {
  model = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const timer = setInterval(() => res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: `word${i++} ` } }] })}\n\n`), 100);
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

type Child = { process: ChildProcess; output: () => string; exited: Promise<number | null> };

/** What `npm run serve` runs: the server's build in that one process. */
function serve(dataDir: string): Child {
  const child = spawn(process.execPath, SERVE_ARGS, {
    cwd: ROOT,
    // CONTINUE_TAKEN_OVER=off: the restart keeps the answer as the crash left it (the fault suite
    // checks that a restart writes it on by default).
    env: { ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LLM_BASE_URL: modelUrl, LLM_API_KEY: '', CONTINUE_TAKEN_OVER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { process: child, output: () => output, exited };
}

async function urlOf(child: Child): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const match = /running at (http:\/\/[^\s"]+)/.exec(child.output());
    if (match) return match[1]!;
    if (child.process.exitCode !== null) throw new Error(`the server exited: ${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not start: ${child.output()}`);
}

async function api(url: string, path: string, visitor: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-visitor-id': visitor },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return ((await response.json()) as { data: any }).data; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('one data folder, one server', () => {
  it('a second server started on the same folder refuses with a sentence naming it; once the first stops, it starts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kraken-lock-'));
    const first = await startServer({ dataDir, env: {}, spaDir: null, log: () => {} });
    try {
      await expect(startServer({ dataDir, env: {}, spaDir: null, log: () => {} })).rejects.toThrow(
        `The data folder ${dataDir} is already in use by another Kraken server (process ${process.pid}`,
      );
      // The refused start left the running server alone.
      expect((await fetch(`${first.url}/api/system/auth/login-options`)).status).toBe(200);
    } finally {
      await first.close();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const again = await startServer({ dataDir, env: {}, spaDir: null, log: () => {} });
    await again.close();
  });

  it('with PostgreSQL (DATABASE_URL) takes no lock: several instances share it by design', async () => {
    // No PostgreSQL here: the start fails at connecting, after the point where the lock would be taken.
    const dataDir = mkdtempSync(join(tmpdir(), 'kraken-lock-'));
    await expect(startServer({ dataDir, env: {}, databaseUrl: 'postgres://nobody@127.0.0.1:1/none', spaDir: null, log: () => {} })).rejects.toThrow();
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});

describe('kill -9 in the middle of an answer', () => {
  it(
    'keeps every character the reader was shown, marked incomplete after the restart; a second server on the folder exits non-zero',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'kraken-crash-'));
      const first = serve(dataDir);
      const url = await urlOf(first);

      const second = serve(dataDir);
      expect(await second.exited).not.toBe(0);
      expect(second.output()).toContain(`The data folder ${dataDir} is already in use by another Kraken server`);

      const visitor = crypto.randomUUID();
      const conversationId = (await api(url, '/api/workflow/im/conversation/create', visitor, { sourceId: AGENT })).conversationId as string;
      const response = await fetch(`${url}/api/workflow/sse/agent/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-visitor-id': visitor },
        body: JSON.stringify({ conversationId, agentId: AGENT, text: 'Tell me everything' }),
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let streamed = '';
      let buffer = '';
      const started = Date.now();
      while (Date.now() - started < 2500) {
        const { value } = await reader.read();
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) {
          if (!line.startsWith('data: ')) continue;
          const event = JSON.parse(line.slice(6)) as { type: string; text?: string };
          if (event.type === 'delta') streamed += event.text;
        }
      }
      first.process.kill('SIGKILL');
      await first.exited;
      await reader.cancel().catch(() => {});
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);

      // The lock of the killed server is stale: the restart takes it over.
      const restarted = serve(dataDir);
      const url2 = await urlOf(restarted);
      try {
        const [question, answer] = (await api(url2, `/api/workflow/agent-im/messages?conversationId=${conversationId}`, visitor)) as {
          content: string;
          status: string;
        }[];
        expect(question).toMatchObject({ content: 'Tell me everything', status: 'complete' });
        expect(answer!.status).toBe('incomplete');
        // Stored before it was shown: every character the reader saw is there (and perhaps a
        // little more, stored but not yet relayed when the process died).
        expect(streamed.length).toBeGreaterThan(0);
        expect(answer!.content.startsWith(streamed)).toBe(true);
      } finally {
        restarted.process.kill('SIGTERM');
        await restarted.exited;
      }
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    },
    120_000,
  );
});

describe("the Node server's timeouts", () => {
  it('cut a client that never finishes its headers, and never a long answer', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kraken-timeouts-'));
    // An answer three times as long as the request timeout: a word every 100 ms for 3 s.
    const slow: AgentRuntime = {
      label: 'slow',
      async *streamAnswer() {
        for (let i = 0; i < 30; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          yield `w${i} `;
        }
      },
    };
    const server = await startServer({
      dataDir,
      env: {},
      spaDir: null,
      log: () => {},
      runtime: slow,
      config: { headersTimeoutMs: 500, requestTimeoutMs: 1000 },
    });
    try {
      const socket = connect(server.port, '127.0.0.1');
      let reply = '';
      socket.on('data', (chunk) => (reply += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.write('GET /api/system/auth/login-options HTTP/1.1\r\nHost: x\r\n');
      const started = Date.now();
      await closed;
      expect(Date.now() - started).toBeLessThan(3000);
      expect(reply).toMatch(/^HTTP\/1\.1 408/);

      const visitor = crypto.randomUUID();
      const conversationId = (await api(server.url, '/api/workflow/im/conversation/create', visitor, { sourceId: AGENT })).conversationId;
      const chatStarted = Date.now();
      const events = await (
        await fetch(`${server.url}/api/workflow/sse/agent/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-visitor-id': visitor },
          body: JSON.stringify({ conversationId, agentId: AGENT, text: 'Take your time' }),
        })
      ).text();
      expect(Date.now() - chatStarted).toBeGreaterThan(2900);
      expect(events).toContain('w29 ');
      expect(events).toContain('"type":"end"');
    } finally {
      await server.close();
    }
  }, 60_000);
});
