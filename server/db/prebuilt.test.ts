import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db, DbHandle } from './client';
import { prebuilt, slot } from './prebuilt';
import { conversations, messages } from './schema';
import { openTestDb } from '../test/test-db';
import { logQueries } from '../test/query-log';

let database: DbHandle;
let conversationId: string;

beforeAll(async () => {
  database = await openTestDb();
  conversationId = randomUUID();
  const now = new Date();
  await database.db.insert(conversations).values({ id: conversationId, ownerVisitorId: 'someone', source: 'agent', sourceId: 'x', createdAt: now, updatedAt: now });
});
afterAll(() => database.close());

/** A message written through a prebuilt insert: one shape with a parent, one without. */
const insertMessage = (db: Db, shape: 'reply' | 'first') =>
  db
    .insert(messages)
    .values({
      id: slot('id'),
      conversationId: slot('conversationId'),
      role: 'user',
      content: slot('content'),
      status: 'complete',
      files: slot('files'),
      createdAt: slot('createdAt'),
      ...(shape === 'reply' ? { parentId: slot('parentId') } : {}),
    })
    .returning();
const build = vi.fn(insertMessage);
const write = prebuilt((db: Db, shape: 'reply' | 'first') => build(db, shape) as ReturnType<typeof insertMessage>);

const readBack = (id: string) => database.db.select().from(messages).where(eq(messages.id, id));

describe('a prebuilt statement', () => {
  it('builds its text once per shape and sends each run its own values', async () => {
    const log = logQueries(database);
    const first = randomUUID();
    const createdAt = new Date('2026-11-28T08:00:00.123Z');
    try {
      await write(database.db, 'first', { id: first, conversationId, content: 'one', files: [], createdAt });
      for (const content of ['two', 'three']) {
        await write(database.db, 'reply', { id: randomUUID(), conversationId, content, files: [], createdAt, parentId: first });
      }
    } finally {
      log.stop();
    }
    expect(build).toHaveBeenCalledTimes(2);
    expect(log.statements).toHaveLength(3);
    const stored = await database.db.select({ content: messages.content, parentId: messages.parentId }).from(messages).where(eq(messages.conversationId, conversationId));
    expect(stored).toEqual(
      expect.arrayContaining([
        { content: 'one', parentId: null },
        { content: 'two', parentId: first },
        { content: 'three', parentId: first },
      ]),
    );
  });

  it('writes each value through its column, as drizzle does, and answers rows as drizzle reads them', async () => {
    const id = randomUUID();
    const files = [{ fileId: 'f1', name: 'a "quoted", [bracketed] name.pdf', kind: 'document', mimeType: 'application/pdf', size: 3 }];
    const createdAt = new Date('2026-11-28T08:00:00.123Z');
    const [returned] = await write(database.db, 'first', { id, conversationId, content: "it's 'quoted'; -- and more", files, createdAt });
    expect(returned).toMatchObject({ id, content: "it's 'quoted'; -- and more", files, createdAt, parentId: null, role: 'user' });
    expect(returned!.createdAt).toBeInstanceOf(Date);
    const [stored] = await readBack(id);
    expect(stored).toEqual(returned);
    // The files are a JSON array in the column, not text or a PostgreSQL array.
    const result = (await database.db.execute(sql`select jsonb_typeof(files) as kind from messages where id = ${id}`)) as unknown as { rows: { kind: string }[] };
    const [kind] = result.rows;
    expect(kind).toEqual({ kind: 'array' });
  });

  it('runs inside the transaction it is given, on its connection', async () => {
    const id = randomUUID();
    const rollback = new Error('rolled back on purpose');
    await expect(
      database.db.transaction(async (tx) => {
        await write(tx as unknown as Db, 'first', { id, conversationId, content: 'in a transaction', files: [], createdAt: new Date() });
        // Seen by the transaction's next statement: written on its connection.
        expect(await tx.select({ id: messages.id }).from(messages).where(eq(messages.id, id))).toHaveLength(1);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await readBack(id)).toHaveLength(0);
  });

  it('names a value it was not given', async () => {
    await expect(write(database.db, 'first', { id: randomUUID(), conversationId, files: [], createdAt: new Date() })).rejects.toThrow(/content/);
  });
});
