import { sql } from 'drizzle-orm';
import type { AgentContent } from '../../src/contract/studio';
import type { Db } from '../db/client';
import { agentDrafts, agents, agentVersions, applications, companies } from '../db/schema';
import { AGENTS, APPLICATIONS, COMPANIES, type SeedAgent } from './catalog';

const SEED_START = Date.UTC(2025, 0, 6, 9, 0, 0);
const DAY = 24 * 3600 * 1000;

/** What a seeded agent says, as any agent's draft or version holds it. */
export const seededContent = (agent: SeedAgent): AgentContent => ({
  name: agent.name,
  avatar: agent.avatar,
  intro: agent.intro,
  category: agent.category as AgentContent['category'],
  systemPrompt: agent.systemPrompt,
  modelId: null,
  parameters: {},
  starters: agent.starters,
  translations: agent.translations,
  allowModelChoice: false,
  visibility: agent.public ? 'public' : 'organisation',
});

/** The seeded agents' first version: the one a fresh installation has live. */
export const seededVersionId = (agentId: string) => `${agentId}-v1`;

/**
 * Companies, the agents market and the applications; running it again changes nothing. The
 * seeded agents are ordinary agents: each published one with a first version, the draft one with
 * a draft, all editable by an admin in the studio afterwards.
 */
export async function seedCatalog(db: Db): Promise<void> {
  await db.insert(companies).values(COMPANIES).onConflictDoNothing();
  const at = (i: number) => new Date(SEED_START + i * DAY);
  const inserted = await db
    .insert(agents)
    .values(
      AGENTS.map((agent, i) => {
        const { creator, translations, starters, ...row } = agent;
        return {
          ...row,
          createBy: creator.id,
          createByName: creator.name,
          updateBy: creator.id,
          updateByName: creator.name,
          versionId: agent.published ? seededVersionId(agent.id) : '',
          visibility: seededContent(agent).visibility,
          translations,
          starters,
          createdAt: at(i),
          updatedAt: at(i),
        };
      }),
    )
    .onConflictDoNothing()
    .returning({ id: agents.id });
  await db
    .insert(agentVersions)
    .values(
      AGENTS.flatMap((agent, i) =>
        agent.published
          ? [{ id: seededVersionId(agent.id), agentId: agent.id, content: seededContent(agent), status: 'published' as const, createdAt: at(i), createdBy: agent.creator.id, createdByName: agent.creator.name }]
          : [],
      ),
    )
    .onConflictDoNothing();
  const fresh = new Set(inserted.map((row) => row.id));
  const drafts = AGENTS.filter((agent) => !agent.published && fresh.has(agent.id));
  if (drafts.length > 0) {
    await db
      .insert(agentDrafts)
      .values(drafts.map((agent) => ({ agentId: agent.id, content: seededContent(agent), updatedAt: at(0), updatedBy: agent.creator.id, updatedByName: agent.creator.name })))
      .onConflictDoNothing();
  }
  // Rows seeded before the agents kept their words themselves get them, while still as seeded.
  const words = JSON.stringify(AGENTS.map(({ id, translations, starters }) => ({ id, translations, starters })));
  await db.execute(sql`update ${agents} set translations = seeded.translations, starters = seeded.starters
    from jsonb_to_recordset(${words}::jsonb) as seeded(id text, translations jsonb, starters jsonb)
    where ${agents.id} = seeded.id and ${agents.translations} = '{}'::jsonb and ${agents.versionId} in (seeded.id || '-v1', '')`);
  await db
    .insert(applications)
    .values(
      APPLICATIONS.map((app, i) => ({
        ...app,
        createdAt: at(i),
        updatedAt: at(i),
      })),
    )
    .onConflictDoNothing();
}
