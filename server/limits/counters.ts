import { and, eq, gt, inArray, like, lt, sql, type SQL } from 'drizzle-orm';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { prebuilt, slot } from '../db/prebuilt';
import { rateCounters } from '../db/schema';

/** A counter's total in its current window, and when that window closes. */
export type Tally = { count: number; resetsAt: Date };

/** One counter to add to: its key and the length of the window its first hit opens. */
export type CounterWindow = { key: string; windowMs: number };

/** A counter that may not pass `limit` in its window. */
export type LimitedWindow = CounterWindow & { limit: number };

/** A counter's total after a spend, and whether the spend was added to it. */
export type Spent = Tally & { spent: boolean };

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
  /**
   * Adds `amount` to every key whose total stays within its limit, in one statement, and answers
   * each key's total and whether it was added to; a key it would take past its limit is left as
   * it was. The check and the addition are one step: N concurrent spends against a key with room
   * for k add exactly k of them, on any number of instances, and refuse none while room remains.
   */
  spend(windows: readonly LimitedWindow[], amount: number): Promise<Map<string, Spent>>;
  /** Takes back what `add` or `spend` counted for an attempt that turned out not to count. */
  takeBack(keys: readonly string[], amount?: number): Promise<void>;
  /** The total so far, or null when the key's window is closed or was never opened. */
  read(key: string): Promise<Tally | null>;
  forget(key: string): Promise<void>;
  /** How many keys starting with `prefix` have an open window. */
  countOpen(prefix: string): Promise<number>;
};

/** A stored window has ended by the time this one starts (`now`, as the row proposed has it). */
const expired = sql`${rateCounters.expiresAt} <= excluded.window_started_at`;

/**
 * The upsert of `size` counters: their keys and ends are the slots `key0`, `expiresAt0`, … in the
 * order the rows are locked; `now` and `amount` are shared. A stored row whose window has closed
 * starts again with the amount; an open one adds it. `onlyWhere` limits which stored rows are
 * updated (and so returned).
 */
const upsertCounters = (db: Db, size: number, onlyWhere?: SQL) =>
  db
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
      ...(onlyWhere ? { setWhere: onlyWhere } : {}),
    })
    .returning({ key: rateCounters.key, count: rateCounters.count, expiresAt: rateCounters.expiresAt });

/** Adds to `size` counters, whatever their totals. */
const addStatement = prebuilt((db, size: number) => upsertCounters(db, size));

/**
 * Adds to `size` counters as `addStatement` does, but only to a counter that stays within its
 * limit (the slots `limit0`, … beside `key0`, …): a stored row it would take past its limit is not
 * updated, and so not returned. A new row is always inserted: `spend` sends no amount over a limit.
 */
const spendStatement = prebuilt((db, size: number) => {
  const limitOf = sql.join(
    [
      sql`case excluded.key`,
      ...Array.from({ length: size }, (_, index) => sql`when ${slot(`key${index}`)} then cast(${slot(`limit${index}`)} as bigint)`),
      sql`end`,
    ],
    sql` `,
  );
  return upsertCounters(db, size, sql`${expired} OR ${rateCounters.count} + excluded.count <= ${limitOf}`);
});

/** One order of keys for every statement: two requests locking the same rows in opposite orders would deadlock on PostgreSQL. */
const inKeyOrder = <W extends { key: string }>(windows: readonly W[]) => [...windows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** The statement's values for these windows, in key order: `key0`, `expiresAt0`, `limit0` (if any), …, and `now`. */
function windowValues(windows: readonly (CounterWindow & { limit?: number })[], now: Date): Record<string, unknown> {
  const values: Record<string, unknown> = { now };
  inKeyOrder(windows).forEach((window, index) => {
    values[`key${index}`] = window.key;
    values[`expiresAt${index}`] = new Date(now.getTime() + window.windowMs);
    if (window.limit !== undefined) values[`limit${index}`] = window.limit;
  });
  return values;
}

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
      const rows = await addStatement(db, windows.length, { ...windowValues(windows, now), amount });
      return new Map(rows.map((row) => [row.key, { count: Number(row.count), resetsAt: row.expiresAt }]));
    },

    async spend(windows, amount) {
      const now = clock.now();
      await sweepNowAndThen(now);
      if (windows.length === 0) return new Map();
      // An amount over a limit can never fit: nothing is written for it.
      const fits = windows.every((window) => amount <= window.limit);
      const rows = fits ? await spendStatement(db, windows.length, { ...windowValues(windows, now), amount }) : [];
      const tallies = new Map<string, Spent>(rows.map((row) => [row.key, { count: Number(row.count), resetsAt: row.expiresAt, spent: true }]));
      const refused = windows.filter((window) => !tallies.has(window.key));
      if (refused.length === 0) return tallies;
      // Only a refusal reads again, for when the refusing windows close.
      const open = await db
        .select({ key: rateCounters.key, count: rateCounters.count, expiresAt: rateCounters.expiresAt })
        .from(rateCounters)
        .where(and(inArray(rateCounters.key, refused.map((window) => window.key)), gt(rateCounters.expiresAt, now)));
      const openByKey = new Map(open.map((row) => [row.key, row]));
      for (const window of refused) {
        const row = openByKey.get(window.key);
        tallies.set(window.key, {
          count: Number(row?.count ?? 0),
          resetsAt: row?.expiresAt ?? new Date(now.getTime() + window.windowMs),
          spent: false,
        });
      }
      return tallies;
    },

    async takeBack(keys, amount = 1) {
      if (keys.length === 0) return;
      // The rows are locked in key order, as the upserts lock them, by the subquery.
      const locked = db
        .select({ key: rateCounters.key })
        .from(rateCounters)
        .where(and(inArray(rateCounters.key, [...keys]), gt(rateCounters.expiresAt, clock.now())))
        .orderBy(rateCounters.key)
        .for('update');
      await db
        .update(rateCounters)
        .set({ count: sql`greatest(${rateCounters.count} - ${amount}, 0)` })
        .where(inArray(rateCounters.key, locked));
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
