import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from './db/client';
import { companies } from './db/schema';
import { startServer } from './start';

const dataDir = mkdtempSync(join(tmpdir(), 'kraken-data-'));
/** The embedded database on disk, whatever DATABASE_URL says: this file is about DATA_DIR. */
const env = {};

async function json(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

describe('on-disk PGlite', () => {
  it('keeps what was written after close and reopen', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'pglite-')), 'db');
    const first = await openDb({ pgliteDir: dir });
    await first.migrate();
    await first.db.insert(companies).values({ id: 'acme', name: 'Acme' });
    await first.close();
    const second = await openDb({ pgliteDir: dir });
    await second.migrate();
    expect(await second.db.select().from(companies)).toEqual([{ id: 'acme', name: 'Acme' }]);
    await second.close();
  });
});

describe('startServer', () => {
  let fake: Server;
  let fakeUrl: string;
  beforeAll(async () => {
    fake = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          ['From ', 'the model'].map((c) => `data: ${JSON.stringify({ choices: [{ delta: { content: c } }] })}\n\n`).join('') +
            'data: [DONE]\n\n',
        );
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  it('generates a demo account on the first run, keeps everything across a restart, and prints the same account again', async () => {
    const first = await startServer({ dataDir, env, spaDir: null, log: () => {} });
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.demo).toMatchObject({ username: 'demo@kraken.local', source: 'generated' });
    const file = join(dataDir, 'demo-account.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ username: first.demo.username, password: first.demo.password });

    const login = await json(`${first.url}/api/system/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ username: first.demo.username, password: first.demo.password }),
    });
    expect(login.status).toBe(200);
    const auth = { authorization: `Bearer ${login.body.data.token}` };
    const created = await json(`${first.url}/api/workflow/im/conversation/create`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ sourceId: 'SpecialNoAgentFallback', title: 'Survives restarts' }),
    });
    await first.close();

    const second = await startServer({ dataDir, env, spaDir: null, log: () => {} });
    try {
      expect(second.demo).toEqual({ ...first.demo, source: 'stored' });
      const list = await json(`${second.url}/api/workflow/agent-im/conversation`, { method: 'POST', headers: auth, body: '{}' });
      expect(list.body.data.list).toEqual([created.body.data]);
      const market = await json(`${second.url}/api/workflow/agent/published-list`, { method: 'POST', body: '{}' });
      expect(market.body.data.total).toBeGreaterThanOrEqual(9);
    } finally {
      await second.close();
    }
  });

  it('uses DEMO_USERNAME and DEMO_PASSWORD when given', async () => {
    const server = await startServer({
      dataDir: mkdtempSync(join(tmpdir(), 'kraken-env-')),
      env: { DEMO_USERNAME: 'owner@example.com', DEMO_PASSWORD: 'correct horse battery' },
      spaDir: null,
      log: () => {},
    });
    try {
      expect(server.demo).toEqual({ username: 'owner@example.com', password: 'correct horse battery', source: 'env' });
      const login = await json(`${server.url}/api/system/auth/login`, {
        method: 'POST',
        body: JSON.stringify({ username: 'owner@example.com', password: 'correct horse battery' }),
      });
      expect(login.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('streams answers over real HTTP from an OpenAI-compatible endpoint', async () => {
    const server = await startServer({
      dataDir: mkdtempSync(join(tmpdir(), 'kraken-llm-')),
      env: { LLM_BASE_URL: fakeUrl, LLM_MODEL: 'fake' },
      spaDir: null,
      log: () => {},
    });
    try {
      expect(server.runtimeLabel).toContain('fake');
      const visitor = { 'x-visitor-id': crypto.randomUUID() };
      const conversation = await json(`${server.url}/api/workflow/im/conversation/create`, {
        method: 'POST',
        headers: visitor,
        body: JSON.stringify({ sourceId: 'SpecialNoAgentFallback' }),
      });
      const conversationId = conversation.body.data.conversationId;
      const response = await fetch(`${server.url}/api/workflow/sse/agent/chat`, {
        method: 'POST',
        headers: { ...visitor, 'content-type': 'application/json' },
        body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'hello' }),
      });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const text = await response.text();
      expect(text).toContain('"type":"end"');
      const messages = await json(`${server.url}/api/workflow/agent-im/messages?conversationId=${conversationId}`, { headers: visitor });
      expect(messages.body.data[1]).toMatchObject({ content: 'From the model', status: 'complete' });
    } finally {
      await server.close();
    }
  });

  it('goes on writing the answer when the browser aborts the request, and stores it complete', async () => {
    const server = await startServer({
      dataDir: mkdtempSync(join(tmpdir(), 'kraken-abort-')),
      env: {},
      config: { offlineTokenDelayMs: 2 },
      spaDir: null,
      log: () => {},
    });
    try {
      const visitor = { 'x-visitor-id': crypto.randomUUID() };
      const conversation = await json(`${server.url}/api/workflow/im/conversation/create`, {
        method: 'POST',
        headers: visitor,
        body: JSON.stringify({ sourceId: 'SpecialNoAgentFallback' }),
      });
      const conversationId = conversation.body.data.conversationId;
      const controller = new AbortController();
      const response = await fetch(`${server.url}/api/workflow/sse/agent/chat`, {
        method: 'POST',
        headers: { ...visitor, 'content-type': 'application/json' },
        body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'a long answer please' }),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      let received = '';
      while ((received.match(/"delta"/g) ?? []).length < 3) received += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      let reply: { status: string; content: string } | undefined;
      for (let i = 0; i < 1000 && reply?.status !== 'complete'; i++) {
        await new Promise((r) => setTimeout(r, 20));
        const messages = await json(`${server.url}/api/workflow/agent-im/messages?conversationId=${conversationId}`, { headers: visitor });
        reply = messages.body.data[1];
        expect(['streaming', 'complete']).toContain(reply?.status);
      }
      expect(reply?.status).toBe('complete');
      expect(reply!.content).toContain('Offline');
      expect(reply!.content).toContain('LLM_BASE_URL');
    } finally {
      await server.close();
    }
  });
});
