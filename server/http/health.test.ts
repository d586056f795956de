import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileStores } from '../media/file-stores';
import { startServer } from '../start';
import { openHarness } from '../test/harness';
import { startLocalS3, type LocalS3 } from '../test/s3-server';
import { diskRoom, type ReadinessCheck } from './health';

let h: Awaited<ReturnType<typeof openHarness>>;
let dir: string;
beforeAll(async () => {
  h = await openHarness();
  dir = mkdtempSync(join(tmpdir(), 'kraken-ready-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/readyz tells the truth', () => {
  it('answers 503 with the reason while a check fails, and 200 again once it passes', async () => {
    let problem: string | null = 'the file storage does not answer (TimeoutError)';
    const t = h.makeApp({ readiness: [async () => null, async () => problem] });
    const down = await t.raw('/readyz');
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'not ready', reason: 'the file storage does not answer (TimeoutError)' });
    problem = null;
    expect((await t.raw('/readyz')).status).toBe(200);
  });

  it('counts a check that hangs, or throws, as failed', async () => {
    const hangs: ReadinessCheck = () => new Promise(() => undefined);
    const hung = await h.makeApp({ readiness: [hangs] }).raw('/readyz');
    expect(hung.status).toBe(503);
    expect(await hung.json()).toEqual({ status: 'not ready', reason: 'a readiness check did not answer in time' });
    const throws: ReadinessCheck = async () => {
      throw new Error('EIO');
    };
    expect(await (await h.makeApp({ readiness: [throws] }).raw('/readyz')).json()).toEqual({ status: 'not ready', reason: 'a readiness check failed (EIO)' });
  }, 15_000);

  it("says when the embedded database's disk is short of room", async () => {
    expect(await diskRoom(dir, 1)()).toBeNull();
    expect(await diskRoom(dir, Number.MAX_SAFE_INTEGER)()).toMatch(/^disk space low: \d+ MB free in .+, at least \d+ MB needed$/);
  });
});

describe('the file storage, at the start and in /readyz', () => {
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await startLocalS3('kraken-ready');
  });
  afterAll(() => s3.close());
  const stores = (bucket: string) =>
    openFileStores({
      s3: { ...s3.settings, bucket },
      db: h.db,
      driver: 'postgres',
      uploadsDir: join(dir, 'u'),
      downloadsDir: join(dir, 'd'),
      log: () => undefined,
    });

  it('is usable when the bucket exists, and says so when it does not', async () => {
    expect(await (await stores('kraken-ready')).check()).toBeNull();
    expect(await (await stores('no-such-bucket')).check()).toBe('the bucket "no-such-bucket" does not exist');
  });

  it('refuses to start on a bucket that does not exist, naming it', async () => {
    await expect(
      startServer({ dataDir: join(dir, 'missing-bucket'), env: { ...s3.env, S3_BUCKET: 'no-such-bucket' }, spaDir: null, log: () => undefined }),
    ).rejects.toThrow(/Object storage: the bucket "no-such-bucket" does not exist at http:\/\/127\.0\.0\.1:\d+/);
  });
});
