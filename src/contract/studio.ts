import * as v from 'valibot';
import { AGENT_CATEGORIES, STARTERS_MAX } from './agents';
import { idSchema, timestampSchema } from './common';
import { AGENT_VISIBILITIES } from './constants';
import { pageRequestEntries, pageSchema } from './paging';

/**
 * The agent studio: people make agents of their own, as drafts, and publish them as versions
 * (docs/decisions/030-agent-versions-and-model-registry.md). An agent's content is saved whole
 * each time; publishing makes an immutable version with a new `versionId`, and the market shows
 * the agent's live version while a draft may wait beside it.
 */
export const AGENT_LANGUAGES = ['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'ja'] as const;
export type AgentContentLanguage = (typeof AGENT_LANGUAGES)[number];

export { AGENT_VISIBILITIES };
export type AgentVisibility = (typeof AGENT_VISIBILITIES)[number];

export const AGENT_NAME_MAX = 100;
export const AGENT_INTRO_MAX = 1000;
export const SYSTEM_PROMPT_MAX = 20_000;
export const STARTER_MAX = 300;
/** An avatar is an upload's path, or a small inline SVG (`data:image/svg+xml`) such as the seeded agents have. */
export const AVATAR_MAX = 8192;
/** The highest `maxOutput` accepted whatever the model; a model's own `maxOutput` lowers it. */
export const MAX_OUTPUT_CEILING = 1_000_000;
/** How many agents one person may have (retired ones included), and versions one agent. */
export const AGENTS_PER_PERSON_MAX = 100;
export const VERSIONS_PER_AGENT_MAX = 500;
export const REJECT_REASON_MAX = 500;

/** Why a studio call was refused, in the envelope's `reason`. */
export const STUDIO_ERRORS = {
  /** Publishing with nothing new: the agent has no draft (409). */
  nothingToPublish: 'AGENT_NOTHING_TO_PUBLISH',
  /** The agent was retired: it can be read, exported and its conversations read, nothing more (409; 410 on a question). */
  retired: 'AGENT_RETIRED',
  /** `organisation` visibility for an agent of nobody's organisation (400). */
  noOrganisation: 'AGENT_NO_ORGANISATION',
  /** An avatar that is neither an upload of the caller's (an image) nor a small inline SVG (400). */
  avatarRefused: 'AGENT_AVATAR_REFUSED',
  /** `maxOutput` above what the agent's model can write (400). */
  parametersOutOfRange: 'AGENT_PARAMETERS_OUT_OF_RANGE',
  /** The approval asked for is not pending any more (409). */
  notPending: 'AGENT_VERSION_NOT_PENDING',
  /** Too many agents for one person, or versions for one agent (409). */
  limitReached: 'AGENT_LIMIT_REACHED',
  /** The default agent (the product's fallback chat) cannot be retired (409). */
  defaultAgent: 'AGENT_DEFAULT_KEPT',
} as const;

export const agentParametersSchema = v.object({
  temperature: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(2))),
  topP: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  maxOutput: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_OUTPUT_CEILING))),
});
export type AgentParameters = v.InferOutput<typeof agentParametersSchema>;

const startersSchema = v.pipe(v.array(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(STARTER_MAX))), v.maxLength(STARTERS_MAX));
const wordsSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(AGENT_NAME_MAX)),
  intro: v.pipe(v.string(), v.trim(), v.maxLength(AGENT_INTRO_MAX)),
});

/** Starter questions per language, each list optional: `{ "en-US": ["…"], ja: ["…"] }`. */
export const agentStartersSchema = v.object({
  'zh-CN': v.optional(startersSchema),
  'en-US': v.optional(startersSchema),
  'fr-FR': v.optional(startersSchema),
  'de-DE': v.optional(startersSchema),
  ja: v.optional(startersSchema),
});
/** The name and intro in other languages, each optional; `name` and `intro` stay the agent's own. */
export const agentWordsSchema = v.object({
  'zh-CN': v.optional(wordsSchema),
  'en-US': v.optional(wordsSchema),
  'fr-FR': v.optional(wordsSchema),
  'de-DE': v.optional(wordsSchema),
  ja: v.optional(wordsSchema),
});

const contentEntries = {
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(AGENT_NAME_MAX)),
  /** An upload's `url` (`/api/media/file/…`, an image of the caller's), a small inline SVG, or empty for a generated one. */
  avatar: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(AVATAR_MAX)), ''),
  intro: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(AGENT_INTRO_MAX)), ''),
  category: v.optional(v.nullable(v.picklist(AGENT_CATEGORIES)), null),
  systemPrompt: v.optional(v.pipe(v.string(), v.maxLength(SYSTEM_PROMPT_MAX)), ''),
  /** A model of `GET /api/workflow/model/list`; null: whichever is the default when a question is asked. */
  modelId: v.optional(v.nullable(idSchema), null),
  parameters: v.optional(agentParametersSchema, {}),
  starters: v.optional(agentStartersSchema, {}),
  translations: v.optional(agentWordsSchema, {}),
  /** Whether people chatting with it may pick another model of their list. */
  allowModelChoice: v.optional(v.boolean(), false),
  visibility: v.optional(v.picklist(AGENT_VISIBILITIES), 'private'),
};

/** What an agent says: what a draft holds and a version keeps. */
export const agentContentSchema = v.object(contentEntries);
export type AgentContent = v.InferOutput<typeof agentContentSchema>;

/** Body of `agent/save`: a new agent (no `agentId`), or its draft replaced by this content. */
export const agentSaveRequestSchema = v.object({ agentId: v.optional(idSchema), ...contentEntries });
export type AgentSaveRequest = v.InferInput<typeof agentSaveRequestSchema>;

export const agentIdRequestSchema = v.object({ agentId: idSchema });
export const agentIdQuerySchema = v.object({ agentId: idSchema });
export const agentRestoreRequestSchema = v.object({ agentId: idSchema, versionId: idSchema });

/** Where an agent's last publish to the market stands: nothing waiting, waiting for an admin, refused. */
export const APPROVAL_STATES = ['none', 'pending', 'rejected'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

const stateEntries = {
  agentId: idSchema,
  /** The content shown is the unpublished draft (else the latest version). */
  isDraft: v.boolean(),
  /** Whether it has a draft not yet published. */
  hasDraft: v.boolean(),
  /** The live version (what the market and questions get), null when never published. */
  versionId: v.nullable(v.string()),
  /** On the market for whom its visibility says. */
  published: v.boolean(),
  retired: v.boolean(),
  approval: v.picklist(APPROVAL_STATES),
  /** The version waiting for an admin, while `approval` is `pending`. */
  pendingVersionId: v.nullable(v.string()),
  /** An admin's reason, when the last version sent for approval was refused. */
  rejectReason: v.nullable(v.string()),
  /** The author's organisation when the agent was made; null: none. */
  companyId: v.nullable(v.string()),
  createBy: v.string(),
  createByName: v.string(),
  updatedAt: timestampSchema,
};

/** An agent as its author (or an admin) edits it: the draft, or the latest version when there is none. */
export const studioAgentSchema = v.object({ ...stateEntries, content: agentContentSchema });
export type StudioAgent = v.InferOutput<typeof studioAgentSchema>;

/** An agent in the author's list. */
export const studioAgentSummarySchema = v.object({
  ...stateEntries,
  name: v.string(),
  avatar: v.string(),
  intro: v.string(),
  category: v.nullable(v.string()),
  visibility: v.picklist(AGENT_VISIBILITIES),
});
export type StudioAgentSummary = v.InferOutput<typeof studioAgentSummarySchema>;

/** `mine`: the caller's agents; `all`: every agent (admins only, 403 otherwise). */
export const agentMyListRequestSchema = v.object({
  ...pageRequestEntries,
  scope: v.optional(v.picklist(['mine', 'all']), 'mine'),
  keyword: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
});
export const studioAgentPageSchema = pageSchema(studioAgentSummarySchema);

/**
 * A version's state: `published` (approved or needing no approval; the live one is `live`),
 * `pending` (public, waiting for an admin), `rejected` (with the reason), `withdrawn` (a newer
 * publish or the agent's retirement replaced it before an admin decided).
 */
export const VERSION_STATES = ['published', 'pending', 'rejected', 'withdrawn'] as const;
export const agentVersionSchema = v.object({
  versionId: idSchema,
  agentId: idSchema,
  status: v.picklist(VERSION_STATES),
  live: v.boolean(),
  createdAt: timestampSchema,
  createdByName: v.string(),
  reviewedAt: v.nullable(timestampSchema),
  reviewedByName: v.nullable(v.string()),
  reviewNote: v.nullable(v.string()),
  content: agentContentSchema,
});
export type AgentVersion = v.InferOutput<typeof agentVersionSchema>;
export const agentVersionsRequestSchema = v.object({ agentId: idSchema, ...pageRequestEntries });
export const agentVersionPageSchema = pageSchema(agentVersionSchema);

/** Versions sent to the public market, waiting for an admin, oldest first. */
export const reviewListRequestSchema = v.object({ ...pageRequestEntries });
export const reviewPageSchema = pageSchema(agentVersionSchema);
export const reviewDecisionRequestSchema = v.object({ versionId: idSchema });
export const reviewRejectRequestSchema = v.object({
  versionId: idSchema,
  reason: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(REJECT_REASON_MAX)),
});

/**
 * An agent as a file that moves between installations: no id of this one (agent, version,
 * account, organisation, upload, model), no secret. Its model is named as the provider's API
 * names it; an installation without such a model gives it its default. Only a small inline SVG
 * avatar travels; an uploaded one does not. Read strictly: an unknown field is refused.
 */
export const AGENT_DOCUMENT_FORMAT = 'kraken-agent';
export const AGENT_DOCUMENT_VERSION = 1;

const strictStarters = v.strictObject({
  'zh-CN': v.optional(startersSchema),
  'en-US': v.optional(startersSchema),
  'fr-FR': v.optional(startersSchema),
  'de-DE': v.optional(startersSchema),
  ja: v.optional(startersSchema),
});
const strictWords = v.strictObject({
  'zh-CN': v.optional(v.strictObject(wordsSchema.entries)),
  'en-US': v.optional(v.strictObject(wordsSchema.entries)),
  'fr-FR': v.optional(v.strictObject(wordsSchema.entries)),
  'de-DE': v.optional(v.strictObject(wordsSchema.entries)),
  ja: v.optional(v.strictObject(wordsSchema.entries)),
});

export const agentDocumentSchema = v.strictObject({
  format: v.literal(AGENT_DOCUMENT_FORMAT),
  version: v.literal(AGENT_DOCUMENT_VERSION),
  exportedAt: v.optional(timestampSchema),
  agent: v.strictObject({
    name: contentEntries.name,
    avatar: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(AVATAR_MAX), v.startsWith('data:image/svg+xml'))),
    intro: contentEntries.intro,
    category: contentEntries.category,
    systemPrompt: contentEntries.systemPrompt,
    model: v.optional(
      v.nullable(
        v.strictObject({
          model: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
          name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(80))),
        }),
      ),
      null,
    ),
    parameters: v.optional(v.strictObject(agentParametersSchema.entries), {}),
    starters: v.optional(strictStarters, {}),
    translations: v.optional(strictWords, {}),
    allowModelChoice: contentEntries.allowModelChoice,
  }),
});
export type AgentDocument = v.InferOutput<typeof agentDocumentSchema>;
export const agentImportRequestSchema = v.object({ document: agentDocumentSchema });
