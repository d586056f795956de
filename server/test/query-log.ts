import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import type { DbHandle } from '../db/client';

/**
 * Every statement sent to the database, in order, whichever driver: the first words of its SQL
 * (`begin` and `commit` included, one entry each). A round trip is one entry.
 */
export type QueryLog = {
  statements: string[];
  /** The same statements' whole text, as sent. */
  texts: string[];
  stop(): void;
};

const textOf = (sql: unknown) => String(typeof sql === 'object' && sql !== null && 'text' in sql ? (sql as { text: unknown }).text : sql);
const shorten = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .toLowerCase();

/**
 * Records the statements the server sends over `database` from now until `stop()`. PGlite: its
 * query calls, and a transaction as `begin` … `commit` around its own; PostgreSQL: every query of
 * every pooled connection (node-postgres sends the pool's through them too).
 */
export function logQueries(database: DbHandle): QueryLog {
  const texts: string[] = [];
  const note = (sql: unknown) => texts.push(textOf(sql));
  const undo: (() => void)[] = [];
  const patch = <T extends object, K extends keyof T & string>(target: T, key: K, wrap: (original: T[K]) => T[K]) => {
    const had = Object.prototype.hasOwnProperty.call(target, key);
    const original = target[key];
    target[key] = wrap(original);
    undo.push(() => {
      if (had) target[key] = original;
      else delete target[key];
    });
  };

  if (database.driver === 'postgres') {
    type Query = (...args: unknown[]) => unknown;
    patch(pg.Client.prototype as unknown as { query: Query }, 'query', (original) =>
      function (this: unknown, ...args: unknown[]) {
        note(args[0]);
        return original.apply(this, args);
      },
    );
  } else {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const record = <T extends { query: PGlite['query']; exec: PGlite['exec'] }>(target: T) => {
      patch(target, 'query', (original) => ((sql: string, ...rest: never[]) => {
        note(sql);
        return original.call(target, sql, ...rest);
      }) as T['query']);
      patch(target, 'exec', (original) => ((sql: string, ...rest: never[]) => {
        note(sql);
        return original.call(target, sql, ...rest);
      }) as T['exec']);
    };
    record(client);
    patch(client, 'transaction', (original) => (async <R>(callback: (tx: Transaction) => Promise<R>) =>
      original.call(client, async (tx: Transaction) => {
        note('begin');
        const wrapped = Object.create(tx) as Transaction;
        wrapped.query = ((sql: string, ...rest: never[]) => {
          note(sql);
          return tx.query(sql, ...rest);
        }) as Transaction['query'];
        wrapped.exec = ((sql: string, ...rest: never[]) => {
          note(sql);
          return tx.exec(sql, ...rest);
        }) as Transaction['exec'];
        const result = await callback(wrapped);
        note('commit');
        return result;
      })) as PGlite['transaction']);
  }
  return {
    get statements() {
      return texts.map(shorten);
    },
    texts,
    stop: () => {
      for (const step of undo.reverse()) step();
    },
  };
}
