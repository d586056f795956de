import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies } from '../db/schema';
import { startServer, type RunningServer } from '../start';
import { backup, restore } from './backup';
import { BACKUP_PATH, OPS_FILE } from './backup-route';

/** The embedded database on disk, whatever DATABASE_URL says: backups are the embedded database's. */
const env = {};
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
const newDir = (name: string) => join(mkdtempSync(join(tmpdir(), `kraken-${name}-`)), name);
const start = (dataDir: string) => startServer({ dataDir, env, spaDir: null, log: () => {} });

async function signIn(server: RunningServer) {
  const response = await fetch(`${server.url}/api/system/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: server.demo.username, password: server.demo.password }),
  });
  const { data } = (await response.json()) as { data: { token: string } };
  return { authorization: `Bearer ${data.token}` };
}

async function upload(server: RunningServer) {
  const form = new FormData();
  form.set('file', new File([PNG], 'kept.png'));
  const response = await fetch(`${server.url}/api/media/upload`, { method: 'POST', headers: await signIn(server), body: form });
  const { data } = (await response.json()) as { data: { url: string } };
  return data.url;
}

const companyNames = async (server: RunningServer) => (await server.database.db.select({ id: companies.id }).from(companies)).map((row) => row.id);

describe('backing up the embedded database', () => {
  it('takes a consistent copy while the server runs, and a restore brings back exactly that, uploads included', async () => {
    const dataDir = newDir('data');
    const out = newDir('backup');
    const server = await start(dataDir);
    let fileUrl: string;
    try {
      await server.database.db.insert(companies).values({ id: 'before-backup', name: 'Before' });
      fileUrl = await upload(server);
      const ops = join(dataDir, OPS_FILE);
      expect(statSync(ops).mode & 0o777).toBe(0o600);

      const manifest = await backup({ dataDir, out });
      expect(manifest).toMatchObject({ kind: 'kraken-embedded-backup', from: 'running server', uploads: { files: 1, bytes: PNG.byteLength } });
      expect(manifest.databaseBytes).toBeGreaterThan(100_000);
      // Written after the backup: not in it.
      await server.database.db.insert(companies).values({ id: 'after-backup', name: 'After' });
    } finally {
      await server.close();
    }
    expect(existsSync(join(dataDir, OPS_FILE))).toBe(false);

    // Into a new directory: what the backup held, nothing after it.
    const elsewhere = newDir('restored');
    await restore({ dataDir: elsewhere, from: out });
    const restored = await start(elsewhere);
    try {
      const names = await companyNames(restored);
      expect(names).toContain('before-backup');
      expect(names).not.toContain('after-backup');
      // The demo account came along: the same person signs in and reads their upload.
      expect(restored.demo).toMatchObject({ source: 'stored' });
      const file = await fetch(`${restored.url}${fileUrl}`, { headers: await signIn(restored) });
      expect(file.status).toBe(200);
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
    } finally {
      await restored.close();
    }

    // Over the original: what was there is kept aside, not deleted.
    const { keptAside } = await restore({ dataDir, from: out });
    expect(keptAside.map((path) => path.slice(dataDir.length + 1).replace(/\.before-restore-.*/, ''))).toEqual(['pglite', 'uploads', 'demo-account.json']);
    const again = await start(dataDir);
    try {
      expect(await companyNames(again)).not.toContain('after-backup');
    } finally {
      await again.close();
    }
  });

  it('reads the data directory itself when no server runs, and refuses to restore under a running server', async () => {
    const dataDir = newDir('data');
    const first = await start(dataDir);
    await first.database.db.insert(companies).values({ id: 'offline-copy', name: 'Offline' });
    await first.close();
    const out = newDir('backup');
    expect((await backup({ dataDir, out })).from).toBe('data directory');
    await expect(backup({ dataDir, out })).rejects.toThrow(/not empty/);

    const running = await start(dataDir);
    try {
      await expect(restore({ dataDir, from: out })).rejects.toThrow(/process/);
      // Nothing was moved aside by the refused restore.
      expect(await running.database.db.select().from(companies).where(eq(companies.id, 'offline-copy'))).toHaveLength(1);
    } finally {
      await running.close();
    }
  });

  it('answers the snapshot only to the token in DATA_DIR, and to nobody else', async () => {
    const dataDir = newDir('data');
    const server = await start(dataDir);
    try {
      const { token } = JSON.parse(readFileSync(join(dataDir, OPS_FILE), 'utf8')) as { token: string };
      for (const headers of [{}, { authorization: 'Bearer wrong' }, await signIn(server)]) {
        const refused = await fetch(`${server.url}${BACKUP_PATH}`, { method: 'POST', headers });
        expect(refused.status).toBe(404);
      }
      const taken = await fetch(`${server.url}${BACKUP_PATH}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(taken.status).toBe(200);
      expect(taken.headers.get('content-type')).toBe('application/gzip');
      const bytes = new Uint8Array(await taken.arrayBuffer());
      expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    } finally {
      await server.close();
    }
  });
});
