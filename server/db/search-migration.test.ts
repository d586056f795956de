import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { searchable } from '../services/search-text';

const migrations = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const before = mkdtempSync(join(tmpdir(), 'migrations-before-search-'));
afterAll(() => rmSync(before, { recursive: true, force: true }));

/** The migrations folder as it was before titles and messages had a searchable form. */
function migrationsBeforeSearch(): string {
  cpSync(migrations, before, { recursive: true });
  const journalPath = join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === '0015_search_and_titles');
  expect(index).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalPath, JSON.stringify(journal));
  return before;
}

describe('the search migration', () => {
  it('gives older titles and messages the searchable form new ones are written with, and keeps older titles as set by the person', async () => {
    const client = await PGlite.create();
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsBeforeSearch() });
    const title = 'Ｒésumé Tips';
    const content = 'Un CAFÉ crème ＡＢＣ İstanbul';
    await client.query(
      `insert into conversations (id, owner_visitor_id, source, source_id, title, created_at, updated_at)
        values ('named', 'v', 'agent', 'a', $1, now(), now()), ('untitled', 'v', 'agent', 'a', null, now(), now())`,
      [title],
    );
    await client.query(`insert into messages (id, conversation_id, role, content, status, created_at) values ('m', 'named', 'user', $1, 'complete', now())`, [content]);

    await migrate(db, { migrationsFolder: migrations });

    const conversations = await client.query<{ id: string; title_by: string | null; title_search: string }>('select id, title_by, title_search from conversations order by id');
    expect(conversations.rows).toEqual([
      { id: 'named', title_by: 'person', title_search: searchable(title) },
      { id: 'untitled', title_by: null, title_search: '' },
    ]);
    const [message] = (await client.query<{ content_search: string }>('select content_search from messages')).rows;
    expect(message!.content_search).toBe(searchable(content));
    expect(message!.content_search).toBe('un cafe creme abc istanbul');
    await client.close();
  });
});
