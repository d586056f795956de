import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, S3_SETTINGS } from '../config';
import { storedFileChunks } from '../db/schema';
import { startServer } from '../start';
import { openHarness } from '../test/harness';
import { CHUNK_BYTES, createDatabaseStorage } from './database-storage';
import { openFileStores } from './file-stores';

const S3_ENV = {
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_BUCKET: 'kraken',
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: 'id',
  S3_SECRET_ACCESS_KEY: 'secret',
};

let h: Awaited<ReturnType<typeof openHarness>>;
let dir: string;
beforeAll(async () => {
  h = await openHarness();
  dir = mkdtempSync(join(tmpdir(), 'kraken-stores-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the object storage settings', () => {
  it('are all five or none: a server with only some of them refuses to start and names what is missing', async () => {
    expect(configFromEnv({}).s3).toBeNull();
    expect(configFromEnv(S3_ENV).s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'kraken',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(configFromEnv({ ...S3_ENV, S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle).toBe(false);
    for (const name of S3_SETTINGS) {
      const env = { ...S3_ENV, [name]: ' ' };
      expect(() => configFromEnv(env)).toThrow(`missing: ${name}`);
    }
    expect(() => configFromEnv({ S3_BUCKET: 'kraken' })).toThrow('missing: S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY');
    expect(() => configFromEnv({ ...S3_ENV, S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT must be an http\(s\) address/);
    await expect(startServer({ dataDir: join(dir, 'half'), env: { S3_BUCKET: 'kraken' }, spaDir: null })).rejects.toThrow(
      /Object storage needs all of S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/,
    );
  });
});

describe('where files are kept', () => {
  const options = { db: {} as never, uploadsDir: join(tmpdir(), 'u'), downloadsDir: join(tmpdir(), 'd'), log: () => undefined };

  it('is the bucket when one is set, else PostgreSQL, else the disk of the one embedded database', async () => {
    const s3 = configFromEnv(S3_ENV).s3;
    expect((await openFileStores({ ...options, s3, driver: 'postgres' })).kind).toBe('s3');
    expect((await openFileStores({ ...options, s3, driver: 'pglite' })).kind).toBe('s3');
    expect((await openFileStores({ ...options, s3: null, driver: 'postgres' })).kind).toBe('database');
    expect((await openFileStores({ ...options, s3: null, driver: 'pglite' })).kind).toBe('disk');
    // the start-up summary names the bucket, never the keys
    expect((await openFileStores({ ...options, s3, driver: 'postgres' })).label).not.toContain('secret');
  });
});

describe('the database store', () => {
  it('keeps a large file in 1 MiB rows and reads them one at a time, failing a read cut short by a delete', async () => {
    const storage = createDatabaseStorage(h.db, 'test/');
    const bytes = new Uint8Array(CHUNK_BYTES * 2 + 5).map((_, i) => i % 256);
    await storage.put('large', bytes, 'application/pdf');
    const rows = await h.db.select({ seq: storedFileChunks.seq }).from(storedFileChunks).where(eq(storedFileChunks.key, 'test/large'));
    expect(rows.map((row) => row.seq).sort()).toEqual([0, 1, 2]);
    expect(await storage.stat('large')).toEqual({ size: bytes.length, contentType: 'application/pdf' });
    expect(Buffer.from((await storage.get('large'))!).equals(bytes)).toBe(true);

    const opened = (await storage.open('large'))!;
    const reader = opened.body.getReader();
    expect((await reader.read()).value?.byteLength).toBe(CHUNK_BYTES);
    await storage.delete('large');
    await expect(reader.read()).rejects.toThrow(/went away while it was being read/);
    expect(await storage.open('large')).toBeNull();
    expect(await h.db.select().from(storedFileChunks).where(eq(storedFileChunks.key, 'test/large'))).toEqual([]);
  });
});
