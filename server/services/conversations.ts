import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { failureReference, GENERIC_AGENT_FAILURE } from '../../src/contract/agent-failure';
import type { Conversation, ConversationApplication, ConversationSource } from '../../src/contract/conversations';
import type { Message } from '../../src/contract/messages';
import type { Page } from '../../src/contract/paging';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { prebuilt, slot } from '../db/prebuilt';
import { agents, applications, conversations, messages } from '../db/schema';
import { signedIn, type Caller, type Owner } from '../http/caller';
import { notFound } from '../http/errors';
import { findEditableAgent, refuseRetired } from './agent-content';
import { applicationTranslations } from './applications';
import { ownedBy, ownerColumns } from './ownership';
import { cleanFileName, deleteUnusedUploads, type UploadDeletion } from './uploads';
import { accountOf, agentVisibleTo, applicationVisibleTo, audienceCompany, audienceOf, audienceViewer, companyOf, containsPattern, visibleApplication, type Audience } from './visibility';
import { readTree, type MessageTree } from './message-tree';
import { searchable, snippetAround, type Snippet } from './search-text';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

export const toConversation = (row: ConversationRow, application?: ConversationApplication): Conversation => ({
  conversationId: row.id,
  source: row.source,
  sourceId: row.sourceId,
  title: row.title ?? '',
  pinned: row.pinned,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  ...(application ? { application } : {}),
  ...(row.agentVersionId ? { agentVersionId: row.agentVersionId } : {}),
  ...(row.purpose === 'preview' ? { preview: true } : {}),
});

/**
 * The applications of these workflow conversations that the caller can still see, by id: one
 * read for a whole page. An application withdrawn since is left out, and its conversation shows
 * without a name rather than with one the caller may no longer read.
 */
async function applicationsOf(db: Db, caller: Caller, rows: ConversationRow[]): Promise<Map<string, ConversationApplication>> {
  const ids = [...new Set(rows.filter((row) => row.source === 'workflow').map((row) => row.sourceId))];
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: applications.id, name: applications.name, avatar: applications.avatar, intro: applications.intro })
    .from(applications)
    .where(and(inArray(applications.id, ids), visibleApplication(caller)));
  return new Map(found.map(({ id, ...application }) => [id, { ...application, ...applicationTranslations(id) }]));
}

/** Conversations as the caller reads them: a workflow one names its application. */
export async function describeConversations(db: Db, caller: Caller, rows: ConversationRow[]): Promise<Conversation[]> {
  const named = await applicationsOf(db, caller, rows);
  return rows.map((row) => toConversation(row, row.source === 'workflow' ? named.get(row.sourceId) : undefined));
}

export const describeConversation = async (db: Db, caller: Caller, row: ConversationRow): Promise<Conversation> =>
  (await describeConversations(db, caller, [row]))[0]!;

/**
 * Answers that failed before failures carried a reference stored the model service's own words,
 * which can quote its key or address: they are answered as the generic sentence. File names
 * stored before bidi controls were removed are cleaned on the way out.
 */
export const toMessage = (row: MessageRow, siblingIds?: string[]): Message => ({
  messageId: row.id,
  conversationId: row.conversationId,
  role: row.role,
  content: row.content,
  status: row.status,
  files: row.files.map((file) => ({ ...file, name: cleanFileName(file.name) })),
  ...(row.error ? { error: failureReference(row.error) ? row.error : GENERIC_AGENT_FAILURE } : {}),
  createdAt: row.createdAt.toISOString(),
  parentId: row.parentId,
  siblingIds: siblingIds ?? [row.id],
  ...(row.feedback ? { feedback: { rating: row.feedback, ...(row.feedbackComment ? { comment: row.feedbackComment } : {}) } } : {}),
  ...(row.promptTokens !== null && row.completionTokens !== null
    ? { usage: { promptTokens: row.promptTokens, completionTokens: row.completionTokens } }
    : {}),
  ...(row.role === 'assistant' && row.modelId ? { model: { id: row.modelId, name: row.modelName ?? row.modelId } } : {}),
});

/**
 * Creates the conversation only when the caller may talk to its source, in one statement: the new
 * row is selected from the source's own row where it is visible, so a source the caller cannot see
 * (a draft, another company's, none) inserts nothing and answers 404, and no second round trip
 * checks it first (docs/decisions/016-first-event-under-load.md). The source's row is only looked
 * at: its prompt and translations are not read here.
 */
/** What a conversation is for (server/db/schema.ts): only `chat` ones are listed in the history. */
export type ConversationPurpose = (typeof conversations.purpose.enumValues)[number];
/** Who named a conversation (server/db/schema.ts): a `person`'s title is never replaced. */
export type TitleBy = (typeof conversations.titleBy.enumValues)[number];

export async function createConversation(
  db: Db,
  clock: Clock,
  caller: Caller,
  owner: Owner,
  input: { source: ConversationSource; sourceId: string; title?: string; titleBy?: TitleBy; purpose?: ConversationPurpose },
): Promise<Conversation> {
  const [row] = await createStatement(db, `${input.source} ${audienceOf(caller)}`, {
    id: randomUUID(),
    ...ownerColumns(owner),
    source: input.source,
    sourceId: input.sourceId,
    title: input.title ? input.title : null,
    titleBy: input.title ? (input.titleBy ?? 'person') : null,
    titleSearch: searchable(input.title ?? ''),
    purpose: input.purpose ?? 'chat',
    now: clock.now().toISOString(),
    companyId: companyOf(caller),
    userId: accountOf(caller),
  });
  if (!row) throw notFound(input.source === 'agent' ? 'Agent' : 'Application');
  return describeConversation(db, caller, row);
}

/**
 * A new conversation, inserted from the agent's (or application's) own row where the caller may
 * see it: a source the caller cannot see inserts nothing.
 */
const createStatement = prebuilt((db, shape: `${ConversationSource} ${Audience}`) => {
  const [kind, audience] = shape.split(' ') as [ConversationSource, Audience];
  const source =
    kind === 'agent'
      ? { table: agents, visible: agentVisibleTo(audienceViewer(audience)), version: sql<string | null>`${agents.versionId}` }
      : { table: applications, visible: applicationVisibleTo(audienceCompany(audience)), version: sql<string | null>`null::text` };
  const now = sql<Date>`${slot('now')}::timestamptz`;
  // Every column, in the table's order, typed: a bare parameter in a select list would be text.
  return db
    .insert(conversations)
    .select((qb) =>
      qb
        .select({
          id: sql<string>`${slot('id')}::text`.as('id'),
          ownerUserId: sql<string | null>`${slot('ownerUserId')}::text`.as('owner_user_id'),
          ownerVisitorId: sql<string | null>`${slot('ownerVisitorId')}::text`.as('owner_visitor_id'),
          source: sql<ConversationSource>`${slot('source')}::text`.as('source'),
          sourceId: source.table.id,
          title: sql<string | null>`${slot('title')}::text`.as('title'),
          titleBy: sql<TitleBy | null>`${slot('titleBy')}::text`.as('title_by'),
          titleSearch: sql<string>`${slot('titleSearch')}::text`.as('title_search'),
          pinned: sql<boolean>`false`.as('pinned'),
          purpose: sql<ConversationPurpose>`${slot('purpose')}::text`.as('purpose'),
          currentLeafId: sql<string | null>`null::text`.as('current_leaf_id'),
          createdAt: now.as('created_at'),
          updatedAt: now.as('updated_at'),
          agentVersionId: source.version.as('agent_version_id'),
        })
        .from(source.table)
        .where(and(eq(source.table.id, slot('sourceId')), source.visible))
        .limit(1),
    )
    .returning();
});

/**
 * A conversation in which the agent's draft answers its author (or an admin): a preview, never
 * listed. Only someone who may edit the agent makes one; anyone else is told it does not exist.
 */
export async function createPreviewConversation(db: Db, clock: Clock, caller: Caller, input: { sourceId: string; title?: string }): Promise<Conversation> {
  const editor = signedIn(caller, 'Please log in to try an agent’s draft.');
  const agent = await findEditableAgent(db, editor, input.sourceId);
  refuseRetired(agent);
  const now = clock.now();
  const [row] = await db
    .insert(conversations)
    .values({
      id: randomUUID(),
      ...ownerColumns({ userId: editor.user.id }),
      source: 'agent',
      sourceId: agent.id,
      title: input.title || null,
      titleBy: input.title ? 'person' : null,
      titleSearch: searchable(input.title ?? ''),
      purpose: 'preview',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return describeConversation(db, caller, row!);
}

export async function listConversations(
  db: Db,
  caller: Caller,
  owner: Owner,
  query: { current: number; pageSize: number; source: ConversationSource; sources?: ConversationSource[]; keyword?: string },
): Promise<Page<Conversation>> {
  // Compared as `searchable` text on both sides: accents, width and case do not count.
  const pattern = query.keyword ? containsPattern(searchable(query.keyword)) : null;
  const where = and(
    ownedBy(conversations, owner),
    // Drafts asked for in the operations area are the task's, not the person's chats.
    eq(conversations.purpose, 'chat'),
    query.sources ? inArray(conversations.source, query.sources) : eq(conversations.source, query.source),
    pattern ? or(ilike(conversations.titleSearch, pattern), inMessages(pattern)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(conversations)
      .where(where)
      .orderBy(desc(conversations.pinned), desc(conversations.updatedAt), desc(conversations.createdAt), conversations.id)
      .limit(query.pageSize)
      .offset((query.current - 1) * query.pageSize),
    db.select({ value: count() }).from(conversations).where(where),
  ]);
  const found = query.keyword ? await matchesIn(db, rows.map((row) => row.id), query.keyword) : new Map<string, Snippet>();
  const list = (await describeConversations(db, caller, rows)).map((conversation) => {
    const snippet = found.get(conversation.conversationId);
    return snippet ? { ...conversation, ...snippet } : conversation;
  });
  return { list, total: total?.value ?? 0, current: query.current, pageSize: query.pageSize };
}

/**
 * A conversation with a message (any version) holding the words. Scans only the owner's
 * conversations, which the rest of the filter narrows to first; the wildcards the person typed
 * are escaped, so `%` and `_` match themselves.
 */
const inMessages = (pattern: string) =>
  sql`exists (select 1 from ${messages} where ${messages.conversationId} = ${conversations.id} and ${messages.contentSearch} ilike ${pattern})`;

/** For each listed conversation whose messages hold the words, a snippet of the newest such message. */
async function matchesIn(db: Db, conversationIds: string[], keyword: string): Promise<Map<string, Snippet>> {
  if (conversationIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([messages.conversationId], { conversationId: messages.conversationId, content: messages.content })
    .from(messages)
    .where(and(inArray(messages.conversationId, conversationIds), ilike(messages.contentSearch, containsPattern(searchable(keyword)))))
    .orderBy(messages.conversationId, desc(messages.seq));
  return new Map(rows.map((row) => [row.conversationId, snippetAround(row.content, keyword)]));
}

/** The conversation when the owner holds it; 404 otherwise, whether it exists or not. */
export async function findOwnedConversation(db: Db, owner: Owner, conversationId: string): Promise<ConversationRow> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, conversationId), ownedBy(conversations, owner)))
    .limit(1);
  if (!row) throw notFound('Conversation');
  return row;
}

/** Renames or pins; updatedAt tracks conversation activity, so neither moves it. */
export async function updateConversation(
  db: Db,
  caller: Caller,
  owner: Owner,
  input: { conversationId: string; title?: string; pinned?: boolean },
): Promise<Conversation> {
  const current = await findOwnedConversation(db, owner, input.conversationId);
  const changes = {
    ...(input.title !== undefined ? { title: input.title, titleBy: 'person' as const, titleSearch: searchable(input.title) } : {}),
    ...(input.pinned !== undefined ? { pinned: input.pinned } : {}),
  };
  if (Object.keys(changes).length === 0) return describeConversation(db, caller, current);
  const [row] = await db
    .update(conversations)
    .set(changes)
    .where(and(eq(conversations.id, input.conversationId), ownedBy(conversations, owner)))
    .returning();
  if (!row) throw notFound('Conversation');
  return describeConversation(db, caller, row);
}

/**
 * Deletes the conversation; its messages go with it (foreign key cascade), and so do the files
 * attached to them that no other message of the owner's (nor a task or an avatar) still uses.
 */
export async function deleteConversation(deps: UploadDeletion, owner: Owner, conversationId: string): Promise<void> {
  const attached = await deps.db.transaction(async (tx) => {
    const rows = await tx.select({ files: messages.files }).from(messages).where(eq(messages.conversationId, conversationId));
    const deleted = await tx
      .delete(conversations)
      .where(and(eq(conversations.id, conversationId), ownedBy(conversations, owner)))
      .returning({ id: conversations.id });
    if (deleted.length === 0) throw notFound('Conversation');
    return [...new Set(rows.flatMap((row) => row.files.map((file) => file.fileId)))];
  });
  await deleteUnusedUploads(deps, owner, attached);
}

/** The chosen path, first message first, each with the ids of its versions. */
const chosenPath = (tree: MessageTree<MessageRow>, leafId: string | null): Message[] =>
  tree.pathTo(tree.leaf(leafId)?.id).map((row) => toMessage(row, tree.siblingIds(row)));

export async function listMessages(db: Db, owner: Owner, conversationId: string): Promise<Message[]> {
  const conversation = await findOwnedConversation(db, owner, conversationId);
  return chosenPath(await readTree(db, conversationId), conversation.currentLeafId);
}

/** Rates an answer of one of the owner's conversations, or clears its rating; answers the message. */
export async function rateAnswer(
  db: Db,
  owner: Owner,
  input: { conversationId: string; messageId: string; rating: 'up' | 'down' | null; comment?: string },
): Promise<Message> {
  await findOwnedConversation(db, owner, input.conversationId);
  const comment = input.rating && input.comment ? input.comment : null;
  const [row] = await db
    .update(messages)
    .set({ feedback: input.rating, feedbackComment: comment })
    .where(and(eq(messages.id, input.messageId), eq(messages.conversationId, input.conversationId), eq(messages.role, 'assistant')))
    .returning();
  if (!row) throw notFound('Answer');
  return toMessage(row);
}

/**
 * Shows another version of a message: the path now runs through it and on down its newest
 * versions. Stored with the conversation, so every device shows the same path.
 */
export async function selectMessage(db: Db, owner: Owner, input: { conversationId: string; messageId: string }): Promise<Message[]> {
  await findOwnedConversation(db, owner, input.conversationId);
  const tree = await readTree(db, input.conversationId);
  const leaf = tree.get(input.messageId) ? tree.newestLeafUnder(input.messageId) : undefined;
  if (!leaf) throw notFound('Message');
  await db
    .update(conversations)
    .set({ currentLeafId: leaf.id })
    .where(and(eq(conversations.id, input.conversationId), ownedBy(conversations, owner)));
  return chosenPath(tree, leaf.id);
}
