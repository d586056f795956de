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
 * connection: the statement text is kept, not a statement prepared on one connection, so it works
 * through a connection pooler too. The value is sent unnamed, as every other statement.
 */

/** Where a prebuilt statement takes a value, filled in at each run from the values by that name. */
export const slot = (name: string): Placeholder => sql.placeholder(name);

/** What drizzle runs a built statement with (its prepared query), on a session's connection. */
type Runner = { client: unknown; execute(values: Record<string, unknown>): Promise<unknown> };
/** A drizzle query builder: `_prepare()` builds its SQL once and answers what runs it. */
type Preparable = { _prepare(name?: string): Runner };
/** The session under a database or a transaction (drizzle's own, not part of its typed surface). */
type Session = { client: unknown; constructor: unknown };

const sessionOf = (db: Db) => (db as unknown as { session: Session }).session;

/**
 * A statement of a few shapes (which conditions it has, how many rows it writes): `build` writes
 * the shape it is given with `slot`s for every value, and is called once per shape and driver.
 * The shape must name everything that changes the statement's text; the values fill its slots.
 */
export function prebuilt<Shape extends string | number, Result>(build: (db: Db, shape: Shape) => PromiseLike<Result>) {
  // Per kind of session (one per driver: their runners differ), then per shape.
  const built = new Map<unknown, Map<Shape, Runner>>();
  return (db: Db, shape: Shape, values: Record<string, unknown>): Promise<Result> => {
    const session = sessionOf(db);
    let shapes = built.get(session.constructor);
    if (!shapes) built.set(session.constructor, (shapes = new Map()));
    let template = shapes.get(shape);
    if (!template) {
      template = (build(db, shape) as unknown as Preparable)._prepare();
      shapes.set(shape, template);
    }
    // The built statement, run on this session's connection: a transaction's, or the pool.
    const runner = Object.create(template) as Runner;
    runner.client = session.client;
    return runner.execute(values) as Promise<Result>;
  };
}
