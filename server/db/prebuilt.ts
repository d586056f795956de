import { sql, type Placeholder } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Statements built once, run many times.
 *
 * Drizzle builds a query's SQL text from its tree of tables, columns and conditions every time the
 * query runs, and for the statements every question sends that was a sixth of the server's CPU
 * under load (docs/decisions/016-first-event-under-load.md, amendment of 2026-11-28). A prebuilt
 * statement is written with the same query builder, with `slot`s where its values go; its text
 * is built the first time it runs, for each shape it takes, and later runs only fill in the values
 * (through the same column encoders drizzle uses: a date, a JSON column) and read the rows back as
 * drizzle would.
 *
 * It runs on whatever it is given, the database or a transaction, through that session's own
 * connection.
 */

/** Where a prebuilt statement takes a value, filled in at each run from the values by that name. */
export const slot = (name: string): Placeholder => sql.placeholder(name);

/** A query builder's prepared form (drizzle's public `prepare`), run with its slots' values. */
type Prepared<Result> = { execute(values?: Record<string, unknown>): Promise<Result> };
/** A drizzle query builder that can be prepared. */
type Preparable<Result> = { prepare(name: string): Prepared<Result> };

/**
 * A statement of a few shapes (which conditions it has, how many rows it writes): `build` writes
 * the shape it is given with `slot`s for every value. Only drizzle's public calls are used: the
 * builder's `prepare`, then `execute` with the values.
 *
 * A shape is built and prepared once per database object: drizzle binds a prepared statement to
 * the object (and so the connection) it was prepared on. Inside a transaction from `transact`
 * (connection-transaction.ts) that object lasts as long as its connection, and the statement is
 * built once per connection; inside drizzle's own `db.transaction`, once per transaction. The
 * name given is empty, so the statement is sent unnamed, as every other, and works through a
 * connection pooler.
 */
export function prebuilt<Shape extends string | number, Result>(build: (db: Db, shape: Shape) => Preparable<Result>) {
  // Per database object (each connection's, each test's), then per shape.
  const built = new WeakMap<Db, Map<Shape, Prepared<Result>>>();
  return (db: Db, shape: Shape, values: Record<string, unknown>): Promise<Result> => {
    let shapes = built.get(db);
    if (!shapes) built.set(db, (shapes = new Map()));
    let statement = shapes.get(shape);
    if (!statement) {
      statement = build(db, shape).prepare('');
      shapes.set(shape, statement);
    }
    return statement.execute(values);
  };
}
