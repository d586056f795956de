import { and, eq, gt, inArray, like, lt, sql } from 'drizzle-orm';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { prebuilt, slot } from '../db/prebuilt';
import { rateCounters } from '../db/schema';

/** A counter's total in its current window, and when that window closes. */
export type Tally = { count: number; resetsAt: Date };

/** One counter to add to: its key and the length of the window its first hit opens. */
export type CounterWindow = { key: string; windowMs: number };

/** How often one instance deletes the rows of closed windows. */
export const SWEEP_INTERVAL_MS = 60 * 1000;

/**
 * Counters kept in the database (table rate_counters), so every instance on one PostgreSQL sees
 * and enforces the same totals. Each key counts in a fixed window opened by its first hit.
 */
export type Counters = {
  /**
   * Adds `amount` to every key in one statement and answers each key's new total. The upsert is
   * atomic: N concurrent hits, on any number of instances, see the totals 1..N, never one twice.
   */
  add(windows: readonly CounterWindow[], amount?: number): Promise<Map<string, Tally>>;
  /** Takes back what `add` counted for an attempt that turned out not to count. */
  takeBack(keys: readonly string[], amount?: number): Promise<void>;
  /** The total so far, or null when the key's window is closed or was never opened. */
  read(key: string): Promise<Tally | null>;
  forget(key: string): Promise<void>;
  /** How many keys starting with `prefix` have an open window. */
  countOpen(prefix: string): Promise<number>;
};

/**
 * Adds to `size` counters: their keys and ends are the slots `key0`, `expiresAt0`, … in the order
 * the rows are locked; `now` and `amount` are shared.
 */
const addStatement = prebuilt((db, size: number) => {
  // A stored window has ended by the time this one starts (`now`, as the row proposed here has it).
  const expired = sql`${rateCounters.expiresAt} <= excluded.window_started_at`;
  return db
    .insert(rateCounters)
    .values(
      Array.from({ length: size }, (_, index) => ({
        key: slot(`key${index}`),
        count: slot('amount'),
        windowStartedAt: slot('now'),
        expiresAt: slot(`expiresAt${index}`),
      })),
    )
    .onConflictDoUpdate({
      target: rateCounters.key,
      set: {
        count: sql`CASE WHEN ${expired} THEN excluded.count ELSE ${rateCounters.count} + excluded.count END`,
        windowStartedAt: sql`CASE WHEN ${expired} THEN excluded.window_started_at ELSE ${rateCounters.windowStartedAt} END`,
        expiresAt: sql`CASE WHEN ${expired} THEN excluded.expires_at ELSE ${rateCounters.expiresAt} END`,
      },
    })
    .returning({ key: rateCounters.key, count: rateCounters.count, expiresAt: rateCounters.expiresAt });
});

export function createCounters(db: Db, clock: Clock): Counters {
  let lastSweep = Number.NEGATIVE_INFINITY;

  // A cheap DELETE on the expires_at index, at most once a minute per instance: the table holds
  // only windows still open, however many addresses and visitors come and go.
  async function sweepNowAndThen(now: Date) {
    if (now.getTime() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now.getTime();
    await db.delete(rateCounters).where(lt(rateCounters.expiresAt, now));
  }

  return {
    async add(windows, amount = 1) {
      const now = clock.now();
      await sweepNowAndThen(now);
      if (windows.length === 0) return new Map();
      const values: Record<string, unknown> = { now, amount };
      // One order of keys for every statement: two requests locking the same rows in opposite
      // orders would deadlock on PostgreSQL.
      [...windows]
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .forEach(({ key, windowMs }, index) => {
          values[`key${index}`] = key;
          values[`expiresAt${index}`] = new Date(now.getTime() + windowMs);
        });
      const rows = await addStatement(db, windows.length, values);
      return new Map(rows.map((row) => [row.key, { count: Number(row.count), resetsAt: row.expiresAt }]));
    },

    async takeBack(keys, amount = 1) {
      if (keys.length === 0) return;
      await db
        .update(rateCounters)
        .set({ count: sql`greatest(${rateCounters.count} - ${amount}, 0)` })
        .where(and(inArray(rateCounters.key, [...keys]), gt(rateCounters.expiresAt, clock.now())));
    },

    async read(key) {
      const [row] = await db
        .select({ count: rateCounters.count, expiresAt: rateCounters.expiresAt })
        .from(rateCounters)
        .where(and(eq(rateCounters.key, key), gt(rateCounters.expiresAt, clock.now())))
        .limit(1);
      return row ? { count: Number(row.count), resetsAt: row.expiresAt } : null;
    },

    async forget(key) {
      await db.delete(rateCounters).where(eq(rateCounters.key, key));
    },

    async countOpen(prefix) {
      const pattern = `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(rateCounters)
        .where(and(like(rateCounters.key, pattern), gt(rateCounters.expiresAt, clock.now())));
      return row?.n ?? 0;
    },
  };
}
