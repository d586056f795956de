import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lte, ne } from 'drizzle-orm';
import type { HistoryMessage, RuntimeAgent } from '../agents/runtime';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { conversations, messages, type StoredFileRef } from '../db/schema';
import type { Caller, Owner } from '../http/caller';
import { badRequest, conflict, notFound } from '../http/errors';
import { findVisibleAgent } from './agents';
import { findOwnedConversation, titleFromQuestion, type MessageRow } from './conversations';
import { resolveOwnFiles } from './uploads';

/** How many earlier messages the agent sees; older ones are left out to bound the request. */
export const HISTORY_LIMIT = 40;

export type ChatInput = {
  conversationId: string;
  agentId: string;
  text?: string;
  files: { fileId: string }[];
  retryMessageId?: string;
};

export type PreparedChat = {
  conversationId: string;
  agent: RuntimeAgent;
  userMessageId: string;
  replyMessageId: string;
  history: HistoryMessage[];
};

function historyEntry(row: MessageRow): HistoryMessage {
  const attachments = row.files.map((f) => `[Attached ${f.kind} file: ${f.name} (${f.mimeType}, ${f.size} bytes)]`);
  return { role: row.role, content: [row.content, ...attachments].filter(Boolean).join('\n\n') };
}

/** What the agent is told: answered turns up to and including the question, never failed answers. */
async function loadHistory(db: Db, conversationId: string, question: MessageRow): Promise<HistoryMessage[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), lte(messages.seq, question.seq)))
    .orderBy(messages.seq);
  return rows
    .filter((row) => row.role === 'user' || (row.status !== 'failed' && row.status !== 'streaming' && row.content !== ''))
    .slice(-HISTORY_LIMIT)
    .map(historyEntry);
}

/**
 * Checks everything a chat request names and stores the question (or reopens it, for a retry)
 * with an empty answer in `streaming` state, all before the stream opens.
 */
export async function prepareChat(db: Db, clock: Clock, caller: Caller, owner: Owner, input: ChatInput): Promise<PreparedChat> {
  const conversation = await findOwnedConversation(db, owner, input.conversationId);
  if (conversation.source === 'agent' && conversation.sourceId !== input.agentId) {
    throw badRequest('This conversation is with another agent; start a new conversation to talk to this one.');
  }
  const agentRow = await findVisibleAgent(db, caller, input.agentId);
  const agent: RuntimeAgent = { id: agentRow.id, name: agentRow.name, systemPrompt: agentRow.systemPrompt };
  const now = clock.now();

  if (input.retryMessageId !== undefined) {
    const retryId = input.retryMessageId;
    return db.transaction(async (tx) => {
      const [question] = await tx
        .select()
        .from(messages)
        .where(and(eq(messages.id, retryId), eq(messages.conversationId, conversation.id), eq(messages.role, 'user')))
        .limit(1);
      if (!question) throw notFound('Message');
      const replies = await tx.select().from(messages).where(eq(messages.replyTo, question.id)).orderBy(messages.seq);
      if (replies.some((r) => r.status === 'streaming')) throw conflict('This question is being answered right now.');
      if (replies.some((r) => r.status === 'complete')) throw conflict('This question already has a complete answer.');
      const [kept, ...extra] = replies;
      if (extra.length > 0) await tx.delete(messages).where(inArray(messages.id, extra.map((r) => r.id)));
      let replyMessageId: string;
      if (kept) {
        replyMessageId = kept.id;
        await tx.update(messages).set({ content: '', status: 'streaming', error: null, createdAt: now }).where(eq(messages.id, kept.id));
      } else {
        replyMessageId = randomUUID();
        await tx.insert(messages).values(newReply(replyMessageId, conversation.id, question.id, now));
      }
      await tx.update(conversations).set({ updatedAt: now }).where(eq(conversations.id, conversation.id));
      return {
        conversationId: conversation.id,
        agent,
        userMessageId: question.id,
        replyMessageId,
        history: await loadHistory(tx as unknown as Db, conversation.id, question),
      };
    });
  }

  const text = (input.text ?? '').trim();
  const files: StoredFileRef[] = await resolveOwnFiles(db, owner, input.files);
  return db.transaction(async (tx) => {
    const userMessageId = randomUUID();
    const replyMessageId = randomUUID();
    const [question] = await tx
      .insert(messages)
      .values({ id: userMessageId, conversationId: conversation.id, role: 'user', content: text, status: 'complete', files, createdAt: now })
      .returning();
    await tx.insert(messages).values(newReply(replyMessageId, conversation.id, userMessageId, now));
    await tx
      .update(conversations)
      .set({ updatedAt: now })
      .where(eq(conversations.id, conversation.id));
    await tx
      .update(conversations)
      .set({ title: titleFromQuestion(text || files[0]?.name || '') })
      .where(and(eq(conversations.id, conversation.id), isNull(conversations.title)));
    return {
      conversationId: conversation.id,
      agent,
      userMessageId,
      replyMessageId,
      history: await loadHistory(tx as unknown as Db, conversation.id, question!),
    };
  });
}

const newReply = (id: string, conversationId: string, replyTo: string, now: Date) => ({
  id,
  conversationId,
  role: 'assistant' as const,
  content: '',
  status: 'streaming' as const,
  files: [],
  replyTo,
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
