import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDb, type DbHandle } from '../db/client';
import { seedCatalog } from '../seed/seed';

/**
 * One migrated, seeded database per test file: in-memory PGlite, or, when DATABASE_URL is set,
 * a fresh database on that PostgreSQL server, dropped again on close.
 */
export async function openTestDb(): Promise<DbHandle & { databaseUrl?: string }> {
  const adminUrl = process.env.DATABASE_URL;
  let handle: DbHandle & { databaseUrl?: string };
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
  await handle.migrate();
  await seedCatalog(handle.db);
  return handle;
}
