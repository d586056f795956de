import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../db/client';
import { companies } from '../db/schema';
import { AGENTS, APPLICATIONS, COMPANIES } from '../seed/catalog';
import { openTestDb } from './test-db';

const rowsOf = async <T>(handle: DbHandle, query: ReturnType<typeof sql>) => ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
const count = async (handle: DbHandle, table: string) => Number((await rowsOf<{ n: string | number }>(handle, sql.raw(`select count(*) as n from ${table}`)))[0]!.n);

// Every file starts from one migrated, seeded image (PGlite) or template (PostgreSQL).
describe('openTestDb', () => {
  let first: DbHandle;
  let second: DbHandle;
  let empty: DbHandle;
  beforeAll(async () => {
    [first, second, empty] = await Promise.all([openTestDb(), openTestDb(), openTestDb({ migrated: false })]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close(), empty?.close()]);
  });

  it('gives a database with every migration applied and the catalogue seeded', async () => {
    expect(await first.isMigrated()).toBe(true);
    expect(await count(first, 'companies')).toBe(COMPANIES.length);
    expect(await count(first, 'agents')).toBe(AGENTS.length);
    expect(await count(first, 'applications')).toBe(APPLICATIONS.length);
    // Migrating again finds nothing left to do.
    await first.migrate();
    expect(await count(first, 'agents')).toBe(AGENTS.length);
  });

  it('gives each caller a copy of its own: what one writes the other never sees', async () => {
    await first.db.insert(companies).values({ id: 'only-in-first', name: 'Only in first' });
    expect(await count(first, 'companies')).toBe(COMPANIES.length + 1);
    expect(await count(second, 'companies')).toBe(COMPANIES.length);
    const again = await openTestDb();
    try {
      expect(await count(again, 'companies')).toBe(COMPANIES.length);
    } finally {
      await again.close();
    }
  });

  it('gives an empty, unmigrated database when asked for one', async () => {
    expect(await empty.isMigrated()).toBe(false);
    const tables = await rowsOf<{ name: string }>(empty, sql`select table_name as name from information_schema.tables where table_schema in ('public', 'drizzle')`);
    expect(tables).toEqual([]);
    await empty.migrate();
    expect(await empty.isMigrated()).toBe(true);
    expect(await count(empty, 'agents')).toBe(0);
  });
});
