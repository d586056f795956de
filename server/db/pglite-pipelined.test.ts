import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pipelined, StatementNames, toParameter, type PipelinedClient } from './pglite-pipelined';

let pglite: PGlite;
let client: PipelinedClient;

beforeAll(async () => {
  pglite = await PGlite.create();
  client = pipelined(pglite);
  await pglite.exec(`
    create table things (
      id text primary key,
      n integer,
      big bigint,
      price numeric(10, 2),
      on_sale boolean,
      at timestamptz,
      meta jsonb,
      tags text[],
      bytes bytea
    );
  `);
});
afterAll(() => pglite.close());

const insert =
  'insert into things (id, n, big, price, on_sale, at, meta, tags, bytes) values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning *';

/** What the server's SQL builder hands the driver: its parsers keep dates as the text PostgreSQL sent. */
const asDrizzle = {
  rowMode: 'array' as const,
  parsers: { [types.TIMESTAMPTZ]: (value: string) => value },
};

describe('a statement in one call', () => {
  it('writes and reads every kind of value as PGlite\'s own query does', async () => {
    const values = [
      'a "quoted" \\ thing',
      42,
      9_007_199_254_740_993n,
      '12.50',
      true,
      new Date('2026-11-25T04:00:00.123Z'),
      { nested: { list: [1, 'two', null] }, text: 'é "q"' },
      ['plain', 'with "quote"', 'with \\ backslash', 'comma, brace }', null],
      new Uint8Array([0, 1, 2, 254, 255]),
    ];
    const mine = await client.query<unknown[]>(insert, ['one', ...values.slice(1)], asDrizzle);
    const theirs = await pglite.query<unknown[]>(insert, ['two', ...values.slice(1)], asDrizzle);
    expect(mine.fields).toEqual(theirs.fields);
    expect(mine.rows[0]!.slice(1)).toEqual(theirs.rows[0]!.slice(1));
    expect(mine.affectedRows).toBe(1);

    const read = await client.query<Record<string, unknown>>('select * from things where id = $1', ['one']);
    expect(read.rows).toHaveLength(1);
    const row = read.rows[0]!;
    expect(row.n).toBe(42);
    expect(row.big).toBe(9_007_199_254_740_993n);
    expect(row.on_sale).toBe(true);
    expect((row.at as Date).toISOString()).toBe('2026-11-25T04:00:00.123Z');
    expect(row.meta).toEqual(values[6]);
    expect(row.tags).toEqual(values[7]);
    expect(row.bytes).toEqual(values[8]);
    // The text with its quotes and backslash is stored as it was.
    expect((await client.query<{ id: string }>('select id from things where id = $1', [values[0]])).rows).toEqual([]);
    await client.query('insert into things (id) values ($1)', [values[0]]);
    expect((await client.query<{ id: string }>('select id from things where id = $1', [values[0]])).rows).toEqual([{ id: values[0] }]);
  });

  it('binds null and undefined as null, and takes a date where text is expected as ISO 8601', async () => {
    expect(toParameter(null)).toBeNull();
    expect(toParameter(undefined)).toBeNull();
    const { rows } = await client.query<{ a: string | null; b: string | null; c: string }>('select $1::text as a, $2::text as b, $3::text as c', [
      null,
      undefined,
      new Date('2026-01-02T03:04:05.000Z'),
    ]);
    expect(rows).toEqual([{ a: null, b: null, c: '2026-01-02T03:04:05.000Z' }]);
  });

  it('sends each statement in one protocol call, not six', async () => {
    const calls = vi.spyOn(pglite, 'execProtocolStream');
    try {
      await client.query('select $1::int + 1 as n', [1]);
      expect(calls).toHaveBeenCalledTimes(1);
      await pglite.query('select $1::int + 1 as n', [1]);
      expect(calls).toHaveBeenCalledTimes(1 + 6);
    } finally {
      calls.mockRestore();
    }
  });

  it('a refused statement rejects with the database\'s error and its statement, and the client goes on', async () => {
    const failure = await client.query('insert into things (id, n) values ($1, $2)', ['bad', 'not a number']).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '22P02', query: 'insert into things (id, n) values ($1, $2)', params: ['bad', 'not a number'] });
    const syntax = await client.query('selec 1').catch((error: unknown) => error);
    expect(syntax).toMatchObject({ code: '42601' });
    expect((await client.query<{ n: number }>('select $1::int as n', [7])).rows).toEqual([{ n: 7 }]);
  });

  it('runs a script of several statements without parameters', async () => {
    const results = await client.exec('select 1 as a; select 2 as b');
    expect(results.map((result) => result.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);
  });
});

describe('a transaction', () => {
  it('commits what its statements wrote', async () => {
    const value = await client.transaction(async (tx) => {
      await tx.query('insert into things (id, n) values ($1, $2)', ['tx-commit', 1]);
      return (await tx.query<{ n: number }>('select n from things where id = $1', ['tx-commit'])).rows[0]!.n;
    });
    expect(value).toBe(1);
    expect((await client.query('select 1 from things where id = $1', ['tx-commit'])).rows).toHaveLength(1);
  });

  it('rolls back when its callback throws, and when a statement in it is refused', async () => {
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into things (id) values ($1)', ['tx-thrown']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into things (id) values ($1)', ['tx-refused']);
        await tx.query('insert into things (id) values ($1)', ['tx-refused']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    // A refusal the callback swallows still leaves nothing: the commit is a rollback.
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into things (id) values ($1)', ['tx-swallowed']);
        await tx.query('selec 1').catch(() => {});
      }),
    ).rejects.toThrow('rolled back');
    const { rows } = await client.query('select id from things where id = any($1::text[])', [['tx-thrown', 'tx-refused', 'tx-swallowed']]);
    expect(rows).toEqual([]);
  });

  it('runs statements its callback sends at once one after the other, each answered with its own rows', async () => {
    let inFlight = 0;
    let most = 0;
    const send = pglite.execProtocolStream.bind(pglite);
    const watched = vi.spyOn(pglite, 'execProtocolStream').mockImplementation(async (message, options) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        return await send(message, options);
      } finally {
        inFlight -= 1;
      }
    });
    try {
      const values = await client.transaction(async (tx) =>
        Promise.all(Array.from({ length: 8 }, (_, n) => tx.query<{ n: number }>('select $1::int as n', [n]).then((result) => result.rows[0]!.n))),
      );
      expect(values).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(most).toBe(1);
    } finally {
      watched.mockRestore();
    }
  });

  it('rolls back when asked, and is closed afterwards', async () => {
    await client.transaction(async (tx) => {
      await tx.query('insert into things (id) values ($1)', ['tx-rollback']);
      await tx.rollback();
      expect(tx.closed).toBe(true);
      await expect(tx.query('select 1')).rejects.toThrow('closed');
    });
    expect((await client.query('select 1 from things where id = $1', ['tx-rollback'])).rows).toHaveLength(0);
  });

  it('keeps other statements, on either client, out until it ends', async () => {
    const order: string[] = [];
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = client.transaction(async (tx) => {
      await tx.query('insert into things (id) values ($1)', ['tx-held']);
      inside();
      await held;
      order.push('transaction ends');
    });
    await entered;
    const mine = client.query('select count(*)::int as n from things where id = $1', ['tx-held']).then((result) => {
      order.push('pipelined query');
      return result;
    });
    const raw = pglite.query('select 1').then(() => order.push('raw query'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    release();
    await Promise.all([transaction, mine, raw]);
    expect(order[0]).toBe('transaction ends');
    expect((await mine).rows).toEqual([{ n: 1 }]);
  });
});

/** The protocol messages each call sent, by their type letter (P parse, B bind, C close…), one string a call. */
const sentMessages = (on: PGlite) => {
  const sent: string[] = [];
  const send = on.execProtocolStream.bind(on);
  const spy = vi.spyOn(on, 'execProtocolStream').mockImplementation((message, options) => {
    let kinds = '';
    // Each frontend message: a type byte, then its length (4 bytes, counting itself).
    for (let at = 0; at < message.length; at += 1 + new DataView(message.buffer, message.byteOffset + at + 1, 4).getInt32(0)) {
      kinds += String.fromCharCode(message[at]!);
    }
    sent.push(kinds);
    return send(message, options);
  });
  return { sent, restore: () => spy.mockRestore() };
};

/** The statements the session keeps parsed whose text is `text`, read through PGlite's own client. */
const keptAs = async (on: PGlite, text: string) =>
  (await on.query<{ name: string }>('select name from pg_prepared_statements where statement = $1', [text])).rows.map((row) => row.name);

describe('statements parsed once', () => {
  it('parses a statement at its first use only: later uses bind and execute the kept one, with their own values', async () => {
    const text = 'select $1::int * 2 as doubled';
    const { sent, restore } = sentMessages(pglite);
    try {
      expect((await client.query(text, [2])).rows).toEqual([{ doubled: 4 }]);
      expect((await client.query(text, [5])).rows).toEqual([{ doubled: 10 }]);
      expect(sent).toEqual(['PBDES', 'BDES']);
    } finally {
      restore();
    }
    expect(await keptAs(pglite, text)).toHaveLength(1);
  });

  it('a statement whose use failed is dropped and parsed again under a new name', async () => {
    const text = 'select 10 / $1::int as tenth';
    await expect(client.query(text, [0])).rejects.toMatchObject({ code: '22012', query: text });
    const { sent, restore } = sentMessages(pglite);
    try {
      expect((await client.query(text, [5])).rows).toEqual([{ tenth: 2 }]);
      expect(sent).toEqual(['CPBDES']);
    } finally {
      restore();
    }
    expect(await keptAs(pglite, text)).toHaveLength(1);
  });

  it('a text that does not parse is refused with its own error every time', async () => {
    for (let time = 0; time < 2; time += 1) await expect(client.query('selec $1', [1])).rejects.toMatchObject({ code: '42601' });
  });

  it('a statement first parsed in a transaction that rolled back is kept after it', async () => {
    const text = 'select $1::text as echoed';
    await expect(
      client.transaction(async (tx) => {
        await tx.query(text, ['inside']);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const { sent, restore } = sentMessages(pglite);
    try {
      expect((await client.query(text, ['after'])).rows).toEqual([{ echoed: 'after' }]);
      expect(sent).toEqual(['BDES']);
    } finally {
      restore();
    }
  });

  it('a table changed under a kept statement: the use that meets it fails, the next is parsed again', async () => {
    await pglite.exec('create table reshaped (id text)');
    const text = 'select * from reshaped where id = $1';
    await client.query(text, ['a']);
    await pglite.exec('alter table reshaped add column n int');
    await pglite.query('insert into reshaped values ($1, $2)', ['a', 1]);
    // PostgreSQL re-plans a kept statement for a changed table, but will not change its columns.
    await expect(client.query(text, ['a'])).rejects.toMatchObject({ code: '0A000' });
    expect((await client.query(text, ['a'])).rows).toEqual([{ id: 'a', n: 1 }]);
  });

  it('keeps at most as many statements as it is told, dropping the least recently used', async () => {
    const own = await PGlite.create();
    try {
      const small = pipelined(own, new StatementNames(2));
      const texts = ['select $1::int as a', 'select $1::int as b', 'select $1::int as c'];
      await small.query(texts[0]!, [1]);
      await small.query(texts[1]!, [1]);
      await small.query(texts[0]!, [1]);
      await small.query(texts[2]!, [1]);
      // Dropped with the next statement sent: the one used least recently, `b`.
      await small.query(texts[0]!, [1]);
      const kept = (await own.query<{ statement: string }>('select statement from pg_prepared_statements order by statement')).rows;
      expect(kept.map((row) => row.statement)).toEqual([texts[0], texts[2]]);
    } finally {
      await own.close();
    }
  });
});
