import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID } from '../../src/contract/constants';
import { defaultConfig } from '../config';
import { HEALTH_PATH } from '../http/health';
import { openHarness } from './harness';
import { textBombPdf } from './hostile-pdf';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h.close();
});

describe('a file built to stall the server', () => {
  it('fails only its own attachment, in the asker’s language, while the server keeps answering at once', async () => {
    const t = h.makeApp({ config: { attachments: { ...defaultConfig.attachments, readTimeoutMs: 2000 } } });
    const visitor = h.visitor();
    const bomb = textBombPdf(3_000_000);
    const form = new FormData();
    form.set('file', new File([bomb as Uint8Array<ArrayBuffer>], 'bomb.pdf'));
    const uploaded = (await (await t.raw('/api/media/upload', { method: 'POST', body: form, headers: visitor })).json()) as { data: { fileId: string } };
    const created = await t.post('/api/workflow/im/conversation/create', { sourceId: DEFAULT_AGENT_ID }, visitor);

    const delay = monitorEventLoopDelay({ resolution: 10 });
    const healthTimes: number[] = [];
    let asking = true;
    const probe = (async () => {
      while (asking) {
        const sent = performance.now();
        const health = await t.raw(HEALTH_PATH);
        expect(health.status).toBe(200);
        healthTimes.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    delay.enable();
    const reply = await t.raw('/api/workflow/sse/agent/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'fr-FR', ...visitor },
      body: JSON.stringify({ conversationId: created.body.data.conversationId, agentId: DEFAULT_AGENT_ID, text: 'Lis ceci', files: [uploaded.data] }),
    });
    const stream = await reply.text();
    delay.disable();
    asking = false;
    await probe;

    expect(reply.status).toBe(200);
    expect(stream).toContain('*bomb.pdf* n’a pas pu être lu.');
    expect(stream).toContain('"type":"end"');
    expect(t.logs.some((line) => line.includes(`no text read from upload ${uploaded.data.fileId}: too_long_to_read`))).toBe(true);
    console.info(
      `hostile PDF of ${bomb.byteLength} bytes: event loop max delay ${(delay.max / 1e6).toFixed(1)} ms; ` +
        `${healthTimes.length} health checks meanwhile, slowest ${Math.max(...healthTimes).toFixed(1)} ms`,
    );
    expect(healthTimes.length).toBeGreaterThan(10);
    expect(Math.max(...healthTimes)).toBeLessThan(100);
    expect(delay.max / 1e6).toBeLessThan(100);
  });
});
