import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { messages } from '../db/schema';
import type { Owner } from '../http/caller';
import { notFound } from '../http/errors';
import { findOwnedConversation, type MessageRow } from './conversations';

/**
 * One answer of one of the owner's conversations, as stored. Someone else's conversation, a
 * question, or a message of another conversation are all "not found": nothing tells them apart.
 */
export async function findOwnedAnswer(db: Db, owner: Owner, conversationId: string, messageId: string): Promise<MessageRow> {
  const conversation = await findOwnedConversation(db, owner, conversationId);
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversation.id), eq(messages.role, 'assistant')))
    .limit(1);
  if (!row) throw notFound('Message');
  return row;
}
