import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Agent, AgentTranslations } from '../../src/contract/agents';
import type { Page } from '../../src/contract/paging';
import { AGENT_LANGUAGES } from '../../src/contract/studio';
import type { Db } from '../db/client';
import { agents } from '../db/schema';
import type { Caller } from '../http/caller';
import { notFound } from '../http/errors';
import { usableModel, type Registry } from '../models/registry';
import { containsPattern, visibleAgent } from './visibility';

export type AgentRow = typeof agents.$inferSelect;

/** The starters an agent offers when the reader's language has none: English, else the first language it has. */
const ownStarters = (starters: AgentRow['starters']): string[] | undefined => {
  const first = AGENT_LANGUAGES.map((language) => starters[language]).find((list) => list && list.length > 0);
  return starters['en-US'] ?? first;
};

/**
 * The agent's words in each language it has words or starters in, with its starters beside them
 * (a language with starters but no words of its own shows the agent's own name and intro).
 */
function translationsOf(row: AgentRow): { translations?: AgentTranslations } {
  const translations: AgentTranslations = {};
  for (const language of AGENT_LANGUAGES) {
    const words = row.translations[language];
    const starters = row.starters[language];
    if (!words && !starters) continue;
    translations[language] = { ...(words ?? { name: row.name, intro: row.intro }), ...(starters ? { starters } : {}) };
  }
  return Object.keys(translations).length > 0 ? { translations } : {};
}

/** A live agent as the market shows it: its live version, never its system prompt. `vision`: the model it answers with sees images. */
export function toAgent(row: AgentRow, registry: Registry): Agent {
  const starters = ownStarters(row.starters);
  const model = (row.modelId ? usableModel(registry, row.modelId) : undefined) ?? registry.default;
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
    companyId: row.companyId ?? '',
    public: row.visibility === 'public',
    published: row.published,
    // The market shows live versions only: a draft waits beside the agent (agent_drafts).
    isDraft: false,
    updatedAt: row.updatedAt.toISOString(),
    ...translationsOf(row),
    ...(starters ? { starters } : {}),
    vision: model.vision,
    visibility: row.visibility,
    modelId: row.modelId,
    allowModelChoice: row.allowModelChoice,
  };
}

export async function listAgents(
  db: Db,
  caller: Caller,
  query: { current: number; pageSize: number; keyword?: string; category?: string },
  registry: Registry,
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
  return { list: rows.map((row) => toAgent(row, registry)), total: total?.value ?? 0, current: query.current, pageSize: query.pageSize };
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
