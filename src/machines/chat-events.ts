import type { Conversation, ConversationApplication, ConversationSource } from '../contract/conversations';
import type { FileRef } from '../contract/media';
import type { Message } from '../contract/messages';
import type { StreamProgress } from './chat-stream.actor';
import type { DraftBook } from './draft-book';

/** What the address says: a stored conversation, a link to a new chat with an agent, or the market. */
export type ChatRoute = { market: boolean; conversationId: string | null; agentId: string | null };

export type ChatEvent =
  | ({ type: 'route.changed' } & ChatRoute)
  | { type: 'conversation.new'; agentId?: string; source?: ConversationSource; application?: ConversationApplication }
  | { type: 'conversation.open'; conversationId: string }
  | { type: 'draft.change'; text: string }
  | { type: 'attachments.change'; files: FileRef[] }
  | { type: 'send' }
  /** One of the agent's starter questions, asked at a click in a new chat with nothing typed. */
  | { type: 'starter.ask'; text: string }
  | { type: 'stop' }
  | { type: 'retry' }
  /** Write on an answer cut short from its stored text, in the same answer. */
  | { type: 'continue' }
  | { type: 'reload' }
  | { type: 'edit.start'; key: string }
  | { type: 'edit.change'; text: string }
  | { type: 'edit.cancel' }
  | { type: 'edit.send' }
  | { type: 'regenerate'; key: string }
  | { type: 'version.show'; key: string; offset: -1 | 1 }
  | { type: 'drafts.loaded'; drafts: DraftBook }
  /** The browser is online again: an answer whose connection was lost is read again. */
  | { type: 'connection.restored' }
  /**
   * Someone else is using the page now (a sign-out, or another account than the last signing in):
   * with the drafts of the person now here. A visitor who signs in, or an account signing in again
   * after its session ran out, is the same person: not this event.
   */
  | { type: 'session.changed'; drafts: DraftBook }
  | StreamProgress;

export type ChatInput = { agentId?: string; conversationId?: string | null };

export type LoadedConversation = { conversation: Conversation; messages: Message[] };
