import type { Conversation } from '../../src/contract/conversations';
import type { Message } from '../../src/contract/messages';

/** The fixed moment every stored fixture was written at, so snapshots never depend on the clock. */
export const STORED_AT = '2025-01-01T00:00:00.000Z';

/** A stored conversation with the fallback agent ("conv-1", "Bread"); `patch` changes any field. */
export const conversation = (patch: Partial<Conversation> = {}): Conversation => ({
  conversationId: 'conv-1',
  source: 'agent',
  sourceId: 'SpecialNoAgentFallback',
  title: 'Bread',
  pinned: false,
  createdAt: STORED_AT,
  updatedAt: STORED_AT,
  ...patch,
});

/** A stored, complete message of "conv-1" that is its own only version; `patch` changes any field. */
export const message = (messageId: string, role: Message['role'], content: string, patch: Partial<Message> = {}): Message => ({
  messageId,
  conversationId: 'conv-1',
  role,
  content,
  status: 'complete',
  files: [],
  createdAt: STORED_AT,
  siblingIds: [messageId],
  ...patch,
});
