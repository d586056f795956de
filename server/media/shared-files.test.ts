import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { like } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { downloadManifestSchema } from '../../src/contract/app';
import { defaultConfig, type ServerConfig } from '../config';
import { storedFiles } from '../db/schema';
import { exportConnector } from '../publishing/connector';
import { createLinkedInConnector } from '../publishing/linkedin';
import { startFakeLinkedIn } from '../publishing/linkedin-fake';
import { createScheduler } from '../publishing/scheduler';
import { sameForEveryCompany } from '../publishing/directory';
import { openHarness, testClock, type TestApp, type TestClock } from '../test/harness';
import { startLocalS3, type LocalS3 } from '../test/s3-server';
import { s3Client } from './s3-storage';
import { openFileStores, type FileStores } from './file-stores';
import { putDownloads } from './put-downloads';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const PNG = new Uint8Array(PNG_HEAD);
/** Larger than one database chunk (1 MiB), so it is stored in several and read back in order. */
const BIG_PNG = (() => {
  const bytes = new Uint8Array(2.5 * 1024 * 1024);
  bytes.set(PNG_HEAD);
  for (let i = PNG_HEAD.length; i < bytes.length; i += 1) bytes[i] = i % 251;
  return bytes;
})();

let h: Awaited<ReturnType<typeof openHarness>>;
let s3: LocalS3;
let linkedin: Awaited<ReturnType<typeof startFakeLinkedIn>>;
const dirs: string[] = [];
beforeAll(async () => {
  h = await openHarness();
  s3 = await startLocalS3();
  linkedin = await startFakeLinkedIn({ token: 'token', version: '202505' });
});
afterAll(async () => {
  await linkedin.close();
  await s3.close();
  await h.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => linkedin.reset());

type Kind = 's3' | 'database';
type Instance = { app: TestApp; files: FileStores; dataDir: string };

/** One server instance: its own data directory and store client; the database and the files are shared. */
async function instance(kind: Kind, options: { config?: Partial<ServerConfig>; clock?: TestClock } = {}): Promise<Instance> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kraken-instance-'));
  dirs.push(dataDir);
  const files = await openFileStores({
    s3: kind === 's3' ? s3.settings : null,
    db: h.db,
    driver: 'postgres',
    uploadsDir: join(dataDir, 'uploads'),
    downloadsDir: join(dataDir, 'downloads'),
    log: () => undefined,
  });
  expect(files.kind).toBe(kind);
  return { app: h.makeApp({ ...options, storage: files.uploads, downloads: files.downloads }), files, dataDir };
}

/** Every key the shared store holds, whatever wrote it. */
async function storedKeys(kind: Kind): Promise<string[]> {
  if (kind === 'database') return (await h.db.select({ key: storedFiles.key }).from(storedFiles).where(like(storedFiles.key, '%'))).map((row) => row.key);
  const listed = await s3Client(s3.settings).send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }));
  return (listed.Contents ?? []).map((object) => object.Key!);
}

async function upload(t: TestApp, headers: Record<string, string>, bytes: Uint8Array, name = 'chart.png') {
  const form = new FormData();
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name, { type: 'application/octet-stream' }));
  const response = await t.raw('/api/media/upload', { method: 'POST', body: form, headers });
  return { status: response.status, body: (await response.json()) as { data: { fileId: string; url: string; name: string } } };
}

describe.each(['s3', 'database'] as const)('files kept in %s, shared by two instances', (kind) => {
  it('serves through one instance what was uploaded through the other, with its type and length', async () => {
    const a = await instance(kind);
    const b = await instance(kind);
    const { headers } = await h.operator(a.app);
    const uploaded = await upload(a.app, headers, BIG_PNG);
    expect(uploaded.status).toBe(200);

    const file = await b.app.raw(uploaded.body.data.url, { headers });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-length')).toBe(String(BIG_PNG.byteLength));
    // compared as buffers: an element-by-element diff of megabytes takes longer than the test may
    expect(Buffer.from(await file.arrayBuffer()).equals(BIG_PNG)).toBe(true);
    // nothing on either machine's disk: the bytes are only in the shared store
    for (const { dataDir } of [a, b]) expect(readdirSync(dataDir)).toEqual([]);
  });

  it('publishes a task image uploaded through one instance from a scheduler on the other', async () => {
    const clock = testClock();
    const a = await instance(kind, { clock });
    const b = await instance(kind, { clock });
    const { headers } = await h.operator(a.app);
    const image = await upload(a.app, headers, PNG);
    const created = await a.app.post('/api/kraken/task/create', { platform: 'linkedin', title: 'Launch', body: 'Shipped.', images: [{ fileId: image.body.data.fileId }] }, headers);
    const id = created.body.data.id as string;
    await a.app.post('/api/kraken/task/transition', { id, action: 'markReady' }, headers);
    await a.app.post('/api/kraken/task/transition', { id, action: 'schedule', scheduledAt: new Date(clock.now().getTime() + 1000).toISOString() }, headers);
    clock.advance(1000);

    const scheduler = createScheduler({
      db: h.db,
      clock,
      storage: b.files.uploads,
      log: () => undefined,
      connectors: sameForEveryCompany({
        xiaohongshu: exportConnector('xiaohongshu'),
        linkedin: createLinkedInConnector({ apiBase: linkedin.url, accessToken: 'token', authorUrn: 'urn:li:person:a', version: '202505' }),
      }),
    });
    expect(await scheduler.runDue()).toBe(1);
    const task = (await b.app.get('/api/kraken/task/detail', { id }, headers)).body.data;
    expect(task).toMatchObject({ status: 'published' });
    expect(new Uint8Array(linkedin.requests.find((r) => r.method === 'PUT')!.body)).toEqual(PNG);
  });

  it('lists and serves a desktop installer stored once through every instance', async () => {
    const a = await instance(kind);
    const b = await instance(kind);
    const manifest = v.parse(downloadManifestSchema, (await b.app.get('/api/app/download-manifest')).body.data);
    const fileName = manifest.platforms[0]!.files[0]!.fileName;
    const bytes = Buffer.alloc(1024 * 1024 + 17, 7);
    await a.files.downloads.put(fileName, { stream: Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), size: bytes.length }, 'application/octet-stream');

    const listed = v.parse(downloadManifestSchema, (await b.app.get('/api/app/download-manifest')).body.data).platforms[0]!.files[0]!;
    expect(listed).toMatchObject({ available: true, size: bytes.length });
    const head = await b.app.raw(`/downloads/${fileName}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    const download = await b.app.raw(`/downloads/${fileName}`);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"`);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    await a.files.downloads.delete(fileName);
    expect((await b.app.raw(`/downloads/${fileName}`)).status).toBe(404);
  });

  it('keeps no bytes of an upload it refused', async () => {
    const a = await instance(kind, { config: { userQuotas: { ...defaultConfig.userQuotas, uploadBytesPerDay: 1024 * 1024, storedBytes: 4 } } });
    const { headers } = await h.operator(a.app);
    const before = await storedKeys(kind);
    expect((await upload(a.app, headers, PNG)).status).toBe(429);
    expect(await storedKeys(kind)).toEqual(before);
  });

  it('lets nobody attach, publish or wear another person\'s upload, whichever instance they ask', async () => {
    const a = await instance(kind);
    const b = await instance(kind);
    const owner = await h.operator(a.app);
    const other = await h.operator(b.app);
    const image = (await upload(a.app, owner.headers, PNG)).body.data;
    const task = await b.app.post('/api/kraken/task/create', { platform: 'linkedin', title: 'Mine', body: 'Not mine.', images: [{ fileId: image.fileId }] }, other.headers);
    expect(task.status).toBe(404);
    const avatar = await b.app.post('/api/system/user/update', { avatar: image.url }, other.headers);
    expect(avatar.status).toBe(400);
  });

  it('names stored bytes by the upload id, never by the name sent, and refuses path-like keys', async () => {
    const a = await instance(kind);
    const { headers } = await h.operator(a.app);
    const uploaded = (await upload(a.app, headers, PNG, '../../downloads/kraken.exe')).body.data;
    expect(uploaded.name).toBe('kraken.exe');
    const keys = await storedKeys(kind);
    expect(keys).toContain(`uploads/${uploaded.fileId}`);
    expect(keys.filter((key) => key.includes('..') || key.includes('kraken.exe'))).toEqual([]);
    for (const key of ['../escape', 'a/b', '..', '.hidden', '', 'x'.repeat(300)]) {
      await expect(a.files.uploads.put(key, PNG, 'image/png')).rejects.toThrow(/unsafe storage key/);
      await expect(a.files.downloads.open(key)).rejects.toThrow(/unsafe storage key/);
    }
    // the downloads route cannot reach into the uploads area
    for (const path of [`/downloads/..%2Fuploads%2F${uploaded.fileId}`, `/downloads/%2e%2e%2fuploads%2f${uploaded.fileId}`]) {
      expect((await a.app.raw(path)).status).toBe(404);
    }
  });
});

describe('files kept on one machine before the store was shared', () => {
  it('are copied into the shared store when first read, so every instance serves them from then on', async () => {
    const a = await instance('database');
    const b = await instance('database');
    const manifest = v.parse(downloadManifestSchema, (await a.app.get('/api/app/download-manifest')).body.data);
    const fileName = manifest.platforms[1]!.files[0]!.fileName;
    mkdirSync(join(a.dataDir, 'downloads'), { recursive: true });
    writeFileSync(join(a.dataDir, 'downloads', fileName), 'installer on one machine');
    expect((await b.app.raw(`/downloads/${fileName}`)).status).toBe(404);
    expect(await (await a.app.raw(`/downloads/${fileName}`)).text()).toBe('installer on one machine');
    expect(await (await b.app.raw(`/downloads/${fileName}`)).text()).toBe('installer on one machine');
  });
});

describe('the downloads command', () => {
  it('stores an installer in the bucket for every instance, and refuses a name that could not be served', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kraken-release-'));
    dirs.push(dataDir);
    const env = { ...s3.env, DATA_DIR: dataDir };
    const manifest = v.parse(downloadManifestSchema, (await (await instance('s3')).app.get('/api/app/download-manifest')).body.data);
    const fileName = manifest.platforms[2]!.files[0]!.fileName;
    writeFileSync(join(dataDir, fileName), 'linux installer');
    expect(await putDownloads(env, [join(dataDir, fileName)])).toEqual([`${fileName} → S3-compatible bucket ${s3.settings.bucket} at ${s3.settings.endpoint}`]);
    expect(await (await (await instance('s3')).app.raw(`/downloads/${fileName}`)).text()).toBe('linux installer');

    writeFileSync(join(dataDir, 'my installer.exe'), 'x');
    await expect(putDownloads(env, [join(dataDir, 'my installer.exe')])).rejects.toThrow(/an installer's name is letters, digits/);
    await expect(putDownloads({ ...env, S3_REGION: '' }, [join(dataDir, fileName)])).rejects.toThrow(/missing: S3_REGION/);
  });
});
