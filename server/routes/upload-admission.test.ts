import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultConfig, type ServerConfig } from '../config';
import { createDiskStorage } from '../media/storage';
import { openHarness, type TestApp } from '../test/harness';

const UPLOAD = '/api/media/upload';
const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

let h: Awaited<ReturnType<typeof openHarness>>;
const dirs: string[] = [];
beforeAll(async () => {
  h = await openHarness();
});
afterAll(async () => {
  await h.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * A multipart body of one file of `size` bytes, made as it is read, that records how much of it
 * the server pulled. With `gate`, it gives its first chunk and then waits for the gate to open.
 */
function uploadBody(size: number, gate?: Promise<void>) {
  const boundary = `bound${Math.random().toString(36).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + size + tail.length;
  let pulled = 0;
  let sentFile = 0;
  let headSent = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headSent) {
          headSent = true;
          pulled += head.length;
          controller.enqueue(new Uint8Array(head));
          return;
        }
        if (gate && sentFile >= CHUNK) await gate;
        if (sentFile < size) {
          const piece = Math.min(CHUNK, size - sentFile);
          sentFile += piece;
          pulled += piece;
          controller.enqueue(new Uint8Array(piece).fill(7));
          return;
        }
        pulled += tail.length;
        controller.enqueue(new Uint8Array(tail));
        controller.close();
      },
    },
    // Nothing is read ahead: what was pulled is what the server asked for.
    { highWaterMark: 0 },
  );
  return {
    init: {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) },
      body: stream,
      duplex: 'half',
    },
    pulled: () => pulled,
  };
}

async function send(t: TestApp, who: Record<string, string>, body: ReturnType<typeof uploadBody>) {
  const { headers, ...rest } = body.init;
  const response = await t.raw(UPLOAD, { ...rest, headers: { ...headers, ...who } } as RequestInit);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), msg: ((await response.json()) as { msg: string }).msg };
}

function onDisk(config: Partial<ServerConfig> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kraken-uploads-'));
  dirs.push(dir);
  return { t: h.makeApp({ config, storage: createDiskStorage(dir) }), dir };
}

describe('uploads refused before their body is read', () => {
  it('refuses a declared length over the limit, a spent day and a full store without pulling a byte', async () => {
    const { t } = onDisk({ visitorQuotas: { ...defaultConfig.visitorQuotas, uploadBytesPerDay: 3 * MB, storedBytes: 5 * MB } });
    const visitor = h.visitor();

    const tooBig = uploadBody(21 * MB);
    expect((await send(t, visitor, tooBig)).status).toBe(413);
    expect(tooBig.pulled()).toBe(0);

    expect((await send(t, visitor, uploadBody(2 * MB))).status).toBe(200);
    // 1 MB of the day is left: a body declaring 2 MB is refused unread, with when to try again.
    const overDay = uploadBody(2 * MB);
    const refused = await send(t, visitor, overDay);
    expect(refused).toMatchObject({ status: 429 });
    expect(refused.msg).toMatch(/^You have reached the limit of 3 MB of uploads a day for a visitor\./);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(overDay.pulled()).toBe(0);
    // what was refused did not count: the last megabyte still fits
    expect((await send(t, visitor, uploadBody(MB - 1024))).status).toBe(200);

    const roomy = onDisk({ visitorQuotas: { ...defaultConfig.visitorQuotas, storedBytes: 3 * MB } });
    const keeper = h.visitor();
    expect((await send(roomy.t, keeper, uploadBody(2 * MB))).status).toBe(200);
    const overStored = uploadBody(2 * MB);
    const full = await send(roomy.t, keeper, overStored);
    expect(full.status).toBe(429);
    expect(full.msg).toMatch(/^You have reached the limit of 3 MB of stored files for a visitor\./);
    expect(overStored.pulled()).toBe(0);
  });

  it('cuts a body whose file grows past the limit, whatever it declared, and keeps nothing of it', async () => {
    const { t, dir } = onDisk({ uploadLimitBytes: MB });
    const liar = uploadBody(3 * MB);
    const { headers, ...rest } = liar.init;
    // declares a small body, then sends more
    const response = await t.raw(UPLOAD, { ...rest, headers: { ...headers, 'content-length': '1000', ...h.visitor() } } as RequestInit);
    expect(response.status).toBe(413);
    expect(liar.pulled()).toBeLessThan(MB + 4 * CHUNK);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('uploads at once', () => {
  it('reads 3 of one person’s uploads at once, keeps 6 waiting unread, and refuses the rest unread', async () => {
    const { t } = onDisk({ userQuotas: { ...defaultConfig.userQuotas, uploadBytesPerDay: 1024 * MB } });
    const user = (await h.loggedIn(t)).headers;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const bodies = Array.from({ length: 12 }, () => uploadBody(2 * MB, gate));
    const replies = bodies.map((body) => send(t, user, body));
    // Three are answered at once, before the gate opens: whichever reached their turn last (on
    // PostgreSQL the quota checks before the turn finish in any order).
    const answered: number[] = [];
    replies.forEach((reply, index) => void reply.then(() => answered.push(index)));
    await vi.waitFor(() => expect(answered).toHaveLength(3));
    const refusedAt = [...answered];
    for (const index of refusedAt) {
      const reply = await replies[index]!;
      expect(reply).toMatchObject({ status: 429, retryAfter: '5' });
      expect(reply.msg).toMatch(/^You have 9 uploads under way, the most at once\. Please wait 5 seconds/);
      expect(bodies[index]!.pulled()).toBe(0);
    }
    const admitted = bodies.filter((_, index) => !refusedAt.includes(index));
    const reading = () => admitted.filter((body) => body.pulled() > 0);
    await vi.waitFor(() => expect(reading()).toHaveLength(3));
    // the others wait their turn without a byte read, however long the first three take
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reading()).toHaveLength(3);
    expect(answered).toHaveLength(3);
    open();
    for (const reply of await Promise.all(replies.filter((_, index) => !refusedAt.includes(index)))) expect(reply.status).toBe(200);
  });

  // On PostgreSQL the thirty spends of the day's quota run at once, over a pool of connections:
  // each is added only if it fits, so exactly five are let through, whatever the interleaving.
  it('keeps memory bounded when one visitor sends 30 uploads of 20 MB at once: the day’s quota refuses 25 unread', async () => {
    const { t } = onDisk();
    const visitor = h.visitor();
    const before = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.heapUsed + now.arrayBuffers - before.heapUsed - before.arrayBuffers);
    }, 20);
    const bodies = Array.from({ length: 30 }, () => uploadBody(20 * MB - 4096));
    const replies = await Promise.all(bodies.map((body) => send(t, visitor, body)));
    clearInterval(sampler);
    const stored = replies.filter((reply) => reply.status === 200);
    const refused = bodies.filter((_, index) => replies[index]!.status === 429);
    expect(stored).toHaveLength(5);
    expect(refused).toHaveLength(25);
    for (const body of refused) expect(body.pulled()).toBe(0);
    console.info(`30 uploads of 20 MB by one visitor: 5 stored, 25 refused unread; heap and buffers grew by at most ${Math.round(peak / MB)} MB`);
    expect(peak).toBeLessThan(200 * MB);
  });
});
