import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { AGENT_VISIBILITIES } from './constants';
import { pageRequestEntries, pageSchema } from './paging';

export { DEFAULT_AGENT_ID } from './constants';

/** Up to four questions a new conversation with the agent offers to ask with one click. */
export const STARTERS_MAX = 4;
const startersSchema = v.pipe(v.array(v.pipe(v.string(), v.maxLength(300))), v.maxLength(STARTERS_MAX));

const agentWordsSchema = v.object({
  name: v.pipe(v.string(), v.maxLength(200)),
  intro: v.pipe(v.string(), v.maxLength(1000)),
  starters: v.optional(startersSchema),
});

/** An agent's name and intro in the product's languages, each optional: `{ "fr-FR": { name, intro } }`. */
export const agentTranslationsSchema = v.object({
  'zh-CN': v.optional(agentWordsSchema),
  'en-US': v.optional(agentWordsSchema),
  'fr-FR': v.optional(agentWordsSchema),
  'de-DE': v.optional(agentWordsSchema),
  ja: v.optional(agentWordsSchema),
});
export type AgentTranslations = v.InferOutput<typeof agentTranslationsSchema>;
export type AgentLanguage = keyof AgentTranslations;

export const agentSchema = v.object({
  id: idSchema,
  agentId: idSchema,
  name: v.string(),
  avatar: v.string(),
  intro: v.string(),
  category: v.optional(v.string()),
  createBy: v.string(),
  createByName: v.string(),
  updateBy: v.string(),
  updateByName: v.string(),
  versionId: v.string(),
  companyId: v.string(),
  public: v.boolean(),
  published: v.boolean(),
  isDraft: v.boolean(),
  updatedAt: v.optional(timestampSchema),
  /** The name and intro in other languages, when the agent has them; `name` and `intro` stay its own. */
  translations: v.optional(agentTranslationsSchema),
  /** Its model sees images sent with a question; without it, only their names reach the model. */
  vision: v.optional(v.boolean()),
  /** Questions a new conversation offers as buttons; in other languages under `translations`. */
  starters: v.optional(startersSchema),
  /** Who sees it: its author only, the author's organisation, or everyone. */
  visibility: v.optional(v.picklist(AGENT_VISIBILITIES)),
  /** The model it answers with (`GET /api/workflow/model/list`); null: the default model. */
  modelId: v.optional(v.nullable(v.string())),
  /** Whether a question may name another model of the caller's list (the chat's `modelId`). */
  allowModelChoice: v.optional(v.boolean()),
});
export type Agent = v.InferOutput<typeof agentSchema>;

/** An agent's name and intro in the reader's language when it has them, else as written. */
export const agentWords = (agent: Pick<Agent, 'name' | 'intro' | 'translations'>, language: string): { name: string; intro: string } => {
  const words = agent.translations?.[language as keyof AgentTranslations];
  return words ?? { name: agent.name, intro: agent.intro };
};

/** An agent's starter questions in the reader's language when it has them, else its own. */
export const agentStarters = (agent: Pick<Agent, 'starters' | 'translations'>, language: string): string[] =>
  agent.translations?.[language as AgentLanguage]?.starters ?? agent.starters ?? [];

/** The categories the market offers as filters (an agent's `category` is one of them). */
export const AGENT_CATEGORIES = ['general', 'writing', 'career', 'development', 'language', 'lifestyle', 'productivity', 'marketing'] as const;

export const publishedListRequestSchema = v.object({
  ...pageRequestEntries,
  keyword: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  category: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(50))),
});
export type PublishedListRequest = v.InferInput<typeof publishedListRequestSchema>;

export const agentPageSchema = pageSchema(agentSchema);

export const agentDetailQuerySchema = v.object({ agentId: idSchema });
export type AgentDetailQuery = v.InferInput<typeof agentDetailQuerySchema>;
