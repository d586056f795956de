import { randomUUID } from 'node:crypto';
import { and, eq, gt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnswerModel } from '../../src/contract/models';
import { STUDIO_ERRORS } from '../../src/contract/studio';
import type { HistoryMessage, ModelParameters, RuntimeAgent } from '../agents/runtime';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { transact } from '../db/connection-transaction';
import { prebuilt, slot } from '../db/prebuilt';
import { agentDrafts, agents, conversations, messages, type StoredFileRef } from '../db/schema';
import type { Caller, Owner } from '../http/caller';
import { badRequest, conflict, notFound, refusedWith, tooLarge, tooManyRequests } from '../http/errors';
import { answeringModel, choiceOf, type Registry } from '../models/registry';
import { contentOfRow, mayEdit } from './agent-content';
import { identityLockKey } from '../limits/identity-quotas';
import { applicationAgent } from './answering-agent';
import { titleFromQuestion } from '../../src/contract/chat-title';
import { searchable, searchableContent } from './search-text';
import { type ConversationRow, type MessageRow } from './conversations';
import { MessageTree } from './message-tree';
import { ownedBy, ownedBySlot, ownerIdOf, ownerKindOf, type OwnerKind } from './ownership';
import { resolveOwnFiles } from './uploads';
import { accountOf, agentVisibleTo, audienceOf, audienceViewer, companyOf, type Audience } from './visibility';
import { leaseEnding, leaseUntil } from './answer-leases';

/** How many earlier messages the agent sees; older ones are left out to bound the request. */
export const HISTORY_LIMIT = 40;

/**
 * What bounds one chat request: what the model is sent, and how many answers stream at once; and
 * the lease the answer is created with (the instance that will write it, and for how long).
 */
export type ChatLimits = { historyCharBudget: number; streamingAnswers: number; lease: { owner: string; ms: number } };

/** An answer still `streaming` after this long was left by an instance that stopped: it no longer counts. */
const ABANDONED_STREAM_MS = 15 * 60 * 1000;
/** A guess of when one of the answers being written will have finished. */
const STREAMING_RETRY_SECONDS = 10;

export type ChatInput = {
  conversationId: string;
  agentId: string;
  text?: string;
  files: { fileId: string }[];
  retryMessageId?: string;
  editMessageId?: string;
  regenerateMessageId?: string;
  continueMessageId?: string;
  /** Another model of the caller's list, where the agent allows choosing. */
  modelId?: string;
};

export type PreparedChat = {
  conversationId: string;
  agent: RuntimeAgent;
  /** The model writing the answer, as recorded on it and told in the stream's first event. */
  model: AnswerModel;
  userMessageId: string;
  replyMessageId: string;
  /** When the question and the answer were stored: what reading them again will say. */
  userMessageCreatedAt: Date;
  replyMessageCreatedAt: Date;
  history: HistoryMessage[];
  /** The answer's stored text, when it is continued: the model goes on from it, and adds to it. */
  continuing?: string;
};

/** The files are named here and read just before the model is asked (attachment-reading.ts). */
function historyEntry(row: Pick<MessageRow, 'role' | 'content' | 'files'>): HistoryMessage {
  const attachments = row.files.map((f) => `[Attached ${f.kind} file: ${f.name} (${f.mimeType}, ${f.size} bytes)]`);
  return {
    role: row.role,
    content: [row.content, ...attachments].filter(Boolean).join('\n\n'),
    ...(row.role === 'user' && row.files.length > 0 ? { asked: { text: row.content, files: row.files } } : {}),
  };
}

const tooLongQuestion = (budget: number) =>
  tooLarge(`The question is too long: at most ${budget} characters, attachment descriptions included, are sent to the agent.`);

/**
 * What the agent is told: answered turns on the question's path up to and including the
 * question, never failed answers, the newest that fit in the character budget, whole, and never
 * an answer without its question. Other versions (edited questions, answers asked again) are on
 * other paths and never sent. The question is always sent; the agent's system prompt is not
 * counted (the runtime sends it first, whatever the budget).
 */
export function historyOf(path: MessageRow[], budget: number): HistoryMessage[] {
  const entries = path
    .filter((row) => row.role === 'user' || (row.status !== 'failed' && row.status !== 'streaming' && row.content !== ''))
    .slice(-HISTORY_LIMIT)
    .map(historyEntry);
  const asked = entries.pop()!;
  let left = budget - asked.content.length;
  if (left < 0) throw tooLongQuestion(budget);
  let first = entries.length;
  while (first > 0 && entries[first - 1]!.content.length <= left) {
    first -= 1;
    left -= entries[first]!.content.length;
  }
  // An answer whose question was left out would read to the model as words of its own.
  if (entries[first]?.role === 'assistant') first += 1;
  return [...entries.slice(first), asked];
}

/** An agent's row as a question reads it: what the model is told, and whether the caller may ask it. */
type AskedAgent = {
  id: string;
  name: string;
  systemPrompt: string;
  modelId: string | null;
  parameters: ModelParameters;
  allowModelChoice: boolean;
  versionId: string;
  retiredAt: Date | null;
  createBy: string;
  visible: boolean;
};

/** Who answers, as read before the question is stored; `versionId`: the agent's version, null for a preview or an application. */
type Answering = { agent: RuntimeAgent; model: AnswerModel; versionId: string | null };

/** The agent's content with the model the registry gives it for this question. */
function answeringWith(
  registry: Registry,
  agent: { id: string; name: string; systemPrompt: string; modelId: string | null; allowModelChoice: boolean; parameters: ModelParameters },
  requested: string | undefined,
  versionId: string | null,
): Answering {
  const model = answeringModel(registry, agent, requested);
  const { maxOutput, ...sampling } = agent.parameters;
  // A model chosen by the person may write less than the agent asks for: it is asked for what it can.
  const cap = maxOutput !== undefined && model.maxOutput !== null ? Math.min(maxOutput, model.maxOutput) : maxOutput;
  return {
    agent: {
      id: agent.id,
      name: agent.name,
      systemPrompt: agent.systemPrompt,
      vision: model.vision,
      model: choiceOf(model),
      parameters: { ...sampling, ...(cap !== undefined ? { maxOutput: cap } : {}) },
    },
    model: { id: model.id, name: model.name },
    versionId,
  };
}

/**
 * Takes the identity's streaming lock and reads the conversation (when the owner holds it) and the
 * agent (whether the caller may see it), in one statement, the transaction's first. From here to the
 * end of the transaction, requests of one owner count answers one after the other, on every
 * instance, so a burst cannot all see room and all start; what is read in a later statement sees
 * every answer stored before the lock was granted. The conversation and the agent need no such
 * order: they are only checked. The model comes from the registry this instance keeps: no table
 * is read for it.
 */
async function lockAndFind(
  tx: Db,
  caller: Caller,
  owner: Owner,
  input: ChatInput,
  registry: Registry,
): Promise<{ conversation: AskedConversation; answering: Answering }> {
  const [row] = await lockAndFindStatement(tx, `${ownerKindOf(owner)} ${audienceOf(caller)}`, {
    lockKey: identityLockKey('streams', owner),
    conversationId: input.conversationId,
    ownerId: ownerIdOf(owner),
    agentId: input.agentId,
    companyId: companyOf(caller),
    userId: accountOf(caller),
  });
  if (!row?.conversation) throw notFound('Conversation');
  const { conversation } = row;
  // A workflow conversation is answered by its application when the request names it.
  if (conversation.source === 'workflow' && conversation.sourceId === input.agentId) {
    const application = await applicationAgent(tx, caller, input.agentId);
    const answering = answeringWith(registry, { ...application, modelId: null, allowModelChoice: false, parameters: {} }, input.modelId, null);
    return { conversation, answering };
  }
  if (conversation.source === 'agent' && conversation.sourceId !== input.agentId) {
    throw badRequest('This conversation is with another agent; start a new conversation to talk to this one.');
  }
  const agent = row.agent?.id ? (row.agent as AskedAgent) : null;
  if (conversation.purpose === 'preview') return { conversation, answering: await previewing(tx, caller, agent, registry, input.modelId) };
  // Only someone whose conversation is with it learns that it was retired; anyone else, that it does not exist.
  if (agent && !agent.visible && agent.retiredAt && conversation.sourceId === agent.id) {
    throw refusedWith(410, STUDIO_ERRORS.retired, 'This agent was retired: its conversations can be read, but it answers no more questions.');
  }
  if (!agent?.visible) throw notFound('Agent');
  return { conversation, answering: answeringWith(registry, agent, input.modelId, agent.versionId) };
}

/**
 * A preview conversation is answered by the agent's draft (its live version when it has none),
 * for its author or an admin only: the check is made again at every question.
 */
async function previewing(tx: Db, caller: Caller, agent: AskedAgent | null, registry: Registry, requested: string | undefined): Promise<Answering> {
  if (!agent?.id || !mayEdit(caller, agent)) throw notFound('Agent');
  if (agent.retiredAt) throw refusedWith(410, STUDIO_ERRORS.retired, 'This agent was retired: it answers no more questions.');
  const [draft] = await tx.select({ content: agentDrafts.content }).from(agentDrafts).where(eq(agentDrafts.agentId, agent.id)).limit(1);
  const [live] = draft ? [] : await tx.select().from(agents).where(eq(agents.id, agent.id)).limit(1);
  const content = draft?.content ?? contentOfRow(live!);
  return answeringWith(registry, { id: agent.id, name: content.name, systemPrompt: content.systemPrompt, modelId: content.modelId, allowModelChoice: content.allowModelChoice, parameters: content.parameters }, requested, null);
}

const lockAndFindStatement = prebuilt((db, shape: `${OwnerKind} ${Audience}`) => {
  const [ownerKind, audience] = shape.split(' ') as [OwnerKind, Audience];
  // The columns used, not the rows: every column read is parsed on every question.
  return db
    .select({
      locked: sql`pg_advisory_xact_lock(hashtextextended(${slot('lockKey')}, 0))`,
      conversation: { id: conversations.id, source: conversations.source, sourceId: conversations.sourceId, purpose: conversations.purpose },
      agent: {
        id: agents.id,
        name: agents.name,
        systemPrompt: agents.systemPrompt,
        modelId: agents.modelId,
        parameters: agents.parameters,
        allowModelChoice: agents.allowModelChoice,
        versionId: agents.versionId,
        retiredAt: agents.retiredAt,
        createBy: agents.createBy,
        visible: sql<boolean>`${agentVisibleTo(audienceViewer(audience))}`.mapWith(Boolean),
      },
    })
    .from(sql`(select 1) as asking`)
    .leftJoin(conversations, and(eq(conversations.id, slot('conversationId')), ownedBySlot(conversations, ownerKind)))
    .leftJoin(agents, eq(agents.id, slot('agentId')));
});

/**
 * How many answers the owner has being written (on any instance, not abandoned), as a query.
 *
 * The count starts from the owner's conversations active since an answer could still be streaming
 * (an answer is created in the same write that moves its conversation's `updatedAt` to its own
 * `createdAt`, and nothing moves it back), and looks into each one's streaming answers through
 * the partial index: its cost follows the owner's recent conversations, not the number of
 * answers everyone has streaming, which is what grows when many ask at once. A correlated
 * subquery per conversation keeps the planner from starting at all streaming answers instead.
 */
export const streamingAnswersOf = (db: Db, owner: Owner, now: Date) =>
  streamingCount(db, ownedBy(conversations, owner), streamingSince(now).toISOString());

/** Answers created before this are abandoned, however they are stored. */
export const streamingSince = (now: Date) => new Date(now.getTime() - ABANDONED_STREAM_MS);

/** `streamingAnswersOf` the owner these rows are: `since` an ISO 8601 time, or a slot for one. */
function streamingCount(db: Db, owned: SQL, since: string | SQLWrapper) {
  const after = sql`${since}::timestamptz`;
  const streamingIn = sql`(select count(*) from ${messages} where ${messages.conversationId} = ${conversations.id}
    and ${messages.status} = 'streaming' and ${messages.role} = 'assistant' and ${messages.createdAt} > ${after})`;
  return db
    .select({ n: sql`coalesce(sum(${streamingIn}), 0)` })
    .from(conversations)
    .where(and(owned, gt(conversations.updatedAt, after)));
}

const readForAnswerStatement = prebuilt((db, ownerKind: OwnerKind) => {
  const streaming = streamingCount(db, ownedBySlot(conversations, ownerKind), slot('since'));
  const leaf = db.select({ leafId: conversations.currentLeafId }).from(conversations).where(eq(conversations.id, slot('conversationId')));
  return db
    .select({
      streaming: sql<number>`(${streaming})`.mapWith(Number),
      leafId: sql<string | null>`(${leaf})`,
      message: messages,
    })
    .from(sql`(select 1) as asking`)
    .leftJoin(messages, eq(messages.conversationId, slot('conversationId')))
    .orderBy(messages.seq);
});

/**
 * In one read, after the lock: how many answers the owner has being written, the conversation's
 * chosen leaf, and every message of the conversation.
 */
async function readForAnswer(tx: Db, owner: Owner, conversationId: string, now: Date) {
  const rows = await readForAnswerStatement(tx, ownerKindOf(owner), {
    ownerId: ownerIdOf(owner),
    since: streamingSince(now).toISOString(),
    conversationId,
  });
  const first = rows[0]!;
  const found = rows.flatMap((row) => (row.message ? [row.message] : []));
  return { streaming: first.streaming, leafId: first.leafId, tree: new MessageTree(found) };
}

function refuseOverStreamingLimit(streaming: number, max: number): void {
  if (streaming >= max) {
    throw tooManyRequests(
      `You have reached the limit of ${max} answers being written at once. Please wait ${STREAMING_RETRY_SECONDS} seconds and try again.`,
      STREAMING_RETRY_SECONDS,
    );
  }
}

type AskedConversation = Pick<ConversationRow, 'id' | 'source' | 'sourceId' | 'purpose'>;

/**
 * Checks everything a chat request names and stores the question (or reopens it, for a retry)
 * with an empty answer in `streaming` state, all before the stream opens. Every statement here is
 * a round trip each asker waits on before the first event, and hundreds asking at once wait on
 * one another's, one after the other on the embedded database: a new question costs a transaction
 * of three statements (the lock with the conversation and the agent; the streaming answers and
 * the messages; the question and its answer with the conversation's update), which
 * server/test/first-event-round-trips.test.ts keeps so.
 */
export async function prepareChat(
  db: Db,
  clock: Clock,
  caller: Caller,
  owner: Owner,
  input: ChatInput,
  limits: ChatLimits,
  registry: Registry,
): Promise<PreparedChat> {
  const now = clock.now();
  const text = (input.text ?? '').trim();
  const newQuestion =
    input.retryMessageId === undefined && input.editMessageId === undefined && input.regenerateMessageId === undefined && input.continueMessageId === undefined;
  return transact(db, async (tx) => {
    const { conversation, answering } = await lockAndFind(tx, caller, owner, input, registry);
    const files: StoredFileRef[] = input.files.length > 0 ? await resolveOwnFiles(tx, owner, input.files) : [];
    if (input.retryMessageId === undefined && input.regenerateMessageId === undefined && input.continueMessageId === undefined) {
      if (historyEntry({ role: 'user', content: text, files }).content.length > limits.historyCharBudget) {
        throw tooLongQuestion(limits.historyCharBudget);
      }
    }
    const { streaming, leafId, tree } = await readForAnswer(tx, owner, conversation.id, now);
    refuseOverStreamingLimit(streaming, limits.streamingAnswers);
    // The first question names the conversation, unless it was named already.
    const title = newQuestion ? titleFromQuestion(text || files[0]?.name || '') : null;
    const exchange = await storeExchange(
      tx,
      tree,
      leafId,
      { conversationId: conversation.id, text, files, now, lease: limits.lease, title, model: answering.model, agentVersionId: answering.versionId },
      input,
    );
    return {
      conversationId: conversation.id,
      agent: answering.agent,
      model: answering.model,
      userMessageId: exchange.question.id,
      replyMessageId: exchange.replyMessageId,
      userMessageCreatedAt: exchange.question.createdAt,
      // Every answer written here (new, another version, a retry in place) is stored at `now`.
      replyMessageCreatedAt: now,
      history: historyOf(tree.pathTo(exchange.question.id), limits.historyCharBudget),
      ...(exchange.continuing !== undefined ? { continuing: exchange.continuing } : {}),
    };
  });
}

type Exchange = { question: MessageRow; replyMessageId: string; continuing?: string };

type Asked = {
  conversationId: string;
  text: string;
  files: StoredFileRef[];
  now: Date;
  lease: ChatLimits['lease'];
  /** The conversation's title when it has none yet (its first question), else null. */
  title: string | null;
  /** The model writing the answer, recorded on it. */
  model: AnswerModel;
  /** The agent's version answering, recorded on the conversation (null: a preview or an application). */
  agentVersionId: string | null;
};

/**
 * Stores what a chat request asks for, in the conversation's message tree: a new question at
 * the end of the chosen path, an edited question beside the one it replaces (same parent), a
 * new answer beside the one it replaces (same question), or a retry of an answer in place.
 * Every id named must be a message of this conversation (already the caller's). The
 * conversation's `updatedAt`, chosen path and title are written in the same statement.
 */
async function storeExchange(tx: Db, tree: MessageTree<MessageRow>, leafId: string | null, asked: Asked, input: ChatInput): Promise<Exchange> {
  const { conversationId, now, title } = asked;
  const lease = { leaseOwner: asked.lease.owner, leaseExpiresAt: leaseUntil(asked.lease.ms) };
  const writtenBy = { modelId: asked.model.id, modelName: asked.model.name };
  /** The conversation's update, as a part of the statement that writes the messages; `leaf`: the new end of the chosen path, when it moves. */
  const touched = (leaf: string | null) =>
    tx.$with('touched').as(
      tx
        .update(conversations)
        .set({
          updatedAt: now,
          agentVersionId: asked.agentVersionId,
          ...(leaf ? { currentLeafId: leaf } : {}),
          ...(title !== null ? titledFromQuestion(title, searchable(title)) : {}),
        })
        .where(eq(conversations.id, conversationId))
        .returning({ id: conversations.id }),
    );
  /** A question and its empty answer, in one statement (the answer's seq after the question's). */
  const ask = async (parentId: string | null, content: string, files: StoredFileRef[]) => {
    const questionId = randomUUID();
    const replyMessageId = randomUUID();
    const rows = await askStatement(tx, title === null ? 'title kept' : 'title from the question', {
      conversationId,
      now,
      title,
      titleSearch: searchable(title ?? ''),
      questionId,
      replyMessageId,
      content,
      contentSearch: searchableContent(content),
      files,
      parentId,
      leaseOwner: asked.lease.owner,
      leaseSeconds: asked.lease.ms / 1000,
      agentVersionId: asked.agentVersionId,
      ...writtenBy,
    });
    const question = rows.find((row) => row.id === questionId)!;
    tree.add(question);
    tree.add(rows.find((row) => row.id === replyMessageId)!);
    return { question, replyMessageId };
  };
  const answer = async (question: MessageRow) => {
    const id = randomUUID();
    const [reply] = await tx
      .with(touched(id))
      .insert(messages)
      .values({ ...newReply(id, conversationId, question.id, now), ...lease, ...writtenBy })
      .returning();
    tree.add(reply!);
    return reply!.id;
  };
  const questionOf = (id: string) => {
    const row = tree.get(id);
    if (!row || row.role !== 'user') throw notFound('Message');
    return row;
  };
  const refuseWhileAnswering = (question: MessageRow) => {
    if (tree.childrenOf(question.id).some((r) => r.status === 'streaming')) throw conflict('This question is being answered right now.');
  };

  if (input.retryMessageId !== undefined) {
    const question = questionOf(input.retryMessageId);
    refuseWhileAnswering(question);
    const replies = tree.childrenOf(question.id).filter((r) => r.role === 'assistant');
    const onPath = new Set(tree.pathTo(tree.leaf(leafId)?.id).map((row) => row.id));
    const kept = replies.find((r) => onPath.has(r.id)) ?? replies.at(-1);
    if (kept?.status === 'complete') throw conflict('This question already has a complete answer.');
    if (!kept) return { question, replyMessageId: await answer(question) };
    // A new text in place: the old one's rating and cost go with it.
    await tx
      .with(touched(onPath.has(kept.id) ? null : kept.id))
      .update(messages)
      .set({
        content: '',
        contentSearch: '',
        status: 'streaming',
        error: null,
        feedback: null,
        feedbackComment: null,
        promptTokens: null,
        completionTokens: null,
        createdAt: now,
        ...lease,
        ...writtenBy,
      })
      .where(eq(messages.id, kept.id));
    return { question, replyMessageId: kept.id };
  }

  if (input.continueMessageId !== undefined) {
    const cut = tree.get(input.continueMessageId);
    const questionId = cut?.role === 'assistant' ? (cut.parentId ?? cut.replyTo) : null;
    if (!cut || !questionId) throw notFound('Message');
    const question = questionOf(questionId);
    refuseWhileAnswering(question);
    if (cut.status === 'complete') throw conflict('This answer is complete.');
    if (cut.content === '') throw conflict('This answer has no text to continue; retry it instead.');
    // Written again from where it stopped: its text stays, its failure and cost go.
    await tx
      .with(touched(null))
      .update(messages)
      .set({ status: 'streaming', error: null, promptTokens: null, completionTokens: null, ...lease, ...writtenBy })
      .where(eq(messages.id, cut.id));
    return { question, replyMessageId: cut.id, continuing: cut.content };
  }

  if (input.editMessageId !== undefined) {
    const edited = questionOf(input.editMessageId);
    return ask(edited.parentId, asked.text, edited.files);
  }

  if (input.regenerateMessageId !== undefined) {
    const previous = tree.get(input.regenerateMessageId);
    const questionId = previous?.role === 'assistant' ? (previous.parentId ?? previous.replyTo) : null;
    if (!questionId) throw notFound('Message');
    const question = questionOf(questionId);
    refuseWhileAnswering(question);
    return { question, replyMessageId: await answer(question) };
  }

  return ask(tree.leaf(leafId)?.id ?? null, asked.text, asked.files);
}

/**
 * A new question at the end of the chosen path and its empty answer, with the conversation's
 * update (`updatedAt`, the chosen path moved to the answer, and the title when it has none), in
 * one statement: the answer's seq after the question's. `title from the question`: the title is set
 * unless the conversation has one (its first question); `title kept`: an edited question.
 */
const askStatement = prebuilt((db, shape: 'title kept' | 'title from the question') => {
  const now = slot('now');
  const touched = db.$with('touched').as(
    db
      .update(conversations)
      .set({
        updatedAt: now,
        currentLeafId: slot('replyMessageId'),
        agentVersionId: slot('agentVersionId'),
        ...(shape === 'title from the question' ? titledFromQuestion(slot('title'), slot('titleSearch')) : {}),
      } as Record<string, unknown>)
      .where(eq(conversations.id, slot('conversationId')))
      .returning({ id: conversations.id }),
  );
  const conversationId = slot('conversationId');
  const questionId = slot('questionId');
  return db
    .with(touched)
    .insert(messages)
    .values([
      { id: questionId, conversationId, role: 'user', content: slot('content'), contentSearch: slot('contentSearch'), status: 'complete', files: slot('files'), parentId: slot('parentId'), createdAt: now },
      {
        ...newReply(slot('replyMessageId'), conversationId, questionId, now),
        leaseOwner: slot('leaseOwner'),
        leaseExpiresAt: leaseEnding(slot('leaseSeconds')),
        modelId: slot('modelId'),
        modelName: slot('modelName'),
      },
    ])
    .returning();
});

/** The conversation's title, with who wrote it and its searchable form, when it has none yet. */
const titledFromQuestion = (title: string | SQLWrapper, titleSearch: string | SQLWrapper) => {
  const untitled = sql`${conversations.title} is null`;
  return {
    title: sql`coalesce(${conversations.title}, ${title})`,
    titleBy: sql`case when ${untitled} then 'question' else ${conversations.titleBy} end`,
    titleSearch: sql`case when ${untitled} then ${titleSearch} else ${conversations.titleSearch} end`,
  };
};

const newReply = <V extends string | SQLWrapper, D extends Date | SQLWrapper>(id: V, conversationId: V, replyTo: V, now: D) => ({
  id,
  conversationId,
  role: 'assistant' as const,
  content: '',
  status: 'streaming' as const,
  files: [],
  replyTo,
  parentId: replyTo,
  createdAt: now,
});
