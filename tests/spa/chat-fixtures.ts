import type { SnapshotFrom } from 'xstate';
import type { Conversation } from '../../src/contract/conversations';
import type { Message } from '../../src/contract/messages';
import type { chatMachine } from '../../src/machines/chat.machine';

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

type ChatSnapshot = SnapshotFrom<typeof chatMachine>;
type ChatStateValue = Parameters<ChatSnapshot['matches']>[0];

/** The chat's states by name: the settled ones live under `settled`, the unfinished of those under `unfinished`. */
const SETTLED_AT = {
  idle: { settled: 'idle' },
  done: { settled: 'done' },
  incomplete: { settled: { unfinished: 'incomplete' } },
  failed: { settled: { unfinished: 'failed' } },
  cancelled: { settled: { unfinished: 'cancelled' } },
} as const satisfies Record<string, ChatStateValue>;

export type ChatStateName = keyof typeof SETTLED_AT | Exclude<keyof typeof chatMachine.config.states & string, 'settled'>;

/** Where the chat machine is when it is in the state called `name` (for `matches` and the snapshot's value). */
export const chatAt = (name: ChatStateName): ChatStateValue => (name in SETTLED_AT ? SETTLED_AT[name as keyof typeof SETTLED_AT] : (name as ChatStateValue));
