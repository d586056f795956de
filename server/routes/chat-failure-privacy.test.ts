import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureReference } from '../../src/contract/agent-failure';
import { createOpenAiRuntime } from '../agents/openai-runtime';
import { defaultConfig } from '../config';
import { messages } from '../db/schema';
import { openHarness } from '../test/harness';

/**
 * A model service that fails the way real gateways do: its error quotes part of the key and an
 * internal address. None of that may reach the person chatting; all of it must reach the log.
 */
const SECRET = 'sk-live-7f3a9QzX1bSECRETKEYFRAGMENT';
const GATEWAY = 'gw-internal.corp.example:8443';

let h: Awaited<ReturnType<typeof openHarness>>;
let model: Server;
let baseUrl: string;

beforeAll(async () => {
  h = await openHarness();
  model = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${SECRET}. Upstream ${GATEWAY} refused.` } }));
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => model.close(() => resolve()));
  await h.close();
});

describe("the model service's errors", () => {
  it('reach the log under a reference, and the person only as a generic sentence with that reference', async () => {
    const llm = { baseUrl, apiKey: SECRET, model: 'test-model' };
    const t = h.makeApp({ config: { ...defaultConfig, llm }, runtime: createOpenAiRuntime(llm) });
    const visitor = h.visitor();
    const conversationId = (await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' }, visitor)).body.data.conversationId;
    const stream = await t.raw('/api/workflow/sse/agent/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...visitor },
      body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'Hello?' }),
    });
    const events = await stream.text();
    const history = JSON.stringify((await t.get('/api/workflow/agent-im/messages', { conversationId }, visitor)).body);

    const ref = failureReference(events);
    expect(ref).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(events).toContain('The agent could not answer this time. Please try again.');
    expect(history).toContain(`(ref ${ref})`);
    for (const leak of [SECRET, 'SECRETKEY', GATEWAY, baseUrl, '127.0.0.1', 'Incorrect API key', 'HTTP 401']) {
      expect(events, leak).not.toContain(leak);
      expect(history, leak).not.toContain(leak);
    }
    const logged = t.logs.filter((line) => line.includes(`ref ${ref}`));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(SECRET);
    expect(logged[0]).toContain(GATEWAY);
  });

  it('stored in a failed answer before this change are not answered any more', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = (await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' }, visitor)).body.data.conversationId;
    await (
      await t.raw('/api/workflow/sse/agent/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...visitor },
        body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'Hello?' }),
      })
    ).text();
    const [, reply] = (await t.get('/api/workflow/agent-im/messages', { conversationId }, visitor)).body.data as { messageId: string }[];
    // What an older server stored: the model service's own words.
    const legacy = `The model service at ${baseUrl} answered HTTP 401: Incorrect API key provided: ${SECRET}.`;
    await h.db.update(messages).set({ status: 'failed', error: legacy }).where(eq(messages.id, reply!.messageId));
    const history = (await t.get('/api/workflow/agent-im/messages', { conversationId }, visitor)).body.data as { error?: string }[];
    expect(history[1]!.error).toBe('The agent could not answer this time. Please try again.');
    expect(JSON.stringify(history)).not.toContain(SECRET);
  });
});
