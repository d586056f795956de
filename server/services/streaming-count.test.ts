import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../db/client';
import { conversations, messages } from '../db/schema';
import type { Owner } from '../http/caller';
import { openTestDb } from '../test/test-db';
import { streamingAnswersOf } from './chat';

type PlanNode = { 'Relation Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; Plans?: PlanNode[] };

/** Rows each table gave the plan (rows × loops over its nodes), from EXPLAIN ANALYZE. */
function rowsRead(node: PlanNode, into = new Map<string, number>()): Map<string, number> {
  if (node['Relation Name']) {
    const name = node['Relation Name'];
    // Actual Rows is an average per loop, rounded to two decimals.
    into.set(name, (into.get(name) ?? 0) + Math.round((node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1)));
  }
  for (const child of node.Plans ?? []) rowsRead(child, into);
  return into;
}

/**
 * Counting how many answers someone has being written happens before every question's first
 * event. It must cost what that person has, not what everyone has: with hundreds asking at once,
 * a count that reads every streaming answer costs each of them the whole crowd.
 */
describe('counting an owner’s streaming answers', () => {
  let database: DbHandle;
  const now = new Date();
  const others = 60;
  const me: Owner = { visitorId: randomUUID() };

  const conversationWith = async (owner: Owner, statuses: ('streaming' | 'complete')[], at = now) => {
    const id = randomUUID();
    await database.db.insert(conversations).values({
      id,
      ownerVisitorId: owner.visitorId ?? null,
      ownerUserId: owner.userId ?? null,
      source: 'agent',
      sourceId: 'x',
      createdAt: at,
      updatedAt: at,
    });
    for (const status of statuses) {
      const question = randomUUID();
      await database.db.insert(messages).values([
        { id: question, conversationId: id, role: 'user', content: 'q', status: 'complete', createdAt: at },
        { id: randomUUID(), conversationId: id, role: 'assistant', content: '', status, replyTo: question, parentId: question, createdAt: at },
      ]);
    }
  };

  beforeAll(async () => {
    database = await openTestDb();
    for (let i = 0; i < others; i++) await conversationWith({ visitorId: randomUUID() }, ['streaming']);
    await conversationWith(me, ['streaming', 'complete']);
    await conversationWith(me, ['streaming']);
    await conversationWith(me, ['complete']);
    // Left streaming by a server that stopped long ago: no longer counted.
    await conversationWith(me, ['streaming'], new Date(now.getTime() - 60 * 60 * 1000));
  });
  afterAll(() => database.close());

  const count = async () => Number((await streamingAnswersOf(database.db, me, now))[0]!.n);

  const plan = async () => {
    const result = (await database.db.execute(sql`explain (analyze, format json) ${streamingAnswersOf(database.db, me, now)}`)) as unknown as {
      rows: { 'QUERY PLAN': [{ Plan: PlanNode }] | string }[];
    };
    const raw = result.rows[0]!['QUERY PLAN'];
    return (typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Plan as PlanNode;
  };

  it('counts the owner’s answers being written, not finished or abandoned ones, nor anyone else’s', async () => {
    expect(await count()).toBe(2);
  });

  it(`reads the owner’s streaming answers only, with ${others} other people’s streaming`, async () => {
    const read = rowsRead(await plan());
    // The owner has three streaming answers (one abandoned); the plan may read those, never the
    // 60 of other people (a join over every streaming answer read 62).
    expect(read.get('messages') ?? 0).toBeLessThanOrEqual(3);
  });

  it.runIf(!process.env.DATABASE_URL)('on the embedded database, once analyzed, reads the owner’s conversations only', async () => {
    await database.keepUp();
    const read = rowsRead(await plan());
    expect(read.get('conversations') ?? 0).toBeLessThanOrEqual(4);
    expect(read.get('messages') ?? 0).toBeLessThanOrEqual(2);
    expect(await count()).toBe(2);
  });
});
