import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { DbHandle } from '../db/client';

/**
 * Makes the database refuse the statements whose text matches `match`, as a database that went
 * away or a full disk would, until `heal()`. Statements already under way are not touched. For
 * the tests of what a reader is shown while writes fail; `restore()` puts the driver back.
 */
export function refuseStatements(database: DbHandle, match: RegExp, error = 'could not write to file: No space left on device') {
  let refusing = true;
  let refused = 0;
  const refuses = (sql: unknown) => {
    const text = String(typeof sql === 'object' && sql !== null && 'text' in sql ? (sql as { text: unknown }).text : sql);
    if (!refusing || !match.test(text)) return false;
    refused += 1;
    return true;
  };
  type Query = (...args: unknown[]) => unknown;
  const target: { query: Query } =
    database.driver === 'postgres'
      ? (pg.Client.prototype as unknown as { query: Query })
      : ((database.db as unknown as { $client: PGlite }).$client as unknown as { query: Query });
  const had = Object.prototype.hasOwnProperty.call(target, 'query');
  const original = target.query;
  target.query = function (this: unknown, ...args: unknown[]) {
    if (refuses(args[0])) {
      // node-postgres' pool calls with a callback; everything else awaits a promise.
      const callback = args.at(-1);
      if (typeof callback === 'function') return void setImmediate(() => (callback as (error: Error) => void)(new Error(error)));
      return Promise.reject(new Error(error));
    }
    return original.apply(this, args);
  };
  return {
    heal: () => void (refusing = false),
    refuseAgain: () => void (refusing = true),
    refused: () => refused,
    restore() {
      refusing = false;
      if (had) target.query = original;
      else delete (target as Partial<typeof target>).query;
    },
  };
}
