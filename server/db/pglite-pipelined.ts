import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/**
 * The embedded database's client as the server uses it, with each parameterised statement sent
 * in one call instead of six.
 *
 * PGlite's `query` sends a statement as six separate protocol calls (parse, describe the
 * statement, bind, describe the portal, execute, sync): it asks the database for the parameters'
 * types first, to choose how to write each value. Every call crosses into the WebAssembly
 * database and back and parses what it said, and the statements of every request wait for each
 * other on the server's one thread, so the calls are most of what a statement costs
 * (docs/decisions/016-first-event-under-load.md). Here parse, bind, describe, execute and sync go
 * in one message, as a networked driver (node-postgres) sends them: the parameters are written
 * from their JavaScript values, their types left to the database to infer exactly as before.
 *
 * Each statement's text is also parsed and planned once, not at every use: the first use names it
 * (PostgreSQL keeps a named statement for the session) and later uses only bind and execute it
 * (see `StatementNames`).
 *
 * Only PGlite's public calls are used: its protocol call, its flush to disk and its lock
 * (`runExclusive`), so a statement sent here and one sent through the raw client (migrations,
 * upkeep) never interleave.
 */
export type PipelinedClient = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T>;
  /** The client it sends through. */
  readonly pglite: PGlite;
};

/** A value in an array literal: quoted, with its quotes and backslashes escaped. */
const arrayElement = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return arrayLiteral(value);
  const text = textOf(value);
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
};

const arrayLiteral = (values: unknown[]): string => `{${values.map(arrayElement).join(',')}}`;

/** A non-null value in PostgreSQL's text form. */
const textOf = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value);
  if (ArrayBuffer.isView(value)) return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

/**
 * A parameter as it is bound: bytes as they are (in binary form, as bytea reads them), null as
 * null, anything else in PostgreSQL's text form: a date as ISO 8601, an array as an array literal,
 * an object as JSON, a number, a bigint or a boolean as written.
 */
export function toParameter(value: unknown): string | Uint8Array | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return value;
  return textOf(value);
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const message = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.byteLength;
  }
  return message;
};

/** A statement's name in the session, and whether this use must parse it first. */
export type Named = { name: string; parse: boolean };

/**
 * The whole extended-protocol exchange of one statement, as one message: parse (unless the named
 * statement is already parsed), bind, describe, execute and sync; `closing` names statements to
 * drop first.
 */
export function statementMessage(sql: string, params: readonly unknown[], named?: Named, closing: readonly string[] = []): Uint8Array {
  const { serialize } = protocol;
  const name = named?.name ?? '';
  return concat([
    ...closing.map((old) => serialize.close({ type: 'S', name: old })),
    ...(named?.parse === false ? [] : [serialize.parse({ name, text: sql })]),
    serialize.bind({ statement: name, values: params.map(toParameter) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
}

/** Distinct statement texts kept parsed; the least recently used beyond this is dropped. */
export const KEPT_STATEMENTS = 256;

/**
 * The names of the statements parsed in the session, by text. PostgreSQL parses, analyses and plans
 * an unnamed statement at every use, and in WebAssembly that is most of a statement's cost (0.67 ms
 * against 0.12 ms for the question's read, ADR 016); a named statement is parsed and planned once
 * and its plan kept, re-planned by the database itself when a table it reads changes.
 *
 * A statement whose use failed is forgotten and dropped, whatever failed: its parse (it then never
 * existed), or its execution. Dropping is a `Close` sent ahead of the next statement; closing a
 * statement that does not exist is no error, and it is honoured inside a failed transaction. Named
 * statements outlive a rollback, so a transaction's end changes nothing here.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly toClose: string[] = [];
  private next = 0;

  constructor(private readonly kept = KEPT_STATEMENTS) {}

  /** The name to send `sql` under, and whether it is parsed by this use. */
  use(sql: string): Named {
    const known = this.names.get(sql);
    if (known !== undefined) {
      // Most recently used last, so the first in the map is the one to drop.
      this.names.delete(sql);
      this.names.set(sql, known);
      return { name: known, parse: false };
    }
    const name = `kraken_${(this.next += 1)}`;
    this.names.set(sql, name);
    if (this.names.size > this.kept) {
      const [oldest] = this.names;
      if (oldest) this.drop(oldest[0]);
    }
    return { name, parse: true };
  }

  /** After a failed use: parsed again next time, under a new name. */
  drop(sql: string): void {
    const name = this.names.get(sql);
    if (name === undefined) return;
    this.names.delete(sql);
    this.toClose.push(name);
  }

  /** The statements to drop, sent with the next message. */
  takeClosing(): string[] {
    return this.toClose.splice(0);
  }
}

type Failure = Error & { query?: string; params?: unknown[]; queryOptions?: QueryOptions };

/**
 * What a statement's rows are read with: PGlite's parsers, under the caller's own. PGlite merges
 * them by copying its 300-odd parsers for every statement (80 µs, against 4 for the rows
 * themselves), and the server's SQL builder hands over new ones with each query; a prototype chain
 * reads the same and copies only the caller's.
 */
const rowReading = (pglite: PGlite, options: QueryOptions | undefined): [PGlite['parsers'], QueryOptions | undefined] =>
  options?.parsers
    ? [Object.assign(Object.create(pglite.parsers) as PGlite['parsers'], options.parsers), { ...options, parsers: undefined }]
    : [pglite.parsers, options];

/** The database's refusal, named with the statement that drew it (as PGlite's own query does). */
const withStatement = (error: unknown, sql: string, params: unknown[] | undefined, options: QueryOptions | undefined) => {
  if (error instanceof Error && 'severity' in error) {
    const failure = error as Failure;
    failure.query = sql;
    failure.params = params;
    failure.queryOptions = options;
  }
  return error;
};

/**
 * Runs what it is given one at a time, in the order given: the statements of one transaction,
 * which its callback may send at once (PGlite's protocol calls must not interleave).
 */
const oneAtATime = () => {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = last.then(work, work);
    last = run.catch(() => undefined);
    return run;
  };
};

/** Waits for the database to be ready; refuses once it is closed (as PGlite's own calls do). */
const ready = async (pglite: PGlite) => {
  if (pglite.closed) throw new Error('PGlite is closed');
  await pglite.waitReady;
};

/**
 * Each call here holds PGlite's `runExclusive` for its whole length: a statement, or a whole
 * transaction from BEGIN to its end. PGlite's own `query`, `exec` and `transaction` take the same
 * lock for each statement, so a statement sent through the raw client (migrations, upkeep) never
 * lands inside a transaction of this one, nor one of these inside a statement of its.
 */
export function pipelined(pglite: PGlite, statements = new StatementNames()): PipelinedClient {
  // Its only callers are this module's, holding the lock.
  const send = async <T>(sql: string, params: unknown[] = [], options: QueryOptions | undefined, inTransaction: boolean) => {
    let messages;
    const closing = statements.takeClosing();
    try {
      messages = await pglite.execProtocolStream(statementMessage(sql, params, statements.use(sql), closing), { syncToFs: false });
    } catch (error) {
      statements.drop(sql);
      throw withStatement(error, sql, params, options);
    }
    if (!inTransaction) await pglite.syncToFs();
    return parse.parseResults(messages, ...rowReading(pglite, options))[0] as Results<T>;
  };

  // A simple-protocol statement (no parameters): PGlite's own path is already one call.
  const simple = async (sql: string, options: QueryOptions | undefined, inTransaction: boolean) => {
    let messages;
    try {
      messages = await pglite.execProtocolStream(concat([protocol.serialize.query(sql), protocol.serialize.sync()]), { syncToFs: false });
    } catch (error) {
      throw withStatement(error, sql, undefined, options);
    }
    if (!inTransaction) await pglite.syncToFs();
    return parse.parseResults(messages, ...rowReading(pglite, options));
  };

  return {
    pglite,
    query: async <T>(sql: string, params?: unknown[], options?: QueryOptions) => {
      await ready(pglite);
      return pglite.runExclusive(() => send<T>(sql, params, options, false));
    },
    exec: async (sql: string, options?: QueryOptions) => {
      await ready(pglite);
      return pglite.runExclusive(() => simple(sql, options, false));
    },
    transaction: async <T>(callback: (tx: Transaction) => Promise<T>) => {
      await ready(pglite);
      return pglite.runExclusive(async () => {
        const inTurn = oneAtATime();
        await simple('BEGIN', undefined, true);
        let closed = false;
        const open = () => {
          if (closed) throw new Error('Transaction is closed');
        };
        const tx = {
          query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
            open();
            return inTurn(() => send<R>(sql, params, options, true));
          },
          exec: async (sql: string, options?: QueryOptions) => {
            open();
            return inTurn(() => simple(sql, options, true));
          },
          rollback: async () => {
            open();
            await inTurn(() => simple('ROLLBACK', undefined, true));
            closed = true;
          },
          get closed() {
            return closed;
          },
        } as unknown as Transaction;
        try {
          const result = await callback(tx);
          if (!closed) {
            closed = true;
            const [committed] = await inTurn(() => simple('COMMIT', undefined, true));
            // A transaction a statement failed in commits as a rollback: its work is not there.
            if (committed?.command === 'ROLLBACK') throw new Error('The transaction was rolled back');
          }
          await pglite.syncToFs();
          return result;
        } catch (error) {
          if (!closed) {
            closed = true;
            await inTurn(() => simple('ROLLBACK', undefined, true));
          }
          throw error;
        }
      });
    },
  };
}
