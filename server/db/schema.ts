import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [uniqueIndex('users_username_unique').on(t.username)],
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

export const agents = pgTable(
  'agents',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    avatar: text('avatar').notNull(),
    intro: text('intro').notNull(),
    category: text('category'),
    systemPrompt: text('system_prompt').notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    createBy: text('create_by').notNull(),
    createByName: text('create_by_name').notNull(),
    updateBy: text('update_by').notNull(),
    updateByName: text('update_by_name').notNull(),
    versionId: text('version_id').notNull(),
    public: boolean('public').notNull(),
    published: boolean('published').notNull(),
    isDraft: boolean('is_draft').notNull(),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [index('agents_created_idx').on(t.createdAt)],
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
    pinned: boolean('pinned').notNull().default(false),
    /**
     * The last message of the chosen path through the message tree (which version of each
     * question and answer is shown); null reads as the newest message.
     */
    currentLeafId: text('current_leaf_id'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
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
    createdAt: at('created_at').notNull(),
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

/** A social-media task of the operations area; always a signed-in operator's. */
export const tasks = pgTable(
  'tasks',
  {
    id: text('id').primaryKey(),
    ownerUserId: text('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
  },
  (t) => [index('tasks_owner_idx').on(t.ownerUserId, t.updatedAt), index('tasks_due_idx').on(t.status, t.scheduledAt)],
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
