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
 * Transactions keep PGlite's own locks, so a statement sent here and one sent through the raw
 * client (migrations, upkeep) never interleave.
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

/** The whole extended-protocol exchange of one statement, as one message. */
export function statementMessage(sql: string, params: readonly unknown[]): Uint8Array {
  const { serialize } = protocol;
  return concat([
    serialize.parse({ text: sql }),
    serialize.bind({ values: params.map(toParameter) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ]);
}

type Failure = Error & { query?: string; params?: unknown[]; queryOptions?: QueryOptions };

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

export function pipelined(pglite: PGlite): PipelinedClient {
  // Its only callers are this module's, under the locks below.
  const send = async <T>(sql: string, params: unknown[] = [], options: QueryOptions | undefined, inTransaction: boolean) =>
    pglite._runExclusiveQuery(async () => {
      let messages;
      try {
        messages = await pglite.execProtocolStream(statementMessage(sql, params), { syncToFs: false });
      } catch (error) {
        throw withStatement(error, sql, params, options);
      }
      if (!inTransaction) await pglite.syncToFs();
      return parse.parseResults(messages, pglite.parsers, options)[0] as Results<T>;
    });

  // A simple-protocol statement (no parameters): PGlite's own path is already one call.
  const simple = async (sql: string, options: QueryOptions | undefined, inTransaction: boolean) =>
    pglite._runExclusiveQuery(async () => {
      let messages;
      try {
        messages = await pglite.execProtocolStream(concat([protocol.serialize.query(sql), protocol.serialize.sync()]), { syncToFs: false });
      } catch (error) {
        throw withStatement(error, sql, undefined, options);
      }
      if (!inTransaction) await pglite.syncToFs();
      return parse.parseResults(messages, pglite.parsers, options);
    });

  return {
    pglite,
    query: async <T>(sql: string, params?: unknown[], options?: QueryOptions) => {
      await pglite._checkReady();
      return pglite._runExclusiveTransaction(() => send<T>(sql, params, options, false));
    },
    exec: async (sql: string, options?: QueryOptions) => {
      await pglite._checkReady();
      return pglite._runExclusiveTransaction(() => simple(sql, options, false));
    },
    transaction: async <T>(callback: (tx: Transaction) => Promise<T>) => {
      await pglite._checkReady();
      return pglite._runExclusiveTransaction(async () => {
        await simple('BEGIN', undefined, true);
        let closed = false;
        const open = () => {
          if (closed) throw new Error('Transaction is closed');
        };
        const tx = {
          query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
            open();
            return send<R>(sql, params, options, true);
          },
          exec: async (sql: string, options?: QueryOptions) => {
            open();
            return simple(sql, options, true);
          },
          rollback: async () => {
            open();
            await simple('ROLLBACK', undefined, true);
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
            const [committed] = await simple('COMMIT', undefined, true);
            // A transaction a statement failed in commits as a rollback: its work is not there.
            if (committed?.command === 'ROLLBACK') throw new Error('The transaction was rolled back');
          }
          await pglite.syncToFs();
          return result;
        } catch (error) {
          if (!closed) {
            closed = true;
            await simple('ROLLBACK', undefined, true);
          }
          throw error;
        }
      });
    },
  };
}
