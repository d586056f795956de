import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { isAlive, lockDataDir } from '../data-dir-lock';
import { dumpDataDir, openDb, pgliteDirOf } from '../db/client';
import { BACKUP_PATH, OPS_FILE, type OpsFile } from './backup-route';

/** What a backup directory holds (its `backup.json`). */
export type BackupManifest = {
  kind: 'kraken-embedded-backup';
  version: 1;
  createdAt: string;
  /** The database's data directory, a gzipped tarball. */
  database: string;
  databaseBytes: number;
  /** Uploaded files, as they were under DATA_DIR/uploads. */
  uploads: { files: number; bytes: number };
  /** Taken from the running server, or from the data directory with no server running. */
  from: 'running server' | 'data directory';
};

const MANIFEST = 'backup.json';
const DATABASE = 'database.tar.gz';
/** What of DATA_DIR a backup keeps besides the database: the uploads and the demo account. */
const UPLOADS = 'uploads';
const DEMO_ACCOUNT = 'demo-account.json';

const readOps = (dataDir: string): OpsFile | null => {
  try {
    const ops = JSON.parse(readFileSync(join(dataDir, OPS_FILE), 'utf8')) as Partial<OpsFile>;
    return typeof ops.url === 'string' && typeof ops.token === 'string' && typeof ops.pid === 'number' ? (ops as OpsFile) : null;
  } catch {
    return null;
  }
};

/** Files and bytes under a directory, recursively. */
function tally(dir: string): { files: number; bytes: number } {
  if (!existsSync(dir)) return { files: 0, bytes: 0 };
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/** The snapshot from the server running on `dataDir`, or null when none runs there. */
async function fromRunningServer(dataDir: string): Promise<Uint8Array | null> {
  const ops = readOps(dataDir);
  if (!ops) return null;
  let response: Response;
  try {
    response = await fetch(`${ops.url}${BACKUP_PATH}`, { method: 'POST', headers: { authorization: `Bearer ${ops.token}` } });
  } catch (error) {
    // Left behind by a server that was killed: nobody runs there now.
    if (!isAlive(ops.pid)) return null;
    throw new Error(`The server running on ${dataDir} (process ${ops.pid}) did not answer at ${ops.url}: ${(error as Error).message}`, { cause: error });
  }
  if (!response.ok) throw new Error(`The server running on ${dataDir} refused the backup (${response.status}): is ${OPS_FILE} its own?`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The snapshot read from the data directory itself, holding its lock (no server may start meanwhile). */
async function fromDataDirectory(dataDir: string): Promise<Uint8Array> {
  const pgliteDir = pgliteDirOf(dataDir);
  if (!existsSync(join(pgliteDir, 'PG_VERSION'))) throw new Error(`There is no embedded database in ${dataDir} to back up.`);
  const lock = lockDataDir(dataDir);
  try {
    const database = await openDb({ pgliteDir });
    try {
      return new Uint8Array(await (await dumpDataDir(database, 'gzip')).arrayBuffer());
    } finally {
      await database.close();
    }
  } finally {
    lock.release();
  }
}

/**
 * `npm run backup`: the embedded database and the uploaded files of `dataDir`, into `out` (a new
 * or empty directory). While a server runs there, the database is a snapshot it takes under its
 * own lock (consistent: no statement runs across it); otherwise it is read from the directory,
 * holding the directory's lock. The uploads are copied after the snapshot: a file is stored before
 * its row is written, so every upload the snapshot names is there, unless it was deleted while the
 * backup ran.
 */
export async function backup(options: { dataDir: string; out: string; now?: Date }): Promise<BackupManifest> {
  const { dataDir, out } = options;
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty: back up into a new directory.`);
  const running = await fromRunningServer(dataDir);
  const snapshot = running ?? (await fromDataDirectory(dataDir));
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, DATABASE), snapshot);
  if (existsSync(join(dataDir, UPLOADS))) cpSync(join(dataDir, UPLOADS), join(out, UPLOADS), { recursive: true });
  if (existsSync(join(dataDir, DEMO_ACCOUNT))) cpSync(join(dataDir, DEMO_ACCOUNT), join(out, DEMO_ACCOUNT));
  const manifest: BackupManifest = {
    kind: 'kraken-embedded-backup',
    version: 1,
    createdAt: (options.now ?? new Date()).toISOString(),
    database: DATABASE,
    databaseBytes: snapshot.byteLength,
    uploads: tally(join(out, UPLOADS)),
    from: running ? 'running server' : 'data directory',
  };
  writeFileSync(join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * `npm run restore -- <backup>`: puts a backup in place in `dataDir`, with no server running there
 * (its lock is taken for the whole restore). What was there is kept beside it, renamed
 * `<name>.before-restore-<time>`, never deleted.
 */
export async function restore(options: { dataDir: string; from: string; now?: Date }): Promise<{ manifest: BackupManifest; keptAside: string[] }> {
  const { dataDir, from } = options;
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(join(from, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new Error(`${from} is not a backup: it has no readable ${MANIFEST}.`);
  }
  if (manifest.kind !== 'kraken-embedded-backup' || manifest.version !== 1) throw new Error(`${from} is not a backup this version can restore.`);
  const database = readFileSync(join(from, manifest.database));
  mkdirSync(dataDir, { recursive: true });
  const lock = lockDataDir(dataDir);
  try {
    const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
    const keptAside: string[] = [];
    for (const name of ['pglite', UPLOADS, DEMO_ACCOUNT]) {
      const path = join(dataDir, name);
      if (!existsSync(path)) continue;
      const aside = `${path}.before-restore-${stamp}`;
      renameSync(path, aside);
      keptAside.push(aside);
    }
    const restored = await PGlite.create(pgliteDirOf(dataDir), { loadDataDir: new Blob([database]) });
    await restored.close();
    if (existsSync(join(from, UPLOADS))) cpSync(join(from, UPLOADS), join(dataDir, UPLOADS), { recursive: true });
    if (existsSync(join(from, DEMO_ACCOUNT))) cpSync(join(from, DEMO_ACCOUNT), join(dataDir, DEMO_ACCOUNT));
    return { manifest, keptAside };
  } finally {
    lock.release();
  }
}
