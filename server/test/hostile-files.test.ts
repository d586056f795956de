import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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
    const send = async (bytes: Uint8Array, name: string) => {
      const form = new FormData();
      form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
      return ((await (await t.raw('/api/media/upload', { method: 'POST', body: form, headers: visitor })).json()) as { data: { fileId: string } }).data;
    };
    const ask = async (conversationId: string, files: unknown[], language = 'en-US') =>
      t.raw('/api/workflow/sse/agent/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': language, ...visitor },
        body: JSON.stringify({ conversationId, agentId: DEFAULT_AGENT_ID, text: 'Lis ceci', files }),
      });
    const created = await t.post('/api/workflow/im/conversation/create', { sourceId: DEFAULT_AGENT_ID }, visitor);
    // An ordinary question first: what the first one loads and compiles is not the bomb's doing.
    await (await ask(created.body.data.conversationId, [await send(new TextEncoder().encode('warm'), 'warm.txt')])).text();
    const uploaded = { data: await send(bomb, 'bomb.pdf') };

    // Garbage left by earlier tests is collected first: a full collection of this process's heap
    // (the embedded database's included) is not the reading's doing.
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
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
    const reply = await ask(created.body.data.conversationId, [uploaded.data], 'fr-FR');
    const stream = await reply.text();
    delay.disable();
    asking = false;
    await probe;

    expect(reply.status).toBe(200);
    expect(stream).toContain('*bomb.pdf* n’a pas pu être lu.');
    expect(stream).toContain('"type":"end"');
    expect(t.logs.some((line) => line.includes(`no text read from upload ${uploaded.data.fileId}: too_long_to_read`))).toBe(true);
    console.info(
      `hostile PDF of ${bomb.byteLength} bytes: event loop delay max ${(delay.max / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms; ` +
        `${healthTimes.length} health checks meanwhile, slowest ${Math.max(...healthTimes).toFixed(1)} ms`,
    );
    expect(healthTimes.length).toBeGreaterThan(10);
    expect(Math.max(...healthTimes)).toBeLessThan(100);
    // Under 100 ms, but for the rare stall of a few samples when other processes hold both cores
    // of a shared machine (up to 142 ms seen at load 7-11); read on the event loop, the file stalls
    // it 300-360 ms at a time.
    expect(delay.percentile(99) / 1e6).toBeLessThan(100);
    expect(delay.max / 1e6).toBeLessThan(200);
  });

  it('when every reader is taken, says so for that question only and reads the file at the next', async () => {
    const t = h.makeApp({ config: { attachments: { ...defaultConfig.attachments, readTimeoutMs: 2000, readersAtOnce: 1, readQueueMax: 0 } } });
    const visitor = h.visitor();
    const send = async (bytes: Uint8Array, name: string) => {
      const form = new FormData();
      form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
      return ((await (await t.raw('/api/media/upload', { method: 'POST', body: form, headers: visitor })).json()) as { data: { fileId: string } }).data;
    };
    const ask = async (files: unknown[], conversationId?: string) => {
      const id = conversationId ?? ((await t.post('/api/workflow/im/conversation/create', { sourceId: DEFAULT_AGENT_ID }, visitor)).body.data.conversationId as string);
      const reply = await t.raw('/api/workflow/sse/agent/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...visitor },
        body: JSON.stringify({ conversationId: id, agentId: DEFAULT_AGENT_ID, text: 'Read', files }),
      });
      return { id, stream: await reply.text() };
    };
    const bomb = await send(textBombPdf(3_000_000), 'bomb.pdf');
    const notes = await send(new TextEncoder().encode('hello file'), 'notes.txt');
    const slow = ask([bomb]);
    // the one reader is busy with the bomb: the notes are not read this time
    await new Promise((resolve) => setTimeout(resolve, 300));
    const turnedAway = await ask([notes]);
    expect(turnedAway.stream).toContain('*notes.txt* could not be read.');
    expect(t.logs.some((line) => line.includes(`no text read from upload ${notes.fileId}: busy`))).toBe(true);
    await slow;
    // nothing was kept of that failure: the next question reads the file
    const next = await ask([notes]);
    expect(next.stream).toContain('I read 10 characters of *notes.txt*.');
  });
});
