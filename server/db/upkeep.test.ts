import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../test/test-db';
import type { DbHandle } from './client';
import { conversations } from './schema';
import { upkeepFor, type TableActivity } from './upkeep';

const table = (activity: Partial<TableActivity>): TableActivity => ({
  table: 't',
  reltuples: 1000,
  liveRows: 1000,
  deadRows: 0,
  changedSinceAnalyze: 0,
  ...activity,
});

describe('which tables are due, by autovacuum’s rules', () => {
  it('analyzes a table once 50 rows and a tenth of it changed, not before', () => {
    expect(upkeepFor([table({ changedSinceAnalyze: 150 })]).analyzed).toEqual([]);
    expect(upkeepFor([table({ changedSinceAnalyze: 151 })]).analyzed).toEqual(['t']);
  });

  it('vacuums a table once 50 rows and a fifth of it are dead, not before', () => {
    expect(upkeepFor([table({ deadRows: 250 })]).vacuumed).toEqual([]);
    expect(upkeepFor([table({ deadRows: 251 })]).vacuumed).toEqual(['t']);
  });

  it('analyzes a table that has rows and was never analyzed, and leaves an empty one', () => {
    expect(upkeepFor([table({ reltuples: -1, liveRows: 3, changedSinceAnalyze: 3 })]).analyzed).toEqual(['t']);
    expect(upkeepFor([table({ reltuples: -1, liveRows: 0 })])).toEqual({ analyzed: [], vacuumed: [] });
  });
});

describe('keeping the database’s statistics and files up', () => {
  let database: DbHandle;
  beforeAll(async () => {
    database = await openTestDb();
  });
  afterAll(() => database.close());

  const reltuples = async () =>
    Number(
      ((await database.db.execute(sql`select reltuples::float8 as n from pg_class where relname = 'conversations'`)) as unknown as {
        rows: { n: number }[];
      }).rows[0]!.n,
    );

  it.runIf(!process.env.DATABASE_URL)('the embedded database: analyzes a filled table, vacuums its dead rows, then has nothing to do', async () => {
    const now = new Date();
    await database.db.insert(conversations).values(
      Array.from({ length: 120 }, () => ({ id: randomUUID(), ownerVisitorId: randomUUID(), source: 'agent' as const, sourceId: 'x', createdAt: now, updatedAt: now })),
    );
    const first = await database.keepUp();
    expect(first.analyzed).toContain('conversations');
    // The planner now knows the table's size, which it guessed before.
    expect(await reltuples()).toBe(120);

    // Every row rewritten twice: 240 old versions, over the 50 + 24 that call for a vacuum.
    await database.db.update(conversations).set({ pinned: true });
    await database.db.update(conversations).set({ pinned: false });
    const second = await database.keepUp();
    expect(second.vacuumed).toContain('conversations');
    const dead = (await database.db.execute(sql`select n_dead_tup::int as n from pg_stat_user_tables where relname = 'conversations'`)) as unknown as {
      rows: { n: number }[];
    };
    expect(dead.rows[0]!.n).toBe(0);

    expect(await database.keepUp()).toEqual({ analyzed: [], vacuumed: [] });
  });

  it.runIf(!!process.env.DATABASE_URL)('PostgreSQL: left to its own autovacuum', async () => {
    expect(await database.keepUp()).toEqual({ analyzed: [], vacuumed: [] });
  });
});
