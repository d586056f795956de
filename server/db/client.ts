import { mkdirSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pipelined } from './pglite-pipelined';
import { embeddedTransactions, poolTransactions, registerConnectionTransactions } from './connection-transaction';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { metrics } from '../observability/metrics';
import { DEFAULT_POOL_MAX } from './pool-size';
import * as schema from './schema';
import type { Db } from './db-type';
import { keepUp, type Upkeep } from './upkeep';

export type { Db };

export type DbHandle = {
  db: Db;
  driver: 'pglite' | 'postgres';
  /**
   * Applies every migration in server/db/migrations not applied yet, under an advisory lock: N
   * instances started at once on an empty database migrate one after the other, the later ones
   * finding nothing left to do.
   */
  migrate(): Promise<void>;
  /** Whether the database answers and every migration of this build is applied (for /readyz). */
  isMigrated(): Promise<boolean>;
  /**
   * Analyzes and vacuums the tables that need it (server/db/upkeep.ts). The embedded database
   * only: PostgreSQL's own autovacuum does it there, and nothing is done.
   */
  keepUp(): Promise<Upkeep>;
  close(): Promise<void>;
};

// Resolved from the module's path string: test environments may replace the global URL class.
/**
 * The embedded database's own cache: PostgreSQL's default 128 MB of shared buffers lives in the
 * process's WebAssembly memory, while its files are read through the system's cache anyway; 16 MB
 * holds the hot rows of a small installation and keeps a default start small (docs/performance.md).
 */
export const EMBEDDED_SHARED_BUFFERS = '16MB';
const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`];

/**
 * The embedded database's code compiled by V8's baseline compiler only, once per process, before
 * its WebAssembly is first compiled. By default V8 also recompiles the hot part with its optimising
 * compiler, keeping both: some 40 MB more resident memory and a slower start (a bare open 120 MB
 * against 165 MB, ready in 0.4 s against 0.9 s), for queries whose time goes mostly elsewhere
 * (docs/performance.md, "The idle memory of a default start"). It applies to the whole process,
 * which runs no other WebAssembly that matters.
 */
let compiledLean = false;
function compileEmbeddedLean() {
  if (compiledLean) return;
  compiledLean = true;
  setFlagsFromString('--liftoff-only');
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The session-level advisory lock held while migrating (any fixed number, the same in every build). */
export const MIGRATION_LOCK_KEY = 4_812_331_907;

/** When the newest migration of this build was written: the database is up to date once it has it. */
const newestMigration = () => Math.max(...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));

/** Whether the database answers and has every migration of this build (false, never a throw, otherwise). */
export async function isMigrated(db: Db): Promise<boolean> {
  try {
    const result = (await db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`)) as unknown as {
      rows: Array<{ newest: string | number | null }>;
    };
    return Number(result.rows[0]?.newest ?? 0) >= newestMigration();
  } catch {
    return false;
  }
}

export type DbOptions =
  /** PostgreSQL through a pg Pool of at most `poolMax` connections (default DEFAULT_POOL_MAX). */
  | { databaseUrl: string; poolMax?: number }
  /** Embedded PGlite stored in this directory. */
  | { pgliteDir: string }
  /**
   * Embedded PGlite in memory (tests); with `loadDataDir`, started from a dump of another's data
   * directory (`dumpDataDir`) instead of an empty one.
   */
  | { memory: true; loadDataDir?: Blob | File };

/** The embedded client under each handle openDb gave, for `dumpDataDir`. */
const embeddedClients = new WeakMap<DbHandle, PGlite>();

/**
 * The embedded database's data directory as a tarball (uncompressed unless asked), from which
 * `openDb({ memory: true, loadDataDir })` starts another in-memory database in the same state
 * (tests: one migrated, seeded image per run, server/test/test-db.ts) and `npm run restore` a
 * stored one. Taken under the database's lock: consistent while the server runs. PGlite only.
 */
export async function dumpDataDir(handle: DbHandle, compression: 'none' | 'gzip' = 'none'): Promise<Blob> {
  const client = embeddedClients.get(handle);
  if (!client) throw new Error('dumpDataDir: only an embedded (PGlite) database has a data directory to dump');
  return client.dumpDataDir(compression);
}

export async function openDb(options: DbOptions): Promise<DbHandle> {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolMax ?? DEFAULT_POOL_MAX });
    // An idle connection the database closes (a restart, an administrator) is reported on the
    // pool; unheard, it would end the whole server. The pool replaces it on the next query.
    pool.on('error', (error) => console.warn(`database: an idle connection was closed (${error.message})`));
    const unwatch = metrics.watchPool(pool);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    registerConnectionTransactions(db, poolTransactions(pool));
    return {
      db,
      driver: 'postgres',
      async migrate() {
        // One connection holds the lock and runs the migrations: a session lock belongs to it.
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          try {
            await migratePg(drizzlePg(client, { schema }) as never, { migrationsFolder });
          } finally {
            await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
          }
        } catch (error) {
          broken = error instanceof Error ? error : new Error(String(error));
          throw error;
        } finally {
          // A connection that failed mid-migration may still hold the lock: it is closed, not reused.
          client.release(broken);
        }
      },
      isMigrated: () => isMigrated(db),
      keepUp: async () => ({ analyzed: [], vacuumed: [] }),
      close: () => {
        unwatch();
        return pool.end();
      },
    };
  }
  compileEmbeddedLean();
  let client: PGlite;
  if ('pgliteDir' in options) {
    mkdirSync(options.pgliteDir, { recursive: true });
    client = await PGlite.create(options.pgliteDir, { startParams: EMBEDDED_START_PARAMS });
  } else if (options.loadDataDir) {
    client = await PGlite.create({ loadDataDir: options.loadDataDir });
  } else {
    client = await PGlite.create();
  }
  // Each statement in one call into the database, not six (see pglite-pipelined.ts).
  const sessions = pipelined(client);
  const db = drizzlePglite(sessions as unknown as PGlite, { schema }) as unknown as Db;
  registerConnectionTransactions(db, embeddedTransactions(sessions));
  let migrating: Promise<void> = Promise.resolve();
  const handle: DbHandle = {
    db,
    driver: 'pglite',
    // One process owns the embedded database, through one session: an advisory lock, re-entrant
    // within a session, cannot keep two callers apart there, so they wait for each other here.
    migrate: () =>
      (migrating = migrating
        .catch(() => {})
        .then(async () => {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
          try {
            await migratePglite(db as never, { migrationsFolder });
          } finally {
            await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
          }
        })),
    isMigrated: () => isMigrated(db),
    keepUp: () => keepUp(client),
    close: () => client.close(),
  };
  embeddedClients.set(handle, client);
  return handle;
}

/** Where the embedded database lives under DATA_DIR. */
export const pgliteDirOf = (dataDir: string) => join(dataDir, 'pglite');
