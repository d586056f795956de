import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../test/test-db';
import { openDb, type DbHandle } from './client';

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const onPostgres = Boolean(process.env.DATABASE_URL);

/** Instances started together on an empty database: each one migrates at start. */
describe('migrations started by several instances at once', () => {
  let empty: Awaited<ReturnType<typeof openTestDb>>;
  const others: DbHandle[] = [];
  beforeAll(async () => {
    empty = await openTestDb({ migrated: false });
    // On PostgreSQL, three pools as three processes have; PGlite belongs to one process.
    if (empty.url) for (let i = 0; i < 2; i++) others.push(await openDb({ databaseUrl: empty.url }));
  });
  afterAll(async () => {
    for (const other of others) await other.close();
    await empty.close();
  });

  it('all succeed, one after the other, and apply each migration once; readiness follows', async () => {
    expect(await empty.isMigrated()).toBe(false);
    const instances = [empty, ...others, ...(onPostgres ? [] : [empty])];
    const results = await Promise.allSettled(instances.map((instance) => instance.migrate()));
    expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok'))).toEqual(instances.map(() => 'ok'));
    for (const instance of instances) expect(await instance.isMigrated()).toBe(true);
    const applied = (await empty.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(applied.rows[0]!.n).toBe(readMigrationFiles({ migrationsFolder }).length);
  });
});
