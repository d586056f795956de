import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiRuntime } from '../agents/openai-runtime';
import { messages } from '../db/schema';
import { createS3Storage, s3Client } from '../media/s3-storage';
import { takeOverAnswers } from '../services/answer-leases';
import { eventReader, puppetRuntime } from '../test/chat-client';
import { openHarness, type TestApp } from '../test/harness';
import { startLocalS3, type LocalS3 } from '../test/s3-server';
import { metrics, registry } from './metrics';

let h: Awaited<ReturnType<typeof openHarness>>;
let s3: LocalS3;
beforeAll(async () => {
  h = await openHarness();
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3.close();
  await h.close();
});
beforeEach(() => registry.resetMetrics());

const AGENT = 'SpecialNoAgentFallback';

/** The value of one series in the text a scraper reads, or undefined when it is not there. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const scrape = async (t: TestApp, headers: Record<string, string> = {}) => {
  const response = await t.raw('/metrics', { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

async function ask(t: TestApp, visitor: Record<string, string>) {
  const conversationId = (await t.post('/api/workflow/im/conversation/create', { sourceId: AGENT }, visitor)).body.data.conversationId as string;
  const response = await t.raw('/api/workflow/sse/agent/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...visitor },
    body: JSON.stringify({ conversationId, agentId: AGENT, text: 'hello' }),
  });
  expect(response.status).toBe(200);
  return { conversationId, response };
}

describe('GET /metrics', () => {
  it('answers a loopback client with every series, counting one streamed answer once', async () => {
    const t = h.makeApp({ address: '127.0.0.1' });
    const { response } = await ask(t, h.visitor());
    await response.text();

    const { status, type, text } = await scrape(t);
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(valueOf(text, 'kraken_answers_total{outcome="complete"}')).toBe(1);
    expect(valueOf(text, 'kraken_answers_total{outcome="failed"}')).toBeUndefined();
    expect(valueOf(text, 'kraken_answer_duration_seconds_count')).toBe(1);
    expect(valueOf(text, 'kraken_answer_first_event_seconds_count')).toBe(1);
    expect(valueOf(text, 'kraken_streams_open')).toBe(0);
    for (const name of [
      'kraken_streams_open',
      'kraken_answers_total',
      'kraken_answers_taken_over_total',
      'kraken_answer_first_event_seconds',
      'kraken_answer_duration_seconds',
      'kraken_model_errors_total',
      'kraken_model_response_seconds',
      'kraken_db_pool_waiting',
      'kraken_db_pool_acquire_seconds',
      'kraken_answer_notification_reconnects_total',
      'kraken_bucket_errors_total',
      'kraken_upload_bytes_total',
      'kraken_process_cpu_seconds_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    // No id of a person, conversation or message in any label.
    expect(text).not.toMatch(/\{[^}]*(user|conversation|visitor|message)[^}]*\}/i);
  });

  it('counts the streams open, an answer stopped, and one taken over from an instance that is gone', async () => {
    const puppet = puppetRuntime();
    const t = h.makeApp({ address: '::1', runtime: puppet.runtime });
    const visitor = h.visitor();
    const { conversationId, response } = await ask(t, visitor);
    const events = eventReader(response);
    puppet.say('Hel');
    await events.untilText('Hel');
    const start = events.events.find((event) => event.type === 'start');
    if (start?.type !== 'start') throw new Error('no start event');
    expect(valueOf((await scrape(t)).text, 'kraken_streams_open')).toBe(1);
    expect((await t.post('/api/workflow/sse/agent/chat/stop', { conversationId, messageId: start.replyMessageId }, visitor)).status).toBe(200);
    await events.rest();
    const after = (await scrape(t)).text;
    expect(valueOf(after, 'kraken_answers_total{outcome="stopped"}')).toBe(1);
    expect(valueOf(after, 'kraken_answers_total{outcome="incomplete"}')).toBeUndefined();
    expect(valueOf(after, 'kraken_streams_open')).toBe(0);

    // An answer left streaming by another instance, stored incomplete by this one.
    await h.db.update(messages).set({ status: 'streaming', leaseOwner: 'gone-instance', leaseExpiresAt: new Date(0) }).where(eq(messages.id, start.replyMessageId));
    expect(await takeOverAnswers(h.db, 'this-instance')).toContain(start.replyMessageId);
    expect(valueOf((await scrape(t)).text, 'kraken_answers_taken_over_total')).toBe(1);
  });

  it("counts a model service's failures and answers by its host, and the answer failed", async () => {
    const model: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'overloaded' } }));
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    try {
      const port = (model.address() as AddressInfo).port;
      const t = h.makeApp({ address: '127.0.0.1', runtime: createOpenAiRuntime({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }) });
      await (await ask(t, h.visitor())).response.text();
      const { text } = await scrape(t);
      expect(valueOf(text, `kraken_model_errors_total{provider="127.0.0.1:${port}"}`)).toBe(1);
      expect(valueOf(text, `kraken_model_response_seconds_count{provider="127.0.0.1:${port}"}`)).toBe(1);
      expect(valueOf(text, 'kraken_answers_total{outcome="failed"}')).toBe(1);
    } finally {
      await new Promise((resolve) => model.close(resolve));
    }
  });

  it('counts the bytes of uploads stored', async () => {
    const t = h.makeApp({ address: '127.0.0.1' });
    const form = new FormData();
    form.set('file', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2])], 'x.png'));
    expect((await t.raw('/api/media/upload', { method: 'POST', headers: h.visitor(), body: form })).status).toBe(200);
    expect(valueOf((await scrape(t)).text, 'kraken_upload_bytes_total')).toBe(10);
  });

  it("counts the bucket's failures, but not a missing object", async () => {
    const t = h.makeApp({ address: '127.0.0.1' });
    const storage = createS3Storage(s3Client(s3.settings), s3.settings.bucket, 'uploads/');
    expect(await storage.stat('missing-file')).toBeNull();
    expect(valueOf((await scrape(t)).text, 'kraken_bucket_errors_total')).toBe(0);
    const noBucket = createS3Storage(s3Client(s3.settings), 'no-such-bucket', 'uploads/');
    await expect(noBucket.put('a-file', new Uint8Array([1]), 'application/octet-stream')).rejects.toThrow();
    expect(valueOf((await scrape(t)).text, 'kraken_bucket_errors_total')).toBe(1);
  });

  it("reports a PostgreSQL pool's waiting queries and times each connection it hands out", async () => {
    const t = h.makeApp({ address: '127.0.0.1' });
    const pool = {
      waitingCount: 3,
      connect: (callback?: (error: Error | undefined, client?: unknown) => void) => (callback ? void setTimeout(() => callback(undefined, {}), 5) : Promise.resolve({})),
    };
    const unwatch = metrics.watchPool(pool);
    await new Promise<void>((resolve) => pool.connect(() => resolve()));
    await pool.connect();
    const text = (await scrape(t)).text;
    expect(valueOf(text, 'kraken_db_pool_waiting')).toBe(3);
    expect(valueOf(text, 'kraken_db_pool_acquire_seconds_count')).toBe(2);
    unwatch();
    expect(valueOf((await scrape(t)).text, 'kraken_db_pool_waiting')).toBe(0);
  });
});

describe('who may read /metrics', () => {
  it('without METRICS_TOKEN, is not there for a client elsewhere, with or without a token', async () => {
    const t = h.makeApp({ address: '203.0.113.9' });
    expect((await scrape(t)).status).toBe(404);
    expect((await scrape(t, { authorization: 'Bearer anything' })).status).toBe(404);
  });

  it('with METRICS_TOKEN, answers a client elsewhere that sends it, and refuses a missing or wrong one', async () => {
    const t = h.makeApp({ address: '203.0.113.9', config: { metricsToken: 'scrape-me-7Q' } });
    const missing = await scrape(t);
    expect(missing.status).toBe(401);
    expect(missing.text).not.toContain('kraken_');
    expect((await scrape(t, { authorization: 'Bearer scrape-me-7' })).status).toBe(401);
    expect((await scrape(t, { authorization: 'Bearer scrape-me-7Q-and-more' })).status).toBe(401);
    expect((await scrape(t, { authorization: 'Basic scrape-me-7Q' })).status).toBe(401);
    const allowed = await scrape(t, { authorization: 'Bearer scrape-me-7Q' });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('# TYPE kraken_answers_total counter');
  });

  it('judges a request through a trusted proxy by the client the proxy names', async () => {
    const t = h.makeApp({ address: '127.0.0.1', config: { trustProxy: 1 } });
    expect((await scrape(t, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(404);
    expect((await scrape(t, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
    // Not behind a proxy, the header is the client's own word and is not believed.
    const direct = h.makeApp({ address: '203.0.113.9' });
    expect((await scrape(direct, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(404);
  });

  it('is neither under /api nor in the request log', async () => {
    const t = h.makeApp({ address: '127.0.0.1' });
    expect((await scrape(t)).status).toBe(200);
    expect((await t.raw('/api/metrics')).status).toBe(404);
    expect(t.logs.filter((line) => line.includes('/metrics') && !line.includes('/api/metrics'))).toEqual([]);
  });
});
