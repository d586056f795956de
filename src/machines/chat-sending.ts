import type { ChatRequest } from '../contract/chat';
import type { ConversationApplication, ConversationSource } from '../contract/conversations';
import type { FileRef } from '../contract/media';
import type { Message } from '../contract/messages';
import type { StreamFailureKind } from '../services/chat-stream';
import { localMessage, fromServer, updateMessage, withId, type ChatMessage } from './chat-messages';
import type { StreamProgress } from './chat-stream.actor';
import { newChatScope, writeDraft, type DraftBook } from './draft-book';
import { statusOf } from './error-status';

export type ChatFailure = {
  kind: StreamFailureKind | 'create' | 'load' | 'version';
  message: string;
  /** A refusal for a used-up quota: when the server says the question may go again. */
  retryAfterSeconds?: number;
  /** The refusal's HTTP status: what the reader is told, in their language (`message` is the server's English). */
  status?: number;
  /** What failed was a new answer to a stored question (nothing typed is waiting to go again). */
  newAnswer?: true;
};

/**
 * What is being sent: a new question; a new version of a stored question (an edit) or of a
 * stored answer (`regenerate`), each with the thread as it was, put back if the server refuses
 * it; or a retry of the stored question's answer, with the answer it replaces, put back likewise.
 * A retry that `continues` writes on the answer (`answerId`) from its text instead of replacing it.
 */
export type Sending =
  | { kind: 'question'; text: string; files: FileRef[] }
  | { kind: 'edit'; messageId: string; text: string; thread: ChatMessage[] }
  | { kind: 'regenerate'; messageId: string; thread: ChatMessage[] }
  | { kind: 'retry'; questionId: string; previous: Pick<ChatMessage, 'content' | 'status' | 'error'>; continues: boolean; answerId: string };

export type Outgoing = Sending & {
  /** The server said it took it (its start event). */
  accepted: boolean;
  /**
   * The connection broke before the page heard whether the server took it: how it broke, said
   * if the conversation shows it was never stored.
   */
  lost: ChatFailure | null;
};

export type ChatContext = {
  /** Who answers: an agent, or for a `workflow` conversation the application (its id here). */
  agentId: string;
  source: ConversationSource;
  /** A `workflow` conversation's application as the header shows it, when known. */
  application: ConversationApplication | null;
  conversationId: string | null;
  messages: ChatMessage[];
  draft: string;
  attachments: FileRef[];
  outgoing: Outgoing | null;
  replyKey: string | null;
  messageIds: string[];
  failure: ChatFailure | null;
  seq: number;
  /**
   * A conversation was created here and the address has not named it yet: until it does, a report
   * of "/chat" is the one that led here (the first send from home), not the new-chat button.
   */
  addressPending: boolean;
  /** A sent question being rewritten in place, before it goes as a new version. */
  editing: { key: string; text: string } | null;
  /** The version the page asked the server to show. */
  versionTarget: string | null;
  /** Unsent text per conversation (and per agent for a new chat), kept across reloads. */
  drafts: DraftBook;
  /** Stop was pressed before the server took the question: it is stopped as soon as it does. */
  stopWanted: boolean;
  /** Times in a row the page read a detached answer again by itself without getting new text. */
  reattachAttempts: number;
};

type ContextPatch = Partial<ChatContext>;

export const draftScope = (context: Pick<ChatContext, 'conversationId' | 'agentId'>) => context.conversationId ?? newChatScope(context.agentId);

export const replyOf = (context: ChatContext) => context.messages.find((message) => message.key === context.replyKey);

export const blankConversation = (
  agentId: string,
  source: ConversationSource = 'agent',
  application: ConversationApplication | null = null,
): Pick<
  ChatContext,
  'agentId' | 'source' | 'application' | 'conversationId' | 'messages' | 'outgoing' | 'replyKey' | 'messageIds' | 'failure' | 'editing' | 'versionTarget' | 'addressPending' | 'stopWanted' | 'reattachAttempts'
> => ({
  agentId,
  source,
  application: source === 'workflow' ? application : null,
  conversationId: null,
  addressPending: false,
  messages: [],
  outgoing: null,
  replyKey: null,
  messageIds: [],
  failure: null,
  editing: null,
  versionTarget: null,
  stopWanted: false,
  reattachAttempts: 0,
});

/** The chat request for what is being sent. */
export const chatRequestOf = (context: ChatContext): ChatRequest => {
  const to = { conversationId: context.conversationId ?? '', agentId: context.agentId };
  const outgoing = context.outgoing;
  switch (outgoing?.kind) {
    case 'retry':
      return outgoing.continues ? { ...to, continueMessageId: outgoing.answerId } : { ...to, retryMessageId: outgoing.questionId };
    case 'regenerate':
      return { ...to, regenerateMessageId: outgoing.messageId };
    case 'edit':
      return { ...to, editMessageId: outgoing.messageId, text: outgoing.text };
    default:
      return { ...to, text: outgoing?.text ?? '', files: outgoing?.files ?? [] };
  }
};

/** The title a conversation created for this question gets. */
export const questionText = (outgoing: Outgoing | null): string => (outgoing?.kind === 'question' || outgoing?.kind === 'edit' ? outgoing.text : '');

/** A new exchange begins: what goes, the answer that will be written under `replyKey`. */
const beginExchange = (sending: Sending, replyKey: string, messages: ChatMessage[]): ContextPatch => ({
  outgoing: { ...sending, accepted: false, lost: null },
  replyKey,
  failure: null,
  stopWanted: false,
  editing: null,
  messageIds: [],
  messages,
});

/** The typed question (and its attachments) goes; the box and its draft empty. */
export const takeDraft = (context: ChatContext): ContextPatch => {
  const userKey = `local-${context.seq}`;
  const replyKey = `local-${context.seq + 1}`;
  return {
    ...beginExchange({ kind: 'question', text: context.draft, files: context.attachments }, replyKey, [
      ...context.messages,
      localMessage(userKey, 'user', context.draft, context.attachments, []),
      localMessage(replyKey, 'assistant', '', [], []),
    ]),
    seq: context.seq + 2,
    draft: '',
    drafts: writeDraft(context.drafts, draftScope(context), ''),
    attachments: [],
  };
};

/** The rewritten question goes as a new version: the thread below it gives way to its answer. */
export const takeEdit = (context: ChatContext): ContextPatch => {
  const editing = context.editing!;
  const index = context.messages.findIndex((message) => message.key === editing.key);
  const edited = context.messages[index]!;
  const text = editing.text.trim();
  const userKey = `local-${context.seq}`;
  const replyKey = `local-${context.seq + 1}`;
  return {
    ...beginExchange({ kind: 'edit', text, messageId: edited.serverId ?? '', thread: context.messages }, replyKey, [
      ...context.messages.slice(0, index),
      localMessage(userKey, 'user', text, edited.files, edited.siblingIds),
      localMessage(replyKey, 'assistant', '', [], []),
    ]),
    seq: context.seq + 2,
  };
};

/** A new version of an answer takes its place; the old one stays a version away. */
export const takeRegenerate = (context: ChatContext, key: string): ContextPatch => {
  const index = context.messages.findIndex((message) => message.key === key);
  const answer = context.messages[index]!;
  const replyKey = `local-${context.seq}`;
  return {
    ...beginExchange({ kind: 'regenerate', messageId: answer.serverId ?? '', thread: context.messages }, replyKey, [
      ...context.messages.slice(0, index),
      localMessage(replyKey, 'assistant', '', [], answer.siblingIds),
    ]),
    seq: context.seq + 1,
  };
};

/**
 * The last answer is written again for its stored question; what it said is kept until the server
 * takes the retry. Continued, it keeps its text on screen and the new text is appended to it.
 */
export const prepareRetry = (context: ChatContext, continues = false): ContextPatch => {
  const replyIndex = context.messages.findLastIndex((message) => message.role === 'assistant');
  const question = context.messages[replyIndex - 1];
  const reply = context.messages[replyIndex];
  if (!reply || !question?.serverId) return {};
  return {
    replyKey: reply.key,
    failure: null,
    stopWanted: false,
    outgoing: {
      kind: 'retry',
      questionId: question.serverId,
      previous: { content: reply.content, status: reply.status, error: reply.error },
      continues,
      answerId: reply.serverId ?? '',
      accepted: false,
      lost: null,
    },
    messages: updateMessage(context.messages, reply.key, () => ({ content: continues ? reply.content : '', status: 'streaming' as const, error: null })),
  };
};

/** A new version the server refused: the thread comes back as it was, an edit's text with it. */
export const restoreThread = (context: ChatContext, failure: ChatFailure): ContextPatch => {
  const outgoing = context.outgoing;
  if (outgoing?.kind === 'regenerate') return { messages: outgoing.thread, outgoing: null, replyKey: null, failure: { ...failure, newAnswer: true }, editing: null };
  if (outgoing?.kind !== 'edit') return { failure };
  const edited = outgoing.thread.find((message) => message.serverId === outgoing.messageId);
  return {
    messages: outgoing.thread,
    outgoing: null,
    replyKey: null,
    failure,
    editing: edited ? { key: edited.key, text: context.messages.at(-2)?.content ?? outgoing.text } : null,
  };
};

/** A question the server never took goes back into the box, in front of whatever was typed since. */
export const restoreOutgoing = (context: ChatContext, failure: ChatFailure): ContextPatch => {
  const outgoing = context.outgoing;
  if (outgoing?.kind !== 'question') return { failure };
  const sentKeys = new Set([context.replyKey, context.messages.at(-2)?.key]);
  const draft = context.draft ? `${outgoing.text}\n${context.draft}` : outgoing.text;
  return {
    messages: context.messages.filter((message) => !sentKeys.has(message.key)),
    draft,
    drafts: writeDraft(context.drafts, draftScope(context), draft),
    attachments: [...outgoing.files, ...context.attachments],
    outgoing: null,
    replyKey: null,
    failure,
  };
};

/** A retry (or continuation) the server refused: the answer as it was comes back. */
export const restorePreviousReply = (context: ChatContext, failure: ChatFailure): ContextPatch => {
  const previous = context.outgoing?.kind === 'retry' ? context.outgoing.previous : null;
  return {
    outgoing: null,
    failure,
    messages: updateMessage(context.messages, context.replyKey, () => ({
      content: previous?.content ?? '',
      status: previous?.status ?? 'incomplete',
      error: failure.message || (previous?.error ?? null),
    })),
  };
};

/** The server took what was sent: the question and its answer get the server's ids. */
export const acceptExchange = (context: ChatContext, accepted: Extract<StreamProgress, { type: 'stream.accepted' }>): ContextPatch => {
  const userIndex = context.messages.findIndex((message) => message.key === context.replyKey) - 1;
  return {
    conversationId: accepted.conversationId,
    outgoing: context.outgoing ? { ...context.outgoing, accepted: true } : null,
    messages: context.messages.map((message, index) => {
      if (message.key === context.replyKey) {
        // A retry rewrites the answer it replaces: that version's id, not one more version.
        const ids = message.siblingIds.map((id) => (id === message.serverId ? accepted.replyMessageId : id));
        return {
          ...message,
          serverId: accepted.replyMessageId,
          siblingIds: withId(ids, accepted.replyMessageId),
          sentAt: accepted.replyMessageCreatedAt ?? message.sentAt,
          // The model writing it now (a retry's may not be the one that wrote what it replaces).
          ...(accepted.model ? { model: accepted.model } : {}),
        };
      }
      if (index === userIndex && message.role === 'user') {
        return {
          ...message,
          serverId: accepted.userMessageId,
          status: 'complete' as const,
          siblingIds: withId(message.siblingIds, accepted.userMessageId),
          sentAt: accepted.userMessageCreatedAt ?? message.sentAt,
        };
      }
      return message;
    }),
  };
};

/**
 * The server took what was sent after all: the conversation as stored, its last answer the one
 * to show (a question stored without an answer shows its answer as cut short, to retry).
 */
export const takeFound = (context: ChatContext, stored: Message[]): ContextPatch => {
  const messages = stored.map(fromServer);
  if (messages.at(-1)?.role === 'assistant') return { messages, replyKey: messages.at(-1)!.key, outgoing: null, failure: null };
  const lost = context.outgoing?.lost ?? null;
  const reply: ChatMessage = { ...localMessage(`local-${context.seq}`, 'assistant', '', [], []), status: 'incomplete', error: lost?.message || null };
  return { seq: context.seq + 1, messages: [...messages, reply], replyKey: reply.key, outgoing: null, failure: lost };
};

/** The wait before reading a detached answer again: 1 s, doubling, never more than 30 s. */
export const REATTACH_FIRST_MS = 1000;
export const REATTACH_MAX_MS = 30_000;
/**
 * An answer left `streaming` by a server that stopped gives no new text when read again: the
 * waits keep growing for it, until a sweep stores it as it ended.
 */
export const reattachDelayMs = (attempts: number): number => Math.min(REATTACH_MAX_MS, REATTACH_FIRST_MS * 2 ** Math.min(attempts, 10));

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : '');

/** A conversation that could not be created, with the refusal's status when the server gave one. */
export const creationFailure = (error: unknown): ChatFailure => {
  const status = statusOf(error);
  return { kind: 'create', message: errorMessage(error), ...(status === undefined ? {} : { status }) };
};
