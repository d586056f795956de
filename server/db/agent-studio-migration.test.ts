import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '../seed/seed';
import { liveColumns } from '../services/agent-content';
import type { Db } from './client';

const migrations = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const before = mkdtempSync(join(tmpdir(), 'migrations-before-studio-'));
afterAll(() => rmSync(before, { recursive: true, force: true }));

/** The migrations folder as it was before agents had versions. */
function migrationsBeforeStudio(): string {
  cpSync(migrations, before, { recursive: true });
  const journalPath = join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === '0017_agent_studio_and_models');
  expect(index).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalPath, JSON.stringify(journal));
  return before;
}

describe('the agent studio migration', () => {
  it('keeps an installation seeded before it as it was: visibility from `public`, the seeded words and first versions added', async () => {
    const client = await PGlite.create();
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsBeforeStudio() });
    // As the seed wrote them then: no words of their own, every agent at `<id>-v1`.
    await client.exec(`
      insert into companies (id, name) values ('kraken', 'Kraken AI'), ('northwind', 'Northwind Media');
      insert into agents (id, name, avatar, intro, category, system_prompt, company_id, create_by, create_by_name, update_by, update_by_name, version_id, public, published, is_draft, created_at, updated_at) values
        ('SpecialNoAgentFallback', 'Kraken Assistant', 'a', 'General.', 'general', 'Be helpful.', 'kraken', 'u-kraken-studio', 'Kraken Studio', 'u-kraken-studio', 'Kraken Studio', 'SpecialNoAgentFallback-v1', true, true, false, now(), now()),
        ('kraken-brand-voice', 'Brand', 'a', 'Internal.', 'writing', 'Check.', 'kraken', 'u-kraken-studio', 'Kraken Studio', 'u-kraken-studio', 'Kraken Studio', 'kraken-brand-voice-v1', false, true, false, now(), now()),
        ('draft-seo-writer', 'SEO', 'a', 'WIP.', 'writing', 'SEO.', 'kraken', 'u-maya-fischer', 'Maya Fischer', 'u-maya-fischer', 'Maya Fischer', 'draft-seo-writer-v1', true, false, true, now(), now());
    `);

    await migrate(db, { migrationsFolder: migrations });
    await seedCatalog(db as unknown as Db);

    const rows = await client.query<{ id: string; visibility: string; version_id: string; has_words: boolean; starters_ja: number }>(
      `select id, visibility, version_id, translations ? 'fr-FR' as has_words, jsonb_array_length(starters->'ja') as starters_ja
         from agents where id in ('SpecialNoAgentFallback', 'kraken-brand-voice', 'draft-seo-writer') order by id`,
    );
    expect(rows.rows).toEqual([
      { id: 'SpecialNoAgentFallback', visibility: 'public', version_id: 'SpecialNoAgentFallback-v1', has_words: true, starters_ja: 3 },
      { id: 'draft-seo-writer', visibility: 'public', version_id: '', has_words: true, starters_ja: 3 },
      { id: 'kraken-brand-voice', visibility: 'organisation', version_id: 'kraken-brand-voice-v1', has_words: true, starters_ja: 3 },
    ]);
    const versions = await client.query<{ id: string; status: string }>(
      `select id, status from agent_versions where agent_id in ('SpecialNoAgentFallback', 'kraken-brand-voice', 'draft-seo-writer') order by id`,
    );
    expect(versions.rows).toEqual([
      { id: 'SpecialNoAgentFallback-v1', status: 'published' },
      { id: 'kraken-brand-voice-v1', status: 'published' },
    ]);
    // A second start changes nothing.
    await seedCatalog(db as unknown as Db);
    expect((await client.query('select count(*)::int as n from agent_versions')).rows).toEqual([{ n: 12 }]);
    await client.close();
  });

  it('writes what servers from before it read so that they show no agent they would show wrongly', () => {
    const content = { visibility: 'organisation' as const } as Parameters<typeof liveColumns>[0];
    // They know no private agents and no agents of no organisation: those are hidden from them (`is_draft`).
    expect(liveColumns({ ...content, visibility: 'private' }, 'kraken')).toMatchObject({ public: false, published: true, isDraft: true });
    expect(liveColumns({ ...content, visibility: 'public' }, null)).toMatchObject({ public: true, isDraft: true });
    expect(liveColumns(content, 'kraken')).toMatchObject({ public: false, isDraft: false });
    expect(liveColumns({ ...content, visibility: 'public' }, 'kraken')).toMatchObject({ public: true, isDraft: false });
  });
});
