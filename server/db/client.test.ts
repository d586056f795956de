import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from './client';
import { openTestDb } from '../test/test-db';

const onPostgres = Boolean(process.env.DATABASE_URL);

// Only a real PostgreSQL can close connections under the server's feet (CI runs this suite on one).
describe.runIf(onPostgres)('the PostgreSQL connection pool', () => {
  let database: DbHandle;
  beforeAll(async () => {
    database = await openTestDb();
  });
  afterAll(async () => {
    await database.close();
  });

  it('survives the database closing its idle connections, and answers the next query', async () => {
    await database.db.execute(sql`select 1`);
    const { rows } = (await database.db.execute(sql`select current_database() as name`)) as unknown as { rows: Array<{ name: string }> };
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const closed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [rows[0]!.name]);
    await admin.end();
    expect(closed.rowCount).toBeGreaterThan(0);
    // Give the pool time to hear about it: unhandled, this is where the process would crash.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = (await database.db.execute(sql`select 2 as two`)) as unknown as { rows: Array<{ two: number }> };
    expect(again.rows[0]!.two).toBe(2);
  });
});
