import type { PGlite, Transaction } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type { PipelinedClient } from './pglite-pipelined';
import * as schema from './schema';
import type { Db } from './db-type';

/**
 * Runs `work` in a transaction, given a database bound to the transaction's connection: committed
 * when it resolves, rolled back when it throws.
 */
export type ConnectionTransaction = <T>(work: (tx: Db) => Promise<T>) => Promise<T>;

/** How each database opened by `openDb` runs a transaction on a connection of its own. */
const transactions = new WeakMap<Db, ConnectionTransaction>();

export const registerConnectionTransactions = (db: Db, run: ConnectionTransaction) => transactions.set(db, run);

/**
 * A transaction for the statements every question sends. drizzle's own `db.transaction` gives a
 * new database object for each transaction, and a statement prebuilt with drizzle's public
 * `prepare` belongs to the object it was prepared on, so inside one it would be built again at
 * every question (29 % more CPU per question on PostgreSQL, bench (f)). Here the transaction runs
 * on a database object that lasts as long as its connection: statements prebuilt on it are built
 * once per connection. A database not opened by `openDb` falls back to drizzle's own.
 */
export function transact<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const run = transactions.get(db);
  return run ? run(work) : db.transaction((tx) => work(tx as unknown as Db));
}

/**
 * PostgreSQL: a connection taken from the pool for the transaction, with a drizzle database made
 * for it the first time and kept while the pool keeps the connection. A connection whose rollback
 * failed is closed, not given back.
 */
export function poolTransactions(pool: pg.Pool): ConnectionTransaction {
  const bound = new WeakMap<pg.PoolClient, Db>();
  return async (work) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      let db = bound.get(client);
      if (!db) bound.set(client, (db = drizzlePg(client, { schema }) as unknown as Db));
      await client.query('begin');
      let result;
      try {
        result = await work(db);
      } catch (error) {
        try {
          await client.query('rollback');
        } catch (rollbackFailed) {
          broken = rollbackFailed instanceof Error ? rollbackFailed : new Error(String(rollbackFailed));
        }
        throw error;
      }
      const committed = await client.query('commit');
      // A transaction a statement failed in commits as a rollback: its work is not there.
      if (committed.command === 'ROLLBACK') throw new Error('The transaction was rolled back');
      return result;
    } finally {
      client.release(broken);
    }
  };
}

/**
 * The embedded database: one session, whose transactions already run one at a time (see
 * `pipelined`). One drizzle database, made once, sends its statements to whichever transaction is
 * open; outside one it refuses them.
 */
export function embeddedTransactions(client: PipelinedClient): ConnectionTransaction {
  let open: Transaction | null = null;
  const current = () => {
    if (!open) throw new Error('No transaction is open on this database');
    return open;
  };
  const forwarding = {
    query: (...args: Parameters<Transaction['query']>) => current().query(...args),
    exec: (...args: Parameters<Transaction['exec']>) => current().exec(...args),
    transaction: () => Promise.reject(new Error('A transaction inside a transaction is not supported here')),
  };
  const db = drizzlePglite(forwarding as unknown as PGlite, { schema }) as unknown as Db;
  return (work) =>
    client.transaction(async (tx) => {
      open = tx;
      try {
        return await work(db);
      } finally {
        open = null;
      }
    });
}
