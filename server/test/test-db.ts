import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, type DbHandle } from '../db/client';
import { seedCatalog } from '../seed/seed';

/**
 * One migrated, seeded database per test file: in-memory PGlite, or, when DATABASE_URL is set,
 * a fresh database on that PostgreSQL server, dropped again on close.
 */
export async function openTestDb(options: { migrated?: boolean } = {}): Promise<DbHandle & { url?: string; databaseUrl?: string }> {
  const adminUrl = process.env.DATABASE_URL;
  let handle: DbHandle & { url?: string; databaseUrl?: string };
  if (adminUrl) {
    const name = `kraken_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const inner = await openDb({ databaseUrl: url.toString() });
    handle = {
      ...inner,
      url: url.toString(),
      databaseUrl: url.toString(),
      close: async () => {
        await inner.close();
        const cleanup = new pg.Client({ connectionString: adminUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      },
    };
  } else {
    handle = await openDb({ memory: true });
  }
  if (options.migrated === false) return handle;
  await handle.migrate();
  await seedCatalog(handle.db);
  return handle;
}

/**
 * Two instances' views of one database: on PostgreSQL two connection pools, as two server
 * processes have; on PGlite (one connection, one process) the same handle twice, so the code
 * path is the same and only PostgreSQL proves they do not share memory.
 */
export async function openSharedTestDb(options: { migrated?: boolean } = {}): Promise<{ a: DbHandle; b: DbHandle; close(): Promise<void> }> {
  const a = await openTestDb(options);
  if (!a.url) return { a, b: a, close: () => a.close() };
  const b = await openDb({ databaseUrl: a.url });
  return {
    a,
    b,
    close: async () => {
      await b.close();
      await a.close();
    },
  };
}
