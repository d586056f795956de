import type { StateValue } from 'xstate';
import type { FileRef } from '../contract/media';
import type { Message, MessageFeedback, TokenUsage } from '../contract/messages';
import type { AnswerModel } from '../contract/models';

export type ChatMessageStatus = 'sending' | 'streaming' | 'complete' | 'incomplete' | 'failed';

export type ChatMessage = {
  /** Stable key for the screen; the server's id arrives later for messages sent here. */
  key: string;
  serverId: string | null;
  role: 'user' | 'assistant';
  content: string;
  status: ChatMessageStatus;
  files: FileRef[];
  error: string | null;
  /** This message and its other versions (server ids, oldest first); empty until the server names it. */
  siblingIds: string[];
  /** An answer's rating by its owner, as loaded. */
  feedback?: MessageFeedback;
  /** What the answer cost in tokens, when the model service reported it. */
  usage?: TokenUsage;
  /** The model that wrote the answer, when the server says (its start event, the stored message). */
  model?: AnswerModel;
  /**
   * When the server stored it (ISO 8601), as it says when it loads the message or accepts it;
   * null until then (never this browser's clock: a stored message shows the stored time).
   */
  sentAt: string | null;
};

/** Being written right now: the last message of a conversation, an answer still `streaming`. */
export const answerBeingWritten = (messages: Message[]): Message | null => {
  const last = messages.at(-1);
  return last?.role === 'assistant' && last.status === 'streaming' ? last : null;
};

export const fromServer = (message: Message, index: number, messages: Message[]): ChatMessage => ({
  key: message.messageId,
  serverId: message.messageId,
  role: message.role,
  content: message.content,
  // Only the last answer can still be being written; an older one left `streaming` was cut off.
  status: message.status === 'streaming' && index < messages.length - 1 ? 'incomplete' : message.status,
  files: message.files,
  error: message.error ?? null,
  siblingIds: message.siblingIds ?? [message.messageId],
  ...(message.feedback ? { feedback: message.feedback } : {}),
  ...(message.usage ? { usage: message.usage } : {}),
  ...(message.model ? { model: message.model } : {}),
  sentAt: message.createdAt,
});

export const localMessage = (key: string, role: ChatMessage['role'], content: string, files: FileRef[], siblingIds: string[]): ChatMessage => ({
  key,
  serverId: null,
  role,
  content,
  status: role === 'user' ? 'sending' : 'streaming',
  files,
  error: null,
  siblingIds,
  sentAt: null,
});

export const withId = (ids: string[], id: string) => (ids.includes(id) ? ids : [...ids, id]);

export const updateMessage = (messages: ChatMessage[], key: string | null, patch: (message: ChatMessage) => Partial<ChatMessage>) =>
  messages.map((message) => (message.key === key ? { ...message, ...patch(message) } : message));

/** The id of the version `offset` away from this message's, if there is one. */
export const versionAway = (messages: ChatMessage[], key: string, offset: number): string | null => {
  const message = messages.find((item) => item.key === key);
  if (!message?.serverId) return null;
  return message.siblingIds[message.siblingIds.indexOf(message.serverId) + offset] ?? null;
};

export const editable = (messages: ChatMessage[], key: string) => {
  const message = messages.find((item) => item.key === key);
  return message?.role === 'user' && message.serverId !== null;
};

export const regenerable = (messages: ChatMessage[], key: string) => {
  const index = messages.findIndex((item) => item.key === key);
  const answer = messages[index];
  return answer?.role === 'assistant' && answer.serverId !== null && answer.status !== 'streaming' && Boolean(messages[index - 1]?.serverId);
};

/** How an exchange the server took, found in the stored conversation, stands now. */
export type FoundEnding = 'writing' | 'complete' | 'incomplete' | 'failed' | 'unanswered';

/**
 * What the page sent but never heard the server take (the connection broke before the start
 * event), looked for in the conversation as the server stores it: right after the messages the
 * page showed before it, a message the page did not know. A question (new, or a new version of
 * one) is the last two messages shown, itself and its answer, and must match in text and
 * attachments; a new answer is the last message shown, and must be a version the page did not
 * know. How the exchange stands, or null when the server never stored it (then, and only then,
 * the page gives back what it sent).
 */
export const foundExchange = (shown: readonly ChatMessage[], stored: readonly Message[]): FoundEnding | null => {
  // Not yet named by the server: a question and its answer, or a new answer alone.
  const sent = shown.at(-2)?.serverId === null ? 2 : 1;
  const before = shown.slice(0, -sent);
  if (!before.every((message, index) => message.serverId !== null && message.serverId === stored[index]?.messageId)) return null;
  const local = shown.at(-sent)!;
  const taken = stored[before.length];
  if (taken?.role !== local.role || local.siblingIds.includes(taken.messageId)) return null;
  const ids = (files: readonly FileRef[]) => files.map((file) => file.fileId).join('\n');
  if (taken.role === 'user' && (taken.content !== local.content.trim() || ids(taken.files) !== ids(local.files))) return null;
  const last = stored.at(-1)!;
  if (last.role === 'user') return 'unanswered';
  return last.status === 'streaming' ? 'writing' : last.status;
};

/**
 * Whether two lists of messages differ at most in the text of answers being written. The
 * conversation's screen reads the list with this, so an answer's every delta re-renders that
 * answer alone (`selectAnswerText`), not the screen around it (ADR 015).
 */
export const sameApartFromAnswerText = (a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean =>
  a === b || (a.length === b.length && a.every((message, index) => message === b[index] || sameButText(message, b[index]!)));

const sameButText = (a: ChatMessage, b: ChatMessage): boolean => {
  if (a.status !== 'streaming' || b.status !== 'streaming') return false;
  const keys = Object.keys(a) as (keyof ChatMessage)[];
  return keys.length === Object.keys(b).length && keys.every((key) => key === 'content' || a[key] === b[key]);
};

/** A chat snapshot as the comparison below reads it. */
type ChatSnapshotLike = { status: string; value: StateValue; context: { messages: readonly ChatMessage[] } & Record<string, unknown> };

/** Whether two snapshots of the chat differ at most in the text of answers being written: what it accepts is the same. */
export const sameChatApartFromAnswerText = (a: ChatSnapshotLike, b: ChatSnapshotLike): boolean => {
  if (a === b) return true;
  if (a.status !== b.status || !sameStateValue(a.value, b.value)) return false;
  return Object.keys(a.context).every((key) =>
    key === 'messages' ? sameApartFromAnswerText(a.context.messages, b.context.messages) : a.context[key] === b.context[key],
  );
};

const sameStateValue = (a: StateValue, b: StateValue): boolean => {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameStateValue(a[key]!, b[key]!));
};
