import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { AGENT_VISIBILITIES } from '../../src/contract/constants';
import type { AgentContent, AgentParameters } from '../../src/contract/studio';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Raw bytes; node-postgres wants a Buffer, which PGlite takes as well. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
});

export const companies = pgTable('companies', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
});

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** A phone number or an e-mail address, stored lower-cased; never changes. */
    username: text('username').notNull(),
    /** `scrypt$N$r$p$salt$hash`, see server/auth/password.ts. */
    passwordHash: text('password_hash').notNull(),
    nickname: text('nickname'),
    avatar: text('avatar').notNull().default(''),
    wechatId: text('wechat_id'),
    /** Null when the user belongs to no company; decides which non-public agents they see. */
    companyId: text('company_id').references(() => companies.id),
    /** member, operator (the operations area of their company) or admin (the whole instance). */
    role: text('role', { enum: ['member', 'operator', 'admin'] }).notNull().default('member'),
    /** Set by an admin: the account cannot sign in and its sessions are refused. */
    disabledAt: at('disabled_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [uniqueIndex('users_username_unique').on(t.username), index('users_company_idx').on(t.companyId)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the bearer token, base64url; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The session's public name, for listing and signing out one session; never a credential. */
    id: text('id').notNull().default(sql`gen_random_uuid()::text`),
    /** How it was opened: password, wechat, google, scan, miniprogram. */
    method: text('method'),
    /** The browser's User-Agent and the client address when it signed in (shown on the account page). */
    userAgent: text('user_agent'),
    address: text('address'),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    /** Refreshed at most every few minutes, not on every request. */
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), uniqueIndex('sessions_id_unique').on(t.id)],
);

/**
 * An agent as the market reads it: its live (published) version's content, copied here when that
 * version goes live, so the market, a conversation's creation and a question read one row. Its
 * draft waits in `agent_drafts`, its versions in `agent_versions`. A never-published agent has a
 * row (with its first draft's content) that nobody sees: `published` is false.
 */
export const agents = pgTable(
  'agents',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    avatar: text('avatar').notNull(),
    intro: text('intro').notNull(),
    category: text('category'),
    systemPrompt: text('system_prompt').notNull(),
    /** The author's organisation when the agent was made; null for an author of none. */
    companyId: text('company_id').references(() => companies.id),
    /** Its author: an account id (the seeded agents name a studio that has no account). */
    createBy: text('create_by').notNull(),
    createByName: text('create_by_name').notNull(),
    updateBy: text('update_by').notNull(),
    updateByName: text('update_by_name').notNull(),
    /** The live version's id; empty until the first version goes live. */
    versionId: text('version_id').notNull(),
    /** `visibility` is `public`: kept for servers older than migration 0017, which read only this. */
    public: boolean('public').notNull(),
    /** A version is live and the agent is not retired. */
    published: boolean('published').notNull(),
    /**
     * Hidden from servers older than migration 0017 (which know no private agents, nor agents of no
     * organisation): true for those. This server reads drafts from `agent_drafts`, never here.
     */
    isDraft: boolean('is_draft').notNull(),
    /** Before migration 0017: its model reads images. The model's own `vision` decides now. */
    vision: boolean('vision').notNull().default(false),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    /** Who sees the live version: its author, the author's organisation, or everyone (an admin approved it). */
    visibility: text('visibility', { enum: AGENT_VISIBILITIES }).notNull().default('organisation'),
    /** A model of the registry (`models.id`, `env`, `offline`); null: the default model. */
    modelId: text('model_id'),
    parameters: jsonb('parameters').$type<AgentParameters>().notNull().default({}),
    starters: jsonb('starters').$type<AgentContent['starters']>().notNull().default({}),
    translations: jsonb('translations').$type<AgentContent['translations']>().notNull().default({}),
    allowModelChoice: boolean('allow_model_choice').notNull().default(false),
    /** Retired by its author or an admin: off the market for good; its conversations are read only. */
    retiredAt: at('retired_at'),
  },
  (t) => [index('agents_created_idx').on(t.createdAt), index('agents_author_idx').on(t.createBy, t.updatedAt)],
);

/** An agent's draft: the content its author is editing, beside the live version. At most one per agent. */
export const agentDrafts = pgTable('agent_drafts', {
  agentId: text('agent_id')
    .primaryKey()
    .references(() => agents.id, { onDelete: 'cascade' }),
  content: jsonb('content').$type<AgentContent>().notNull(),
  updatedAt: at('updated_at').notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedByName: text('updated_by_name').notNull(),
});

/**
 * Every version an agent was published as, never changed but for its review: `published` (live
 * now or before), `pending` (for the public market, waiting for an admin), `rejected` (with the
 * admin's reason), `withdrawn` (replaced by a newer publish, or the agent retired, first).
 */
export const agentVersions = pgTable(
  'agent_versions',
  {
    id: text('id').primaryKey(),
    /** Publishing order (timestamps can tie). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    content: jsonb('content').$type<AgentContent>().notNull(),
    status: text('status', { enum: ['published', 'pending', 'rejected', 'withdrawn'] }).notNull(),
    createdAt: at('created_at').notNull(),
    createdBy: text('created_by').notNull(),
    createdByName: text('created_by_name').notNull(),
    reviewedAt: at('reviewed_at'),
    reviewedBy: text('reviewed_by'),
    reviewedByName: text('reviewed_by_name'),
    reviewNote: text('review_note'),
  },
  (t) => [
    index('agent_versions_agent_idx').on(t.agentId, t.seq),
    index('agent_versions_pending_idx').on(t.seq).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * An OpenAI-compatible model service added in the console. Its key is sealed with CONNECTOR_KEY
 * (server/auth/sealed.ts) and never answered. The environment's provider (LLM_*) is not stored.
 */
export const modelProviders = pgTable('model_providers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  baseUrl: text('base_url').notNull(),
  sealedKey: text('sealed_key'),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/** A model of a console provider. At most one is the default (the index); none: the environment's, or the first enabled. */
export const models = pgTable(
  'models',
  {
    id: text('id').primaryKey(),
    providerId: text('provider_id')
      .notNull()
      .references(() => modelProviders.id, { onDelete: 'cascade' }),
    /** As the provider's API names it: the request's `model`. */
    model: text('model').notNull(),
    displayName: text('display_name').notNull(),
    contextWindow: integer('context_window'),
    maxOutput: integer('max_output'),
    vision: boolean('vision').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('models_provider_model_unique').on(t.providerId, t.model),
    uniqueIndex('models_one_default').on(t.isDefault).where(sql`${t.isDefault}`),
  ],
);

export const applications = pgTable('applications', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  avatar: text('avatar').notNull(),
  intro: text('intro').notNull(),
  companyId: text('company_id')
    .notNull()
    .references(() => companies.id),
  public: boolean('public').notNull(),
  published: boolean('published').notNull(),
  isDraft: boolean('is_draft').notNull(),
  createdAt: at('created_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});

/** A conversation belongs to exactly one owner: a user, or a visitor until that visitor logs in. */
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey(),
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    ownerVisitorId: text('owner_visitor_id'),
    source: text('source', { enum: ['agent', 'workflow'] }).notNull(),
    sourceId: text('source_id').notNull(),
    /** Null until the conversation is named, by its creator or by its first question. */
    title: text('title'),
    /**
     * Who named it: `person` (its creator, or a rename), `question` (the first words of its first
     * question), `model` (a short title the model wrote after the first answer). Only a title the
     * person did not set is replaced by the model's.
     */
    titleBy: text('title_by', { enum: ['person', 'question', 'model'] }),
    /** The title as a search compares it (server/services/search-text.ts `searchable`). */
    titleSearch: text('title_search').notNull().default(''),
    pinned: boolean('pinned').notNull().default(false),
    /**
     * What the conversation is for: a person's `chat`, listed in their history; `drafting`, the
     * operations area asking a writer agent for drafts; `preview`, an agent's author trying its
     * draft. Only `chat` is listed; the others are reachable by their id.
     */
    purpose: text('purpose', { enum: ['chat', 'drafting', 'preview'] }).notNull().default('chat'),
    /**
     * The last message of the chosen path through the message tree (which version of each
     * question and answer is shown); null reads as the newest message.
     */
    currentLeafId: text('current_leaf_id'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    /** An agent conversation: the agent's version its last question was answered by (set at creation, then at each question). */
    agentVersionId: text('agent_version_id'),
  },
  (t) => [index('conversations_user_idx').on(t.ownerUserId), index('conversations_visitor_idx').on(t.ownerVisitorId)],
);

export type StoredFileRef = {
  fileId: string;
  name: string;
  url: string;
  kind: 'image' | 'audio' | 'video' | 'other';
  mimeType: string;
  size: number;
};

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    /** Insertion order; timestamps can tie. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    /** The content as a search compares it (server/services/search-text.ts `searchable`), written with it. */
    contentSearch: text('content_search').notNull().default(''),
    status: text('status', { enum: ['streaming', 'complete', 'incomplete', 'failed'] }).notNull(),
    error: text('error'),
    files: jsonb('files').$type<StoredFileRef[]>().notNull().default([]),
    /** For an answer: the user message it answers. */
    replyTo: text('reply_to'),
    /**
     * The message before this one on its path; null for a conversation's first. Messages with the
     * same parent are versions of one another (an edited question, a regenerated answer).
     */
    parentId: text('parent_id'),
    /** The owner's verdict on an answer, with an optional comment. */
    feedback: text('feedback', { enum: ['up', 'down'] }),
    feedbackComment: text('feedback_comment'),
    /** What the model service reported the answer cost, when it reports it. */
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    createdAt: at('created_at').notNull(),
    /** While `streaming`: the server instance writing it, which renews the lease while it lives. */
    leaseOwner: text('lease_owner'),
    /** Past this, the writer is taken for gone and any instance may store the answer incomplete. */
    leaseExpiresAt: at('lease_expires_at'),
    /**
     * How many times an instance continued this answer by itself after taking it over from one
     * that was gone (CONTINUE_TAKEN_OVER): bounded, so an answer that brings its writer down is
     * not continued, and brings the next one down, for ever.
     */
    takeoverContinuations: integer('takeover_continuations').notNull().default(0),
    /** An answer: the model that wrote it (the registry's id) and its name then. */
    modelId: text('model_id'),
    modelName: text('model_name'),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.seq),
    index('messages_parent_idx').on(t.parentId),
    // Answers being written are few at any time: counting an owner's reads only these.
    index('messages_streaming_idx').on(t.conversationId).where(sql`${t.status} = 'streaming'`),
  ],
);

export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
    ownerVisitorId: text('owner_visitor_id'),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['image', 'audio', 'video', 'other'] }).notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('uploads_user_idx').on(t.ownerUserId), index('uploads_visitor_idx').on(t.ownerVisitorId)],
);

/**
 * File bytes kept in the database when there is PostgreSQL and no object storage, so every
 * instance reads what any of them stored (server/media/database-storage.ts). The key is the
 * storage's own (`uploads/<id>`, `downloads/<name>`), never a name a user typed.
 */
export const storedFiles = pgTable('stored_files', {
  key: text('key').primaryKey(),
  size: bigint('size', { mode: 'number' }).notNull(),
  contentType: text('content_type').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** A stored file's bytes in pieces of at most 1 MiB, read one at a time when streamed. */
export const storedFileChunks = pgTable(
  'stored_file_chunks',
  {
    key: text('key')
      .notNull()
      .references(() => storedFiles.key, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);

/**
 * The text read out of an upload (a text file, a PDF), once, the first time it is sent to a
 * model; `error` says why none could be read. `chars` is the whole text's length, `text` at most
 * what is ever sent.
 */
export const uploadTexts = pgTable('upload_texts', {
  uploadId: text('upload_id')
    .primaryKey()
    .references(() => uploads.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  chars: integer('chars').notNull(),
  error: text('error', { enum: ['unreadable', 'encrypted', 'too_long_to_read', 'too_large_to_read', 'no_text', 'busy'] }),
  createdAt: at('created_at').notNull(),
});

/**
 * A scan-login ticket: opened by a waiting browser, confirmed by a signed-in user, then consumed
 * once by the browser that opened it (`finger_print` holds the SHA-256 of that browser's secret).
 */
export const scanTickets = pgTable('scan_tickets', {
  id: text('id').primaryKey(),
  fingerPrint: text('finger_print').notNull(),
  status: text('status', { enum: ['waiting', 'confirmed', 'denied', 'expired', 'consumed'] }).notNull(),
  /** Who approved (or denied) it. */
  userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
  /** The waiting browser, as the person asked to approve sees it. */
  userAgent: text('user_agent'),
  address: text('address'),
  createdAt: at('created_at').notNull(),
  expiresAt: at('expires_at').notNull(),
  /** When and from which of the approver's sessions (its public id) the decision was made. */
  decidedAt: at('decided_at'),
  decidedBySession: text('decided_by_session'),
});

export type StoredBrief = {
  topic: string;
  audience: string;
  tone: string;
  keywords: string[];
  language: 'zh-CN' | 'en-US' | 'fr-FR' | 'de-DE' | 'ja';
};
export type StoredDraft = { title: string; body: string };

/** A social-media task of the operations area: its company's, made by one of its operators. */
export const tasks = pgTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    /** Who made it; null once that account is deleted (the task stays the company's). */
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Whose task it is: only this company's operators see it, and it posts with this company's connector. */
    companyId: text('company_id').references(() => companies.id),
    platform: text('platform', { enum: ['xiaohongshu', 'linkedin'] }).notNull(),
    title: text('title').notNull(),
    brief: jsonb('brief').$type<StoredBrief>().notNull(),
    drafts: jsonb('drafts').$type<StoredDraft[]>().notNull().default([]),
    chosenDraft: integer('chosen_draft'),
    body: text('body').notNull(),
    images: jsonb('images').$type<StoredFileRef[]>().notNull().default([]),
    status: text('status', { enum: ['draft', 'ready', 'scheduled', 'publishing', 'due', 'published', 'failed'] }).notNull(),
    scheduledAt: at('scheduled_at'),
    failureReason: text('failure_reason'),
    publishedAt: at('published_at'),
    externalId: text('external_id'),
    externalUrl: text('external_url'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    /** While `publishing`: the server instance publishing it, which renews the lease while it lives. */
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: at('lease_expires_at'),
    /** Written before the platform is called: a task taken over with it set may already be posted. */
    publishAttemptedAt: at('publish_attempted_at'),
  },
  (t) => [
    index('tasks_owner_idx').on(t.ownerUserId, t.updatedAt),
    index('tasks_company_idx').on(t.companyId, t.updatedAt),
    index('tasks_due_idx').on(t.status, t.scheduledAt),
  ],
);

/** Every status change of a task, by the operator or by the scheduler. */
export const taskEvents = pgTable(
  'task_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    at: at('at').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    by: text('by', { enum: ['operator', 'scheduler'] }).notNull(),
    note: text('note'),
  },
  (t) => [index('task_events_task_idx').on(t.taskId, t.seq)],
);

/** A WeChat user (openid of one app, unionid across apps) linked to the account it signs in as. */
export const wechatIdentities = pgTable(
  'wechat_identities',
  {
    appId: text('app_id').notNull(),
    openid: text('openid').notNull(),
    unionid: text('unionid'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** As WeChat last said; the account's own nickname and avatar are the user's to change. */
    nickname: text('nickname').notNull(),
    avatar: text('avatar').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.appId, t.openid] }),
    index('wechat_identities_unionid_idx').on(t.unionid),
    index('wechat_identities_user_idx').on(t.userId),
  ],
);

/**
 * A Google account linked to a user, by Google's stable subject id (`sub`); e-mail, name and
 * picture are as Google last said.
 */
export const googleIdentities = pgTable(
  'google_identities',
  {
    sub: text('sub').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    name: text('name').notNull(),
    picture: text('picture').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('google_identities_user_idx').on(t.userId)],
);

/**
 * The `state` of an OAuth sign-in in progress: issued by this server, short-lived and used once,
 * so a code can only finish a sign-in this server started. Only its hash is stored.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    provider: text('provider', { enum: ['google'] }).notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('oauth_states_expires_idx').on(t.expiresAt)],
);

/**
 * Counters shared by every server instance: login failures, scan tickets and sign-ins started,
 * questions and upload bytes per identity. One row per key and window, updated atomically
 * (`INSERT … ON CONFLICT DO UPDATE … RETURNING`); rows past `expires_at` are swept.
 */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').primaryKey(),
    count: bigint('count', { mode: 'number' }).notNull(),
    windowStartedAt: at('window_started_at').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('rate_counters_expires_idx').on(t.expiresAt)],
);

/**
 * One-time codes handed out by the WeChat simulator's consent page, so a code issued by one
 * instance is accepted by any other; a code is deleted when used, and expired rows are swept.
 */
export const wechatSimulatorCodes = pgTable(
  'wechat_simulator_codes',
  {
    code: text('code').primaryKey(),
    name: text('name').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('wechat_simulator_codes_expires_idx').on(t.expiresAt)],
);

/**
 * Credentials a provider hands out one at a time and every instance must share (WeChat keeps
 * only the newest access token): fetched by one instance under an advisory lock, read by all.
 */
export const providerTokens = pgTable('provider_tokens', {
  /** e.g. `wechat:<appId>:access-token`. */
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  /** When the value must be fetched again (a little before the provider says it expires). */
  expiresAt: at('expires_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});

/**
 * A conversation shared by link: a snapshot of its chosen path when the link was made (later
 * messages are not in it), readable by anyone holding the token. The token is stored as is: it
 * guards a copy of text the same database already holds, and the owner can show the link again.
 */
export const shares = pgTable(
  'shares',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull(),
    ownerUserId: text('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /** Null unless the owner chose to show their name; taken when the link was made. */
    ownerName: text('owner_name'),
    messages: jsonb('messages').$type<{ role: 'user' | 'assistant'; content: string; files: { name: string; mimeType: string; size: number }[]; createdAt: string }[]>().notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('shares_token_unique').on(t.token), index('shares_owner_idx').on(t.ownerUserId), index('shares_conversation_idx').on(t.conversationId)],
);

/** A company's publishing credential; the secret is sealed with CONNECTOR_KEY (see server/auth/sealed.ts). */
export const connectors = pgTable(
  'connectors',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: ['linkedin'] }).notNull(),
    sealedSecret: text('sealed_secret').notNull(),
    authorUrn: text('author_urn').notNull(),
    updatedAt: at('updated_at').notNull(),
    updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.platform] })],
);

/** An invitation link into a company with a role; only its token's hash is kept. */
export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['member', 'operator', 'admin'] }).notNull(),
    note: text('note'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('invitations_token_unique').on(t.tokenHash)],
);

/** A one-time link to choose a new password; only its token's hash is kept. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/**
 * Every admin and operator action: who, from which session, what, on what. Append-only: the
 * database refuses to change or delete a row (a trigger, see migration 0013).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    at: at('at').notNull(),
    /** No foreign key: the record outlives the account. */
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    sessionId: text('session_id'),
    companyId: text('company_id'),
    action: text('action').notNull(),
    target: text('target'),
    details: jsonb('details').$type<Record<string, string>>().notNull().default({}),
  },
  (t) => [index('audit_log_action_idx').on(t.action, t.seq)],
);
