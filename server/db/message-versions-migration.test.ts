import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';

const migrations = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const before = mkdtempSync(join(tmpdir(), 'migrations-before-versions-'));
afterAll(() => rmSync(before, { recursive: true, force: true }));

/** The migrations folder as it was before messages had versions. */
function migrationsBeforeVersions(): string {
  cpSync(migrations, before, { recursive: true });
  const journalPath = join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === '0006_message_versions');
  expect(index).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalPath, JSON.stringify(journal));
  return before;
}

describe('the message-versions migration', () => {
  it('turns the messages of existing conversations into straight lines ending at their newest message', async () => {
    const client = await PGlite.create();
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsBeforeVersions() });
    await client.exec(`
      insert into conversations (id, owner_visitor_id, source, source_id, created_at, updated_at)
        values ('c1', 'v', 'agent', 'a', now(), now()), ('c2', 'v', 'agent', 'a', now(), now()), ('empty', 'v', 'agent', 'a', now(), now());
      insert into messages (id, conversation_id, role, content, status, reply_to, created_at) values
        ('q1', 'c1', 'user', 'one', 'complete', null, now()),
        ('x1', 'c2', 'user', 'other', 'complete', null, now()),
        ('a1', 'c1', 'assistant', 'answer one', 'complete', 'q1', now()),
        ('q2', 'c1', 'user', 'two', 'complete', null, now()),
        ('y1', 'c2', 'assistant', 'other answer', 'failed', 'x1', now()),
        ('a2', 'c1', 'assistant', 'answer two', 'incomplete', 'q2', now());
    `);

    await migrate(db, { migrationsFolder: migrations });

    const rows = await client.query<{ id: string; parent_id: string | null }>('select id, parent_id from messages order by seq');
    expect(Object.fromEntries(rows.rows.map((row) => [row.id, row.parent_id]))).toEqual({
      q1: null,
      x1: null,
      a1: 'q1',
      q2: 'a1',
      y1: 'x1',
      a2: 'q2',
    });
    const leaves = await client.query<{ id: string; current_leaf_id: string | null }>('select id, current_leaf_id from conversations order by id');
    expect(leaves.rows).toEqual([
      { id: 'c1', current_leaf_id: 'a2' },
      { id: 'c2', current_leaf_id: 'y1' },
      { id: 'empty', current_leaf_id: null },
    ]);
    await client.close();
  });
});
