import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Agent, AgentLanguage, AgentTranslations } from '../../src/contract/agents';
import type { Page } from '../../src/contract/paging';
import type { Db } from '../db/client';
import { agents } from '../db/schema';
import type { Caller } from '../http/caller';
import { notFound } from '../http/errors';
import { AGENT_STARTERS } from '../seed/catalog-starters';
import { AGENT_WORDS } from '../seed/catalog-words';
import { containsPattern, visibleAgent } from './visibility';

export type AgentRow = typeof agents.$inferSelect;

/** `visionOverride`: the deployment's MODEL_ACCEPTS_IMAGES, which wins over the agent's own setting. */
export function toAgent(row: AgentRow, visionOverride: boolean | null = null): Agent {
  return {
    id: row.id,
    agentId: row.id,
    name: row.name,
    avatar: row.avatar,
    intro: row.intro,
    ...(row.category ? { category: row.category } : {}),
    createBy: row.createBy,
    createByName: row.createByName,
    updateBy: row.updateBy,
    updateByName: row.updateByName,
    versionId: row.versionId,
    companyId: row.companyId,
    public: row.public,
    published: row.published,
    isDraft: row.isDraft,
    updatedAt: row.updatedAt.toISOString(),
    ...translationsOf(row.id),
    ...(AGENT_STARTERS[row.id] ? { starters: AGENT_STARTERS[row.id]!['en-US'] } : {}),
    vision: visionOverride ?? row.vision,
  };
}

/** The seeded words in each language, with the starter questions beside them. */
function translationsOf(agentId: string): { translations?: AgentTranslations } {
  const words = AGENT_WORDS[agentId];
  if (!words) return {};
  const starters = AGENT_STARTERS[agentId];
  const translations: AgentTranslations = {};
  for (const [language, entry] of Object.entries(words) as [AgentLanguage, NonNullable<AgentTranslations[AgentLanguage]>][]) {
    translations[language] = starters ? { ...entry, starters: starters[language] } : entry;
  }
  return { translations };
}

export async function listAgents(
  db: Db,
  caller: Caller,
  query: { current: number; pageSize: number; keyword?: string; category?: string },
  visionOverride: boolean | null = null,
): Promise<Page<Agent>> {
  const where = and(
    visibleAgent(caller),
    query.keyword ? or(ilike(agents.name, containsPattern(query.keyword)), ilike(agents.intro, containsPattern(query.keyword))) : undefined,
    query.category ? eq(agents.category, query.category) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(agents)
      .where(where)
      .orderBy(desc(agents.createdAt), agents.id)
      .limit(query.pageSize)
      .offset((query.current - 1) * query.pageSize),
    db.select({ value: count() }).from(agents).where(where),
  ]);
  return { list: rows.map((row) => toAgent(row, visionOverride)), total: total?.value ?? 0, current: query.current, pageSize: query.pageSize };
}

/** The agent when the caller may see it; 404 otherwise, whether it exists or not. */
export async function findVisibleAgent(db: Db, caller: Caller, agentId: string): Promise<AgentRow> {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, agentId), visibleAgent(caller)))
    .limit(1);
  if (!row) throw notFound('Agent');
  return row;
}
