import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { Share, SharedConversation, SharedMessage } from '../../src/contract/shares';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { shares } from '../db/schema';
import type { UserRow } from '../http/caller';
import { notFound } from '../http/errors';
import { findOwnedConversation, listMessages } from './conversations';

type ShareRow = typeof shares.$inferSelect;

const toShare = (row: ShareRow): Share => ({
  shareId: row.id,
  token: row.token,
  conversationId: row.conversationId,
  title: row.title,
  showOwnerName: row.ownerName !== null,
  messageCount: row.messages.length,
  createdAt: row.createdAt.toISOString(),
});

/** 32 random bytes: 256 bits no one guesses, in a link-safe alphabet. */
const newToken = () => randomBytes(32).toString('base64url');

/**
 * Shares the owner's conversation as it is now: the chosen path, without answers still being
 * written or that failed, and attachments by name, type and size only (no address, no bytes).
 */
export async function createShare(db: Db, clock: Clock, user: UserRow, input: { conversationId: string; showOwnerName: boolean }): Promise<Share> {
  const owner = { userId: user.id };
  const conversation = await findOwnedConversation(db, owner, input.conversationId);
  const path = await listMessages(db, owner, conversation.id);
  const snapshot: SharedMessage[] = path
    .filter((message) => message.status !== 'streaming' && message.status !== 'failed')
    .map((message) => ({
      role: message.role,
      content: message.content,
      files: message.files.map((file) => ({ name: file.name, mimeType: file.mimeType, size: file.size })),
      createdAt: message.createdAt,
    }));
  const [row] = await db
    .insert(shares)
    .values({
      id: randomUUID(),
      token: newToken(),
      ownerUserId: user.id,
      conversationId: conversation.id,
      title: conversation.title ?? '',
      ownerName: input.showOwnerName ? user.nickname || user.username : null,
      messages: snapshot,
      createdAt: clock.now(),
    })
    .returning();
  return toShare(row!);
}

export async function listShares(db: Db, user: UserRow, conversationId?: string): Promise<Share[]> {
  const rows = await db
    .select()
    .from(shares)
    .where(and(eq(shares.ownerUserId, user.id), conversationId ? eq(shares.conversationId, conversationId) : undefined))
    .orderBy(desc(shares.createdAt), shares.id);
  return rows.map(toShare);
}

/** Only the owner revokes; anyone else's id answers 404 as if it did not exist. */
export async function revokeShare(db: Db, user: UserRow, shareId: string): Promise<void> {
  const deleted = await db
    .delete(shares)
    .where(and(eq(shares.id, shareId), eq(shares.ownerUserId, user.id)))
    .returning({ id: shares.id });
  if (deleted.length === 0) throw notFound('Share');
}

/** The snapshot for anyone with the token; nothing else of the owner's. */
export async function readShare(db: Db, token: string): Promise<SharedConversation> {
  const [row] = await db.select().from(shares).where(eq(shares.token, token)).limit(1);
  if (!row) throw notFound('Share');
  return {
    title: row.title,
    ...(row.ownerName !== null ? { ownerName: row.ownerName } : {}),
    sharedAt: row.createdAt.toISOString(),
    messages: row.messages,
  };
}
