import { and, assertEvent, assign, fromCallback, fromPromise, setup, type ActorRefFrom, type SnapshotFrom, type StateValue } from 'xstate';
import { DEFAULT_AGENT_ID } from '../contract/constants';
import type { ChatRequest, ChatResumeRequest } from '../contract/chat';
import { titleFromQuestion } from '../contract/chat-title';
import type { Conversation, ConversationApplication, ConversationSource } from '../contract/conversations';
import type { FileRef } from '../contract/media';
import type { Message, MessageFeedback, TokenUsage } from '../contract/messages';
import type { StreamFailureKind } from '../services/chat-stream';
import type { ChatStreamReport } from './chat-stream.actor';
import { draftIn, newChatScope, writeDraft, type DraftBook } from './draft-book';

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
  /**
   * When the server stored it (ISO 8601), as it says when it loads the message or accepts it;
   * null until then (never this browser's clock: a stored message shows the stored time).
   */
  sentAt: string | null;
};

export type ChatFailure = {
  kind: StreamFailureKind | 'create' | 'load' | 'version';
  message: string;
  /** A refusal for a used-up quota: when the server says the question may go again. */
  retryAfterSeconds?: number;
  /** What failed was a new answer to a stored question (nothing typed is waiting to go again). */
  newAnswer?: true;
};

type Outgoing = {
  text: string;
  files: FileRef[];
  retryMessageId: string | null;
  /** A new version of this stored question (an edit) or of this stored answer. */
  editMessageId: string | null;
  regenerateMessageId: string | null;
  /** For a new version: the thread as it was, put back if the server refuses it. */
  thread: ChatMessage[] | null;
  accepted: boolean;
  /** For a retry: the answer being replaced, put back if the server refuses the retry. */
  previous: Pick<ChatMessage, 'content' | 'status' | 'error'> | null;
  /**
   * The connection broke before the page heard whether the server took the question: how it
   * broke, said if the conversation shows the question was never stored.
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

export { MAX_DRAFTS, writeDraft, type DraftBook } from './draft-book';

/** The wait before reading a detached answer again: 1 s, doubling, never more than 30 s. */
export const REATTACH_FIRST_MS = 1000;
export const REATTACH_MAX_MS = 30_000;
/**
 * An answer left `streaming` by a server that stopped gives no new text when read again: the
 * waits keep growing for it, until a sweep stores it as it ended.
 */
export const reattachDelayMs = (attempts: number): number => Math.min(REATTACH_MAX_MS, REATTACH_FIRST_MS * 2 ** Math.min(attempts, 10));

const draftScope = (context: Pick<ChatContext, 'conversationId' | 'agentId'>) => context.conversationId ?? newChatScope(context.agentId);

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
  | ChatStreamReport;

export type ChatInput = { agentId?: string; conversationId?: string | null };

export type LoadedConversation = { conversation: Conversation; messages: Message[] };

/** Being written right now: the last message of a conversation, an answer still `streaming`. */
const answerBeingWritten = (messages: Message[]): Message | null => {
  const last = messages.at(-1);
  return last?.role === 'assistant' && last.status === 'streaming' ? last : null;
};

const fromServer = (message: Message, index: number, messages: Message[]): ChatMessage => ({
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
  sentAt: message.createdAt,
});

const localMessage = (key: string, role: ChatMessage['role'], content: string, files: FileRef[], siblingIds: string[]): ChatMessage => ({
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

const newOutgoing = (patch: Partial<Outgoing>): Outgoing => ({
  text: '',
  files: [],
  retryMessageId: null,
  editMessageId: null,
  regenerateMessageId: null,
  thread: null,
  accepted: false,
  previous: null,
  lost: null,
  ...patch,
});

const withId = (ids: string[], id: string) => (ids.includes(id) ? ids : [...ids, id]);

/** The id of the version `offset` away from this message's, if there is one. */
const versionAway = (messages: ChatMessage[], key: string, offset: number): string | null => {
  const message = messages.find((item) => item.key === key);
  if (!message?.serverId) return null;
  return message.siblingIds[message.siblingIds.indexOf(message.serverId) + offset] ?? null;
};

const editable = (messages: ChatMessage[], key: string) => {
  const message = messages.find((item) => item.key === key);
  return message?.role === 'user' && message.serverId !== null;
};

const regenerable = (messages: ChatMessage[], key: string) => {
  const index = messages.findIndex((item) => item.key === key);
  const answer = messages[index];
  return answer?.role === 'assistant' && answer.serverId !== null && answer.status !== 'streaming' && Boolean(messages[index - 1]?.serverId);
};

/** How an exchange the server took, found in the stored conversation, stands now. */
type FoundEnding = 'writing' | 'complete' | 'incomplete' | 'failed' | 'unanswered';

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

const blankConversation = (
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

const replyOf = (context: ChatContext) => context.messages.find((message) => message.key === context.replyKey);

/** The connection broke (or never opened): the server may have heard the request all the same. */
const connectionLost = (event: ChatEvent): boolean =>
  event.type === 'stream.failed' && (event.kind === 'incomplete' || event.kind === 'network');

/**
 * What was sent and not found in the stored conversation (or that could not be read) goes back
 * as the connection's loss left it: a new version restores the thread it replaced, anything
 * else the question into the box.
 */
const giveBackLost = [
  {
    guard: 'isRefusedVersion',
    target: 'idle',
    actions: { type: 'restoreThread', params: ({ context }: { context: ChatContext }) => ({ failure: context.outgoing!.lost! }) },
  },
  {
    target: 'idle',
    actions: [
      { type: 'restoreOutgoing', params: ({ context }: { context: ChatContext }) => ({ failure: context.outgoing!.lost! }) },
      { type: 'persistDrafts', params: ({ context }: { context: ChatContext }) => ({ drafts: context.drafts }) },
    ],
  },
] as const;

const failureOf = (event: Extract<ChatStreamReport, { type: 'stream.failed' }>): ChatFailure => ({
  kind: event.kind,
  message: event.message,
  ...(event.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: event.retryAfterSeconds }),
});

const updateMessage = (messages: ChatMessage[], key: string | null, patch: (message: ChatMessage) => Partial<ChatMessage>) =>
  messages.map((message) => (message.key === key ? { ...message, ...patch(message) } : message));

/**
 * One chat at a time: open or start a conversation, send a question, stream the answer, stop
 * it, retry it. A question the server never accepted goes back into the input box; an answer
 * cut short is kept and marked, with a retry that answers the stored question again (the
 * question itself is never sent twice).
 *
 * An answer belongs to the server, not to this page: leaving a conversation detaches from its
 * answer (which goes on), opening one whose answer is being written attaches to it (`resuming`),
 * a lost connection reads it again from the text already shown, and Stop asks the server to stop
 * it and shows the text it stored.
 */
export const chatMachine = setup({
  types: {
    context: {} as ChatContext,
    events: {} as ChatEvent,
    input: {} as ChatInput,
  },
  actors: {
    /** `silent`: a failure is the chat's to say (looking for a question), not a notice of its own. */
    loadConversation: fromPromise<LoadedConversation, { conversationId: string; silent?: boolean }>(async () => {
      throw new Error('loadConversation is provided where the app starts');
    }),
    createConversation: fromPromise<Conversation, { agentId: string; source: ConversationSource; title: string }>(async () => {
      throw new Error('createConversation is provided where the app starts');
    }),
    chatStream: fromCallback<{ type: 'noop' }, ChatRequest>(() => () => undefined),
    selectVersion: fromPromise<Message[], { conversationId: string; messageId: string }>(async () => {
      throw new Error('selectVersion is provided where the app starts');
    }),
    resumeStream: fromCallback<{ type: 'noop' }, ChatResumeRequest>(() => () => undefined),
    stopAnswer: fromPromise<Message, { conversationId: string; messageId: string }>(async () => {
      throw new Error('stopAnswer is provided where the app starts');
    }),
  },
  actions: {
    /** The conversation now has an id: the screen puts it in the address bar and the history. */
    conversationCreated: (_, _params: { conversationId: string }) => undefined,
    /** An exchange ended (any way): the history list should show the new update time. */
    exchangeSettled: (_, _params: { conversationId: string | null }) => undefined,
    takeDraft: assign(({ context }) => {
      const userKey = `local-${context.seq}`;
      const replyKey = `local-${context.seq + 1}`;
      return {
        seq: context.seq + 2,
        outgoing: newOutgoing({ text: context.draft, files: context.attachments }),
        replyKey,
        failure: null,
        stopWanted: false,
        draft: '',
        drafts: writeDraft(context.drafts, draftScope(context), ''),
        attachments: [],
        messageIds: [],
        editing: null,
        messages: [
          ...context.messages,
          localMessage(userKey, 'user', context.draft, context.attachments, []),
          localMessage(replyKey, 'assistant', '', [], []),
        ],
      };
    }),
    /** The rewritten question goes as a new version: the thread below it gives way to its answer. */
    takeEdit: assign(({ context }) => {
      const editing = context.editing!;
      const index = context.messages.findIndex((message) => message.key === editing.key);
      const edited = context.messages[index]!;
      const userKey = `local-${context.seq}`;
      const replyKey = `local-${context.seq + 1}`;
      return {
        seq: context.seq + 2,
        outgoing: newOutgoing({ text: editing.text.trim(), editMessageId: edited.serverId, thread: context.messages }),
        replyKey,
        failure: null,
        stopWanted: false,
        editing: null,
        messageIds: [],
        messages: [
          ...context.messages.slice(0, index),
          localMessage(userKey, 'user', editing.text.trim(), edited.files, edited.siblingIds),
          localMessage(replyKey, 'assistant', '', [], []),
        ],
      };
    }),
    /** A new version of an answer takes its place; the old one stays a version away. */
    takeRegenerate: assign(({ context, event }) => {
      assertEvent(event, 'regenerate');
      const index = context.messages.findIndex((message) => message.key === event.key);
      const answer = context.messages[index]!;
      const replyKey = `local-${context.seq}`;
      return {
        seq: context.seq + 1,
        outgoing: newOutgoing({ regenerateMessageId: answer.serverId, thread: context.messages }),
        replyKey,
        failure: null,
        stopWanted: false,
        editing: null,
        messageIds: [],
        messages: [...context.messages.slice(0, index), localMessage(replyKey, 'assistant', '', [], answer.siblingIds)],
      };
    }),
    /** A new version the server refused: the thread comes back as it was, an edit's text with it. */
    restoreThread: assign(({ context }, params: { failure: ChatFailure }) => {
      const outgoing = context.outgoing!;
      const question = context.messages.at(-2);
      const edited = outgoing.editMessageId ? outgoing.thread?.find((message) => message.serverId === outgoing.editMessageId) : undefined;
      return {
        messages: outgoing.thread ?? context.messages,
        outgoing: null,
        replyKey: null,
        failure: outgoing.regenerateMessageId ? { ...params.failure, newAnswer: true as const } : params.failure,
        editing: edited ? { key: edited.key, text: question?.content ?? outgoing.text } : null,
      };
    }),
    startEdit: assign(({ context, event }) => {
      assertEvent(event, 'edit.start');
      const message = context.messages.find((item) => item.key === event.key);
      return { editing: { key: event.key, text: message?.content ?? '' } };
    }),
    changeEdit: assign(({ context, event }) => {
      assertEvent(event, 'edit.change');
      return { editing: context.editing ? { ...context.editing, text: event.text } : null };
    }),
    cancelEdit: assign({ editing: null }),
    aimVersion: assign(({ context, event }) => {
      assertEvent(event, 'version.show');
      return { versionTarget: versionAway(context.messages, event.key, event.offset), failure: null, editing: null };
    }),
    /** The chosen path as the server stores it; an answer at its end still being written is the one to read. */
    showPath: assign((_, params: { messages: Message[] }) => ({
      messages: params.messages.map(fromServer),
      versionTarget: null,
      replyKey: answerBeingWritten(params.messages)?.messageId ?? null,
    })),
    setVersionFailure: assign((_, params: { message: string }) => ({ versionTarget: null, failure: { kind: 'version' as const, message: params.message } })),
    /**
     * Nothing of the person before stays on a shared screen: their conversation, what they typed
     * or attached and their drafts give way to a new chat with the default agent and the
     * newcomer's draft for it. An answer being written goes on on the server; leaving the state
     * that reads it is what stops reading it, as when a person leaves a conversation.
     */
    forgetPerson: assign(({ event }) => {
      assertEvent(event, 'session.changed');
      return {
        ...blankConversation(DEFAULT_AGENT_ID),
        draft: draftIn(event.drafts, newChatScope(DEFAULT_AGENT_ID)),
        drafts: event.drafts,
        attachments: [],
      };
    }),
    loadDrafts: assign(({ context, event }) => {
      assertEvent(event, 'drafts.loaded');
      return { drafts: event.drafts, draft: context.draft || draftIn(event.drafts, draftScope(context)) };
    }),
    /** The unsent texts, to keep for the person across reloads. */
    persistDrafts: (_, _params: { drafts: DraftBook }) => undefined,
    restoreOutgoing: assign(({ context }, params: { failure: ChatFailure }) => {
      const outgoing = context.outgoing;
      if (!outgoing) return { failure: params.failure };
      const sentKeys = new Set([context.replyKey, context.messages.at(-2)?.key]);
      const draft = context.draft ? `${outgoing.text}\n${context.draft}` : outgoing.text;
      return {
        messages: context.messages.filter((message) => !sentKeys.has(message.key)),
        // Whatever was typed since stays; the unsent question comes back in front of it.
        draft,
        drafts: writeDraft(context.drafts, draftScope(context), draft),
        attachments: [...outgoing.files, ...context.attachments],
        outgoing: null,
        replyKey: null,
        failure: params.failure,
      };
    }),
    restorePreviousReply: assign(({ context }, params: { failure: ChatFailure }) => ({
      outgoing: null,
      failure: params.failure,
      messages: updateMessage(context.messages, context.replyKey, () => ({
        content: context.outgoing?.previous?.content ?? '',
        status: context.outgoing?.previous?.status ?? 'incomplete',
        error: params.failure.message || (context.outgoing?.previous?.error ?? null),
      })),
    })),
    acceptExchange: assign(({ context, event }) => {
      assertEvent(event, 'stream.accepted');
      const userIndex = context.messages.findIndex((message) => message.key === context.replyKey) - 1;
      return {
        conversationId: event.conversationId,
        outgoing: context.outgoing ? { ...context.outgoing, accepted: true } : null,
        messages: context.messages.map((message, index) => {
          if (message.key === context.replyKey) {
            // A retry rewrites the answer it replaces: that version's id, not one more version.
            const ids = message.siblingIds.map((id) => (id === message.serverId ? event.replyMessageId : id));
            return {
              ...message,
              serverId: event.replyMessageId,
              siblingIds: withId(ids, event.replyMessageId),
              sentAt: event.replyMessageCreatedAt ?? message.sentAt,
            };
          }
          if (index === userIndex && message.role === 'user') {
            return {
              ...message,
              serverId: event.userMessageId,
              status: 'complete' as const,
              siblingIds: withId(message.siblingIds, event.userMessageId),
              sentAt: event.userMessageCreatedAt ?? message.sentAt,
            };
          }
          return message;
        }),
      };
    }),
    appendDelta: assign(({ context, event }) => {
      assertEvent(event, 'stream.delta');
      return { messages: updateMessage(context.messages, context.replyKey, (message) => ({ content: message.content + event.text })) };
    }),
    completeReply: assign(({ context, event }) => {
      assertEvent(event, 'stream.ended');
      return {
        messageIds: event.messageIds,
        outgoing: null,
        messages: updateMessage(context.messages, context.replyKey, () => ({ status: 'complete' as const, ...(event.usage ? { usage: event.usage } : {}) })),
      };
    }),
    markReply: assign(({ context }, params: { status: 'incomplete' | 'failed'; failure: ChatFailure | null }) => ({
      outgoing: null,
      failure: params.failure,
      messages: updateMessage(context.messages, context.replyKey, () => ({
        status: params.status,
        error: params.failure?.message ?? null,
      })),
    })),
    /** The answer being read again continues from `offset`: what was shown past it is not stored. */
    cutReply: assign(({ context, event }) => {
      assertEvent(event, 'stream.resumed');
      return { messages: updateMessage(context.messages, context.replyKey, (message) => ({ content: message.content.slice(0, event.offset) })) };
    }),
    /** The connection was lost while the answer is still being written: it is read again later. */
    markDetached: assign(({ context }, params: { failure: ChatFailure }) => ({
      failure: params.failure,
      messages: updateMessage(context.messages, context.replyKey, () => ({ status: 'incomplete' as const, error: null })),
    })),
    markResuming: assign(({ context }) => ({
      failure: null,
      outgoing: null,
      messages: updateMessage(context.messages, context.replyKey, () => ({ status: 'streaming' as const, error: null })),
    })),
    /** Reading a detached answer again by itself, once more: the next wait is longer. */
    countReattachAttempt: assign(({ context }) => ({ reattachAttempts: context.reattachAttempts + 1 })),
    /** Text came again: a later loss starts waiting from the shortest wait again. */
    forgetReattachAttempts: assign({ reattachAttempts: 0 }),
    /** How the connection broke before the server said it took the question, kept while the page looks. */
    keepLoss: assign(({ context }, params: { failure: ChatFailure }) => ({
      outgoing: context.outgoing ? { ...context.outgoing, lost: params.failure } : null,
    })),
    /**
     * The server took the question after all: the conversation as stored, its last answer the
     * one to show (a question stored without an answer shows its answer as cut short, to retry).
     */
    takeFound: assign(({ context }, params: { stored: Message[] }) => {
      const messages = params.stored.map(fromServer);
      if (messages.at(-1)?.role === 'assistant') return { messages, replyKey: messages.at(-1)!.key, outgoing: null, failure: null };
      const lost = context.outgoing?.lost ?? null;
      const reply: ChatMessage = { ...localMessage(`local-${context.seq}`, 'assistant', '', [], []), status: 'incomplete', error: lost?.message || null };
      return { seq: context.seq + 1, messages: [...messages, reply], replyKey: reply.key, outgoing: null, failure: lost };
    }),
    wantStop: assign({ stopWanted: true }),
    forgetStopWish: assign({ stopWanted: false }),
    /** After Stop, the answer shows exactly what the server stored. */
    takeStoredReply: assign(({ context }, params: { stored: Message }) => ({
      outgoing: null,
      failure: null,
      messages: updateMessage(context.messages, context.replyKey, () => ({
        content: params.stored.content,
        status: params.stored.status === 'streaming' ? ('incomplete' as const) : params.stored.status,
        error: params.stored.error ?? null,
      })),
    })),
    setDraft: assign(({ context, event }) => {
      assertEvent(event, 'draft.change');
      return { draft: event.text, drafts: writeDraft(context.drafts, draftScope(context), event.text) };
    }),
    takeStarter: assign(({ event }) => {
      assertEvent(event, 'starter.ask');
      return { draft: event.text };
    }),
    setAttachments: assign(({ event }) => {
      assertEvent(event, 'attachments.change');
      return { attachments: event.files };
    }),
    setLoadFailure: assign((_, params: { message: string }) => ({ failure: { kind: 'load' as const, message: params.message } })),
    forgetFailure: assign({ failure: null }),
    setConversationId: assign((_, params: { conversationId: string }) => ({ conversationId: params.conversationId, addressPending: true })),
    /** The address now names the conversation created here. */
    noteAddressReached: assign({ addressPending: false }),
    /** A new conversation: nothing said yet, with this agent, and what was left unsent for it. */
    startBlank: assign(({ context }, params: { agentId: string; source?: ConversationSource; application?: ConversationApplication | null }) => ({
      ...blankConversation(params.agentId, params.source, params.application),
      draft: draftIn(context.drafts, newChatScope(params.agentId)),
    })),
    /** Another stored conversation: its id, its messages to come, what was left unsent in it. */
    startOpening: assign(({ context }, params: { conversationId: string }) => ({
      ...blankConversation(context.agentId, context.source, context.application),
      conversationId: params.conversationId,
      draft: draftIn(context.drafts, params.conversationId),
    })),
    setLoaded: assign((_, params: { loaded: LoadedConversation }) => ({
      agentId: params.loaded.conversation.sourceId,
      source: params.loaded.conversation.source,
      application: params.loaded.conversation.application ?? null,
      messages: params.loaded.messages.map(fromServer),
      replyKey: answerBeingWritten(params.loaded.messages)?.messageId ?? null,
    })),
    prepareRetry: assign(({ context }) => {
      const replyIndex = context.messages.findLastIndex((message) => message.role === 'assistant');
      const question = context.messages[replyIndex - 1];
      const reply = context.messages[replyIndex];
      if (!reply || !question?.serverId) return {};
      return {
        replyKey: reply.key,
        failure: null,
        stopWanted: false,
        outgoing: newOutgoing({
          retryMessageId: question.serverId,
          previous: { content: reply.content, status: reply.status, error: reply.error },
        }),
        messages: updateMessage(context.messages, reply.key, () => ({ content: '', status: 'streaming' as const, error: null })),
      };
    }),
  },
  delays: {
    reattachDelay: ({ context }) => reattachDelayMs(context.reattachAttempts),
  },
  guards: {
    hasSomethingToSend: ({ context }) => context.draft.trim().length > 0 || context.attachments.length > 0,
    isNewConversation: ({ context }) => context.conversationId === null,
    /** A new chat with an agent, nothing in it and nothing typed: a starter question replaces nothing. */
    offersStarters: ({ context }) =>
      context.conversationId === null && context.source !== 'workflow' && context.messages.length === 0 && context.draft.trim() === '',
    canRetry: ({ context }) => {
      const replyIndex = context.messages.findLastIndex((message) => message.role === 'assistant');
      return replyIndex > 0 && Boolean(context.messages[replyIndex - 1]?.serverId);
    },
    lastAnswerUnfinished: ({ context }) => {
      const last = context.messages.at(-1);
      return last?.role === 'assistant' && (last.status === 'incomplete' || last.status === 'failed');
    },
    wasAccepted: ({ context }) => context.outgoing?.accepted === true,
    isRefusedVersion: ({ context }) => context.outgoing?.thread != null && !context.outgoing.accepted,
    canEdit: ({ context, event }) => event.type === 'edit.start' && editable(context.messages, event.key),
    editHasText: ({ context }) => context.editing !== null && context.editing.text.trim().length > 0 && editable(context.messages, context.editing.key),
    canRegenerate: ({ context, event }) => event.type === 'regenerate' && regenerable(context.messages, event.key),
    hasThatVersion: ({ context, event }) => event.type === 'version.show' && versionAway(context.messages, event.key, event.offset) !== null,
    /** The conversation opened on an answer still being written. */
    loadedAnswerBeingWritten: (_, params: { loaded: LoadedConversation }) => answerBeingWritten(params.loaded.messages) !== null,
    stopWanted: ({ context }) => context.stopWanted,
    /** The question the page never heard taken is in the stored conversation, its exchange standing so. */
    foundEnding: ({ context }, params: { stored: Message[]; endings: FoundEnding[]; stopWanted?: true }) => {
      const found = context.outgoing ? foundExchange(context.messages, params.stored) : null;
      return found !== null && params.endings.includes(found) && (!params.stopWanted || context.stopWanted);
    },
    /** The path the server now shows ends in an answer still being written. */
    pathBeingWritten: (_, params: { messages: Message[] }) => answerBeingWritten(params.messages) !== null,
    /**
     * The connection broke before the server said it took what was sent (a question, an edit, a
     * new answer): it may have. A retry is not looked for: it asks nothing new.
     */
    mayHaveBeenTaken: ({ context, event }) =>
      connectionLost(event) && context.outgoing !== null && !context.outgoing.accepted && context.outgoing.retryMessageId === null,
    /** The connection broke (or never opened) while the answer may still be being written. */
    isConnectionLost: ({ event }) => connectionLost(event),
    isRefusedRetry: ({ context }) => context.outgoing?.retryMessageId != null && !context.outgoing.accepted,
    replacedFailedAnswer: ({ context }) => context.outgoing?.previous?.status === 'failed',
    isAgentError: ({ event }) => event.type === 'stream.failed' && event.kind === 'agent-error',
    /** The address names a stored conversation other than the one open. */
    routeOpensAnother: ({ context, event }) =>
      event.type === 'route.changed' && !event.market && event.conversationId !== null && event.conversationId !== context.conversationId,
    /** "/chat?agent=<id>" is a link to a new chat with that agent. */
    routeLinksAgent: ({ event }) => event.type === 'route.changed' && !event.market && event.conversationId === null && event.agentId !== null,
    /** "/chat" after a conversation was open is the new-chat button (not the first send from home). */
    routeLeavesConversation: ({ context, event }) =>
      event.type === 'route.changed' && !event.market && event.conversationId === null && context.conversationId !== null && !context.addressPending,
    /** The address names the conversation just created here. */
    routeNamesCreated: ({ context, event }) => event.type === 'route.changed' && context.addressPending && event.conversationId === context.conversationId,
  },
}).createMachine({
  id: 'chat',
  context: ({ input }) => ({
    ...blankConversation(input.agentId ?? DEFAULT_AGENT_ID),
    conversationId: input.conversationId ?? null,
    draft: '',
    attachments: [],
    seq: 1,
    editing: null,
    versionTarget: null,
    drafts: {},
  }),
  initial: 'choosing',
  on: {
    'route.changed': [
      {
        guard: 'routeOpensAnother',
        target: '.loading',
        actions: { type: 'startOpening', params: ({ event }) => ({ conversationId: event.conversationId ?? '' }) },
      },
      {
        guard: 'routeLinksAgent',
        target: '.idle',
        actions: { type: 'startBlank', params: ({ context, event }) => ({ agentId: event.agentId ?? context.agentId }) },
      },
      {
        guard: 'routeLeavesConversation',
        target: '.idle',
        actions: {
          type: 'startBlank',
          params: ({ context }) => ({ agentId: context.agentId, source: context.source, application: context.application }),
        },
      },
      { guard: 'routeNamesCreated', actions: 'noteAddressReached' },
    ],
    'conversation.new': {
      target: '.idle',
      actions: {
        type: 'startBlank',
        params: ({ context, event }) =>
          event.agentId
            ? { agentId: event.agentId, source: event.source ?? 'agent', application: event.application ?? null }
            : { agentId: context.agentId, source: context.source, application: context.application },
      },
    },
    'conversation.open': {
      target: '.loading',
      actions: { type: 'startOpening', params: ({ event }) => ({ conversationId: event.conversationId }) },
    },
    'draft.change': { actions: ['setDraft', { type: 'persistDrafts', params: ({ context }) => ({ drafts: context.drafts }) }] },
    'attachments.change': { actions: 'setAttachments' },
    'drafts.loaded': { actions: 'loadDrafts' },
    // From any state: whatever the chat was doing was for the person who left.
    'session.changed': { target: '.idle', actions: 'forgetPerson' },
    'edit.change': { actions: 'changeEdit' },
    'edit.cancel': { actions: 'cancelEdit' },
  },
  states: {
    choosing: {
      always: [{ guard: 'isNewConversation', target: 'idle' }, { target: 'loading' }],
    },
    loading: {
      invoke: {
        id: 'loadConversation',
        src: 'loadConversation',
        input: ({ context }) => ({ conversationId: context.conversationId ?? '' }),
        onDone: [
          {
            guard: { type: 'loadedAnswerBeingWritten', params: ({ event }) => ({ loaded: event.output }) },
            target: 'resuming',
            actions: { type: 'setLoaded', params: ({ event }) => ({ loaded: event.output }) },
          },
          {
            target: 'idle',
            actions: { type: 'setLoaded', params: ({ event }) => ({ loaded: event.output }) },
          },
        ],
        onError: {
          target: 'loadFailed',
          actions: { type: 'setLoadFailure', params: ({ event }) => ({ message: event.error instanceof Error ? event.error.message : '' }) },
        },
      },
    },
    loadFailed: {
      // Loading again is not a failure yet: the page stops saying it failed.
      on: { reload: { target: 'loading', actions: 'forgetFailure' } },
    },
    idle: {
      // No answer is being written: a question may be edited, an answer asked again, a version shown.
      tags: ['settled'],
      on: {
        send: [
          { guard: { type: 'hasSomethingToSend' }, target: 'sending', actions: ['takeDraft', { type: 'persistDrafts', params: ({ context }) => ({ drafts: context.drafts }) }] },
        ],
        'starter.ask': {
          guard: 'offersStarters',
          target: 'sending',
          actions: ['takeStarter', 'takeDraft', { type: 'persistDrafts', params: ({ context }) => ({ drafts: context.drafts }) }],
        },
        'edit.start': { guard: 'canEdit', actions: 'startEdit' },
        'edit.send': { guard: 'editHasText', target: 'streaming', actions: 'takeEdit' },
        regenerate: { guard: 'canRegenerate', target: 'streaming', actions: 'takeRegenerate' },
        'version.show': { guard: 'hasThatVersion', target: 'switchingVersion', actions: 'aimVersion' },
        // A conversation opened on an answer cut short (a crash, a closed tab) offers its retry too.
        retry: { guard: and(['canRetry', 'lastAnswerUnfinished']), target: 'streaming', actions: 'prepareRetry' },
      },
    },
    sending: {
      always: [{ guard: 'isNewConversation', target: 'creatingConversation' }, { target: 'streaming' }],
    },
    creatingConversation: {
      invoke: {
        id: 'createConversation',
        src: 'createConversation',
        input: ({ context }) => ({ agentId: context.agentId, source: context.source, title: titleFromQuestion(context.outgoing?.text ?? '') }),
        onDone: {
          target: 'streaming',
          actions: [
            { type: 'setConversationId', params: ({ event }) => ({ conversationId: event.output.conversationId }) },
            { type: 'conversationCreated', params: ({ event }) => ({ conversationId: event.output.conversationId }) },
          ],
        },
        onError: {
          target: 'idle',
          actions: [
            {
              type: 'restoreOutgoing',
              params: ({ event }) => ({ failure: { kind: 'create' as const, message: event.error instanceof Error ? event.error.message : '' } }),
            },
            { type: 'persistDrafts', params: ({ context }) => ({ drafts: context.drafts }) },
          ],
        },
      },
    },
    streaming: {
      invoke: {
        id: 'chatStream',
        src: 'chatStream',
        input: ({ context }) => ({
          conversationId: context.conversationId ?? '',
          agentId: context.agentId,
          ...(context.outgoing?.retryMessageId
            ? { retryMessageId: context.outgoing.retryMessageId }
            : context.outgoing?.regenerateMessageId
              ? { regenerateMessageId: context.outgoing.regenerateMessageId }
              : context.outgoing?.editMessageId
                ? { editMessageId: context.outgoing.editMessageId, text: context.outgoing.text }
                : { text: context.outgoing?.text ?? '', files: context.outgoing?.files ?? [] }),
        }),
      },
      on: {
        'stream.accepted': [{ guard: 'stopWanted', target: 'stopping', actions: 'acceptExchange' }, { actions: 'acceptExchange' }],
        'stream.delta': { actions: 'appendDelta' },
        'stream.ended': {
          target: 'done',
          actions: ['completeReply', { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) }],
        },
        'stream.failed': [
          // The server may have taken it and only its word of it was lost: look before giving it back.
          {
            guard: 'mayHaveBeenTaken',
            target: 'confirming',
            actions: { type: 'keepLoss', params: ({ event }) => ({ failure: failureOf(event) }) },
          },
          {
            guard: 'isRefusedVersion',
            target: 'idle',
            actions: { type: 'restoreThread', params: ({ event }) => ({ failure: failureOf(event) }) },
          },
          {
            guard: and(['isRefusedRetry', 'replacedFailedAnswer']),
            target: 'failed',
            actions: { type: 'restorePreviousReply', params: ({ event }) => ({ failure: failureOf(event) }) },
          },
          {
            guard: 'isRefusedRetry',
            target: 'incomplete',
            actions: { type: 'restorePreviousReply', params: ({ event }) => ({ failure: failureOf(event) }) },
          },
          {
            guard: and(['wasAccepted', 'isAgentError']),
            target: 'failed',
            actions: [
              { type: 'markReply', params: ({ event }) => ({ status: 'failed' as const, failure: failureOf(event) }) },
              { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) },
            ],
          },
          // The answer goes on without this connection: it is read again from the text shown.
          { guard: and(['wasAccepted', 'isConnectionLost']), target: 'resuming' },
          {
            guard: 'wasAccepted',
            target: 'incomplete',
            actions: [
              { type: 'markReply', params: ({ event }) => ({ status: 'incomplete' as const, failure: failureOf(event) }) },
              { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) },
            ],
          },
          {
            target: 'idle',
            actions: [
              {
                type: 'restoreOutgoing',
                params: ({ event }) => ({ failure: failureOf(event) }),
              },
              { type: 'persistDrafts', params: ({ context }) => ({ drafts: context.drafts }) },
            ],
          },
        ],
        // Before the server took the question there is no answer to stop yet: it is stopped once there is.
        stop: [{ guard: 'wasAccepted', target: 'stopping' }, { actions: 'wantStop' }],
      },
    },
    /**
     * The connection broke before the server said whether it took what was sent (a reset, a proxy
     * cutting the start event): the server may have stored it and be answering. The page looks in
     * the stored conversation: a question (or an edit, or a new answer) found there is never given
     * back to be sent twice; its answer is shown as it stands, and read live if it is still being
     * written. Only what is not there (or a conversation that cannot be read) is given back: the
     * question into the box, an edit into its editor, the answer a new one was asked for to its place.
     */
    confirming: {
      invoke: {
        id: 'findQuestion',
        src: 'loadConversation',
        input: ({ context }) => ({ conversationId: context.conversationId ?? '', silent: true }),
        onDone: [
          {
            guard: { type: 'foundEnding', params: ({ event }) => ({ stored: event.output.messages, endings: ['writing'], stopWanted: true }) },
            target: 'stopping',
            actions: { type: 'takeFound', params: ({ event }) => ({ stored: event.output.messages }) },
          },
          {
            guard: { type: 'foundEnding', params: ({ event }) => ({ stored: event.output.messages, endings: ['writing'] }) },
            target: 'resuming',
            actions: { type: 'takeFound', params: ({ event }) => ({ stored: event.output.messages }) },
          },
          {
            guard: { type: 'foundEnding', params: ({ event }) => ({ stored: event.output.messages, endings: ['complete'] }) },
            target: 'done',
            actions: [
              { type: 'takeFound', params: ({ event }) => ({ stored: event.output.messages }) },
              { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) },
            ],
          },
          {
            guard: { type: 'foundEnding', params: ({ event }) => ({ stored: event.output.messages, endings: ['failed'] }) },
            target: 'failed',
            actions: [
              { type: 'takeFound', params: ({ event }) => ({ stored: event.output.messages }) },
              { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) },
            ],
          },
          {
            guard: { type: 'foundEnding', params: ({ event }) => ({ stored: event.output.messages, endings: ['incomplete', 'unanswered'] }) },
            target: 'incomplete',
            actions: [
              { type: 'takeFound', params: ({ event }) => ({ stored: event.output.messages }) },
              { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) },
            ],
          },
          ...giveBackLost,
        ],
        onError: giveBackLost,
      },
      // Stopped as soon as the page finds the answer being written.
      on: { stop: { actions: 'wantStop' } },
    },
    /** Attached to an answer being written: read from the text shown, then live. */
    resuming: {
      entry: 'markResuming',
      invoke: {
        id: 'resumeStream',
        src: 'resumeStream',
        input: ({ context }) => ({
          conversationId: context.conversationId ?? '',
          messageId: replyOf(context)?.serverId ?? '',
          offset: replyOf(context)?.content.length ?? 0,
        }),
      },
      on: {
        'stream.resumed': { actions: 'cutReply' },
        // New text: the answer is being written again, so a later loss starts from the shortest wait.
        'stream.delta': { actions: ['appendDelta', 'forgetReattachAttempts'] },
        'stream.ended': {
          target: 'done',
          actions: ['completeReply', { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) }],
        },
        'stream.stopped': {
          target: 'incomplete',
          actions: [
            { type: 'markReply', params: { status: 'incomplete', failure: null } },
            { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) },
          ],
        },
        'stream.failed': [
          {
            guard: 'isAgentError',
            target: 'failed',
            actions: [
              { type: 'markReply', params: ({ event }) => ({ status: 'failed' as const, failure: failureOf(event) }) },
              { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) },
            ],
          },
          {
            guard: 'isConnectionLost',
            target: 'detached',
            actions: { type: 'markDetached', params: ({ event }) => ({ failure: failureOf(event) }) },
          },
          {
            target: 'incomplete',
            actions: { type: 'markReply', params: ({ event }) => ({ status: 'incomplete' as const, failure: failureOf(event) }) },
          },
        ],
        stop: { target: 'stopping' },
      },
    },
    /**
     * The connection to an answer still being written is lost (the network, or the server
     * restarting): it is read again when the browser is back online, when the person asks, or by
     * itself after a wait that grows with each attempt (see `reattachDelayMs`). Reading again only
     * ever calls resume, never sends the question.
     */
    detached: {
      after: {
        reattachDelay: { target: 'resuming', actions: 'countReattachAttempt' },
      },
      on: {
        'connection.restored': { target: 'resuming' },
        retry: { target: 'resuming' },
        stop: { target: 'stopping' },
      },
    },
    /** The server is asked to stop the answer; the page then shows the text it stored. */
    stopping: {
      entry: ['forgetStopWish', 'forgetFailure'],
      invoke: {
        id: 'stopAnswer',
        src: 'stopAnswer',
        input: ({ context }) => ({ conversationId: context.conversationId ?? '', messageId: replyOf(context)?.serverId ?? '' }),
        onDone: {
          target: 'cancelled',
          actions: [
            { type: 'takeStoredReply', params: ({ event }) => ({ stored: event.output }) },
            { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) },
          ],
        },
        onError: {
          target: 'cancelled',
          actions: [
            { type: 'markReply', params: { status: 'incomplete', failure: null } },
            { type: 'exchangeSettled', params: ({ context }) => ({ conversationId: context.conversationId }) },
          ],
        },
      },
    },
    switchingVersion: {
      invoke: {
        id: 'selectVersion',
        src: 'selectVersion',
        input: ({ context }) => ({ conversationId: context.conversationId ?? '', messageId: context.versionTarget ?? '' }),
        onDone: [
          // The version shown is an answer still being written (asked from another tab): it is read live.
          {
            guard: { type: 'pathBeingWritten', params: ({ event }) => ({ messages: event.output }) },
            target: 'resuming',
            actions: { type: 'showPath', params: ({ event }) => ({ messages: event.output }) },
          },
          { target: 'idle', actions: { type: 'showPath', params: ({ event }) => ({ messages: event.output }) } },
        ],
        onError: {
          target: 'idle',
          actions: { type: 'setVersionFailure', params: ({ event }) => ({ message: event.error instanceof Error ? event.error.message : '' }) },
        },
      },
    },
    done: {
      tags: ['settled'],
      on: {
        send: { guard: 'hasSomethingToSend', target: 'sending', actions: ['takeDraft', { type: 'persistDrafts', params: ({ context }) => ({ drafts: context.drafts }) }] },
        'edit.start': { guard: 'canEdit', actions: 'startEdit' },
        'edit.send': { guard: 'editHasText', target: 'streaming', actions: 'takeEdit' },
        regenerate: { guard: 'canRegenerate', target: 'streaming', actions: 'takeRegenerate' },
        'version.show': { guard: 'hasThatVersion', target: 'switchingVersion', actions: 'aimVersion' },
      },
    },
    incomplete: {
      tags: ['settled'],
      on: {
        send: { guard: 'hasSomethingToSend', target: 'sending', actions: ['takeDraft', { type: 'persistDrafts', params: ({ context }) => ({ drafts: context.drafts }) }] },
        'edit.start': { guard: 'canEdit', actions: 'startEdit' },
        'edit.send': { guard: 'editHasText', target: 'streaming', actions: 'takeEdit' },
        regenerate: { guard: 'canRegenerate', target: 'streaming', actions: 'takeRegenerate' },
        'version.show': { guard: 'hasThatVersion', target: 'switchingVersion', actions: 'aimVersion' },
        retry: { guard: 'canRetry', target: 'streaming', actions: 'prepareRetry' },
      },
    },
    failed: {
      tags: ['settled'],
      on: {
        send: { guard: 'hasSomethingToSend', target: 'sending', actions: ['takeDraft', { type: 'persistDrafts', params: ({ context }) => ({ drafts: context.drafts }) }] },
        'edit.start': { guard: 'canEdit', actions: 'startEdit' },
        'edit.send': { guard: 'editHasText', target: 'streaming', actions: 'takeEdit' },
        regenerate: { guard: 'canRegenerate', target: 'streaming', actions: 'takeRegenerate' },
        'version.show': { guard: 'hasThatVersion', target: 'switchingVersion', actions: 'aimVersion' },
        retry: { guard: 'canRetry', target: 'streaming', actions: 'prepareRetry' },
      },
    },
    cancelled: {
      tags: ['settled'],
      on: {
        send: { guard: 'hasSomethingToSend', target: 'sending', actions: ['takeDraft', { type: 'persistDrafts', params: ({ context }) => ({ drafts: context.drafts }) }] },
        'edit.start': { guard: 'canEdit', actions: 'startEdit' },
        'edit.send': { guard: 'editHasText', target: 'streaming', actions: 'takeEdit' },
        regenerate: { guard: 'canRegenerate', target: 'streaming', actions: 'takeRegenerate' },
        'version.show': { guard: 'hasThatVersion', target: 'switchingVersion', actions: 'aimVersion' },
        retry: { guard: 'canRetry', target: 'streaming', actions: 'prepareRetry' },
      },
    },
  },
});

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

/** A running chat, as the screens read it. */
export type ChatActorRef = ActorRefFrom<typeof chatMachine>;

/** Whether two snapshots of the chat differ at most in the text of answers being written: what it accepts is the same. */
export const sameChatApartFromAnswerText = (a: SnapshotFrom<typeof chatMachine>, b: SnapshotFrom<typeof chatMachine>): boolean => {
  if (a === b) return true;
  if (a.status !== b.status || !sameStateValue(a.value, b.value)) return false;
  const keys = Object.keys(a.context) as (keyof ChatContext)[];
  return keys.every((key) => (key === 'messages' ? sameApartFromAnswerText(a.context.messages, b.context.messages) : a.context[key] === b.context[key]));
};

const sameStateValue = (a: StateValue, b: StateValue): boolean => {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameStateValue(a[key]!, b[key]!));
};

/** The text of one message as it is now (searched from the end, where an answer being written is). */
export const selectAnswerText =
  (key: string) =>
  (state: SnapshotFrom<typeof chatMachine>): string | undefined =>
    state.context.messages.findLast((message) => message.key === key)?.content;

/** An answer is on its way (asked, being read, reconnecting or being stopped): the composer offers Stop. */
export const isAnswering = (state: SnapshotFrom<typeof chatMachine>): boolean =>
  (['sending', 'creatingConversation', 'streaming', 'confirming', 'resuming', 'detached', 'stopping'] as const).some((answering) => state.matches(answering));
