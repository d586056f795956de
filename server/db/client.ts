import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { DEFAULT_POOL_MAX } from './pool-size';
import * as schema from './schema';

/** The one database type every service takes, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DbHandle = {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Applies every migration in server/db/migrations not applied yet. */
  migrate(): Promise<void>;
  close(): Promise<void>;
};

// Resolved from the module's path string: test environments may replace the global URL class.
const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DbOptions =
  /** PostgreSQL through a pg Pool of at most `poolMax` connections (default DEFAULT_POOL_MAX). */
  | { databaseUrl: string; poolMax?: number }
  /** Embedded PGlite stored in this directory. */
  | { pgliteDir: string }
  /** Embedded PGlite in memory (tests). */
  | { memory: true };

export async function openDb(options: DbOptions): Promise<DbHandle> {
  if ('databaseUrl' in options) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolMax ?? DEFAULT_POOL_MAX });
    // An idle connection the database closes (a restart, an administrator) is reported on the
    // pool; unheard, it would end the whole server. The pool replaces it on the next query.
    pool.on('error', (error) => console.warn(`database: an idle connection was closed (${error.message})`));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      driver: 'postgres',
      migrate: () => migratePg(db as never, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if ('pgliteDir' in options) {
    mkdirSync(options.pgliteDir, { recursive: true });
    client = await PGlite.create(options.pgliteDir);
  } else {
    client = await PGlite.create();
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    close: () => client.close(),
  };
}

/** Where the embedded database lives under DATA_DIR. */
export const pgliteDirOf = (dataDir: string) => join(dataDir, 'pglite');
