import { randomUUID } from 'node:crypto';
import { and, count, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { HistoryMessage, RuntimeAgent } from '../agents/runtime';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { conversations, messages, type StoredFileRef } from '../db/schema';
import type { Caller, Owner } from '../http/caller';
import { conflict, notFound, tooLarge, tooManyRequests } from '../http/errors';
import { identityLockKey } from '../limits/identity-quotas';
import { answeringAgent } from './answering-agent';
import { titleFromQuestion } from '../../src/contract/chat-title';
import { findOwnedConversation, type MessageRow } from './conversations';
import { readTree, type MessageTree } from './message-tree';
import { ownedBy } from './ownership';
import { resolveOwnFiles } from './uploads';

/** How many earlier messages the agent sees; older ones are left out to bound the request. */
export const HISTORY_LIMIT = 40;

/** What bounds one chat request: what the model is sent, and how many answers stream at once. */
export type ChatLimits = { historyCharBudget: number; streamingAnswers: number };

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
};

export type PreparedChat = {
  conversationId: string;
  agent: RuntimeAgent;
  userMessageId: string;
  replyMessageId: string;
  history: HistoryMessage[];
};

function historyEntry(row: Pick<MessageRow, 'role' | 'content' | 'files'>): HistoryMessage {
  const attachments = row.files.map((f) => `[Attached ${f.kind} file: ${f.name} (${f.mimeType}, ${f.size} bytes)]`);
  return { role: row.role, content: [row.content, ...attachments].filter(Boolean).join('\n\n') };
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
function historyOf(path: MessageRow[], budget: number): HistoryMessage[] {
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

/**
 * Refuses a new answer while the owner already has `max` being written, on any instance. The
 * advisory lock (released at the end of the transaction) makes two requests of one owner count
 * one after the other, so a burst cannot all see room and all start.
 */
async function refuseOverStreamingLimit(tx: Db, owner: Owner, now: Date, max: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${identityLockKey('streams', owner)}, 0))`);
  const [row] = await tx
    .select({ streaming: count() })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(
      and(
        ownedBy(conversations, owner),
        eq(messages.role, 'assistant'),
        eq(messages.status, 'streaming'),
        gt(messages.createdAt, new Date(now.getTime() - ABANDONED_STREAM_MS)),
      ),
    );
  if ((row?.streaming ?? 0) >= max) {
    throw tooManyRequests(
      `You have reached the limit of ${max} answers being written at once. Please wait ${STREAMING_RETRY_SECONDS} seconds and try again.`,
      STREAMING_RETRY_SECONDS,
    );
  }
}

/**
 * Checks everything a chat request names and stores the question (or reopens it, for a retry)
 * with an empty answer in `streaming` state, all before the stream opens.
 */
export async function prepareChat(
  db: Db,
  clock: Clock,
  caller: Caller,
  owner: Owner,
  input: ChatInput,
  limits: ChatLimits,
): Promise<PreparedChat> {
  const conversation = await findOwnedConversation(db, owner, input.conversationId);
  const agent = await answeringAgent(db, caller, conversation, input.agentId);
  const now = clock.now();

  const text = (input.text ?? '').trim();
  const files: StoredFileRef[] = input.files.length > 0 ? await resolveOwnFiles(db, owner, input.files) : [];
  if (input.retryMessageId === undefined && input.regenerateMessageId === undefined) {
    if (historyEntry({ role: 'user', content: text, files }).content.length > limits.historyCharBudget) {
      throw tooLongQuestion(limits.historyCharBudget);
    }
  }
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Db;
    await refuseOverStreamingLimit(tx, owner, now, limits.streamingAnswers);
    const [current] = await tx
      .select({ leafId: conversations.currentLeafId })
      .from(conversations)
      .where(eq(conversations.id, conversation.id));
    const tree = await readTree(tx, conversation.id);
    const exchange = await storeExchange(tx, tree, current?.leafId ?? null, { conversationId: conversation.id, text, files, now }, input);
    await tx
      .update(conversations)
      .set({ updatedAt: now, ...(exchange.leafId ? { currentLeafId: exchange.leafId } : {}) })
      .where(eq(conversations.id, conversation.id));
    if (exchange.newQuestion) {
      await tx
        .update(conversations)
        .set({ title: titleFromQuestion(text || files[0]?.name || '') })
        .where(and(eq(conversations.id, conversation.id), isNull(conversations.title)));
    }
    return {
      conversationId: conversation.id,
      agent,
      userMessageId: exchange.question.id,
      replyMessageId: exchange.replyMessageId,
      history: historyOf(tree.pathTo(exchange.question.id), limits.historyCharBudget),
    };
  });
}

type Exchange = {
  question: MessageRow;
  replyMessageId: string;
  /** The new end of the chosen path, when it moves. */
  leafId: string | null;
  /** A question asked for the first time (not a retry, an edit or a new answer). */
  newQuestion: boolean;
};

type Asked = { conversationId: string; text: string; files: StoredFileRef[]; now: Date };

/**
 * Stores what a chat request asks for, in the conversation's message tree: a new question at
 * the end of the chosen path, an edited question beside the one it replaces (same parent), a
 * new answer beside the one it replaces (same question), or a retry of an answer in place.
 * Every id named must be a message of this conversation (already the caller's).
 */
async function storeExchange(tx: Db, tree: MessageTree<MessageRow>, leafId: string | null, asked: Asked, input: ChatInput): Promise<Exchange> {
  const { conversationId, now } = asked;
  const ask = async (parentId: string | null, content: string, files: StoredFileRef[]) => {
    const [question] = await tx
      .insert(messages)
      .values({ id: randomUUID(), conversationId, role: 'user', content, status: 'complete', files, parentId, createdAt: now })
      .returning();
    tree.add(question!);
    return question!;
  };
  const answer = async (question: MessageRow) => {
    const [reply] = await tx.insert(messages).values(newReply(randomUUID(), conversationId, question.id, now)).returning();
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
    if (!kept) {
      const replyMessageId = await answer(question);
      return { question, replyMessageId, leafId: replyMessageId, newQuestion: false };
    }
    await tx.update(messages).set({ content: '', status: 'streaming', error: null, createdAt: now }).where(eq(messages.id, kept.id));
    return { question, replyMessageId: kept.id, leafId: onPath.has(kept.id) ? null : kept.id, newQuestion: false };
  }

  if (input.editMessageId !== undefined) {
    const edited = questionOf(input.editMessageId);
    const question = await ask(edited.parentId, asked.text, edited.files);
    const replyMessageId = await answer(question);
    return { question, replyMessageId, leafId: replyMessageId, newQuestion: false };
  }

  if (input.regenerateMessageId !== undefined) {
    const previous = tree.get(input.regenerateMessageId);
    const questionId = previous?.role === 'assistant' ? (previous.parentId ?? previous.replyTo) : null;
    if (!questionId) throw notFound('Message');
    const question = questionOf(questionId);
    refuseWhileAnswering(question);
    const replyMessageId = await answer(question);
    return { question, replyMessageId, leafId: replyMessageId, newQuestion: false };
  }

  const question = await ask(tree.leaf(leafId)?.id ?? null, asked.text, asked.files);
  const replyMessageId = await answer(question);
  return { question, replyMessageId, leafId: replyMessageId, newQuestion: true };
}

const newReply = (id: string, conversationId: string, replyTo: string, now: Date) => ({
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

export async function finishReply(
  db: Db,
  replyMessageId: string,
  outcome: { content: string; status: 'complete' | 'incomplete' | 'failed'; error?: string },
): Promise<void> {
  await db
    .update(messages)
    .set({ content: outcome.content, status: outcome.status, error: outcome.error ?? null })
    .where(eq(messages.id, replyMessageId));
}

/** The text of an answer still streaming; a finished answer is never overwritten by a late save. */
export async function saveStreamingText(db: Db, replyMessageId: string, content: string): Promise<void> {
  await db
    .update(messages)
    .set({ content })
    .where(and(eq(messages.id, replyMessageId), eq(messages.status, 'streaming')));
}

/** Answers left `streaming` by a server that stopped mid-answer are kept as incomplete. */
export async function closeInterruptedReplies(db: Db): Promise<void> {
  await db.update(messages).set({ status: 'incomplete' }).where(and(eq(messages.status, 'streaming'), ne(messages.role, 'user')));
}
