import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db, DbHandle } from './client';
import { transact } from './connection-transaction';
import { prebuilt, slot } from './prebuilt';
import { conversations } from './schema';
import { openTestDb } from '../test/test-db';
import { logQueries } from '../test/query-log';

let database: DbHandle;

beforeAll(async () => {
  database = await openTestDb();
});
afterAll(() => database.close());

const insertConversation = (db: Db) => {
  const now = new Date();
  return db.insert(conversations).values({ id: slot('id'), ownerVisitorId: 'tx-visitor', source: 'agent', sourceId: 'x', createdAt: now, updatedAt: now }).returning({ id: conversations.id });
};
const build = vi.fn(insertConversation);
const write = prebuilt((db: Db, _shape: 'one') => build(db));
const stored = async (id: string) => (await database.db.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, id))).length;

describe('a transaction on a connection of its own', () => {
  it('commits what its work wrote, between one begin and one commit', async () => {
    const id = randomUUID();
    const log = logQueries(database);
    try {
      const rows = await transact(database.db, (tx) => write(tx, 'one', { id }));
      expect(rows).toEqual([{ id }]);
    } finally {
      log.stop();
    }
    expect(log.statements[0]).toBe('begin');
    expect(log.statements.at(-1)).toBe('commit');
    expect(log.statements.filter((statement) => statement.startsWith('insert into "conversations"'))).toHaveLength(1);
    expect(await stored(id)).toBe(1);
  });

  it('rolls back when its work throws, and when a statement in it is refused and the refusal swallowed', async () => {
    const thrown = randomUUID();
    const refused = randomUUID();
    await expect(
      transact(database.db, async (tx) => {
        await write(tx, 'one', { id: thrown });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await expect(
      transact(database.db, async (tx) => {
        await write(tx, 'one', { id: refused });
        await write(tx, 'one', { id: refused }).catch(() => undefined);
      }),
    ).rejects.toThrow();
    expect(await stored(thrown)).toBe(0);
    expect(await stored(refused)).toBe(0);
    // The connection is usable afterwards.
    const next = randomUUID();
    await transact(database.db, (tx) => write(tx, 'one', { id: next }));
    expect(await stored(next)).toBe(1);
  });

  it('builds a prebuilt statement once per connection, not once per transaction', async () => {
    build.mockClear();
    for (let i = 0; i < 30; i += 1) await transact(database.db, (tx) => write(tx, 'one', { id: randomUUID() }));
    // The embedded database has one connection; PostgreSQL's pool hands the one it has idle back.
    expect(build.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('keeps each transaction’s statements on its own connection while several run at once', async () => {
    const ids = Array.from({ length: 12 }, () => randomUUID());
    await Promise.all(
      ids.map((id, n) =>
        transact(database.db, async (tx) => {
          await write(tx, 'one', { id });
          if (n % 3 === 0) throw new Error('this one rolls back');
        }).catch(() => undefined),
      ),
    );
    const kept = await Promise.all(ids.map(stored));
    expect(kept).toEqual(ids.map((_, n) => (n % 3 === 0 ? 0 : 1)));
  });
});
