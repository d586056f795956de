import { and, assertEvent, assign, fromCallback, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { DEFAULT_AGENT_ID } from '../contract/constants';
import type { ChatRequest, ChatResumeRequest } from '../contract/chat';
import type { Conversation } from '../contract/conversations';
import type { FileRef } from '../contract/media';
import type { Message } from '../contract/messages';
import type { StreamFailureKind } from '../services/chat-stream';
import type { ChatStreamReport } from './chat-stream.actor';

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
};

export type ChatFailure = {
  kind: StreamFailureKind | 'create' | 'load';
  message: string;
  /** A refusal for a used-up quota: when the server says the question may go again. */
  retryAfterSeconds?: number;
};

type Outgoing = {
  text: string;
  files: FileRef[];
  retryMessageId: string | null;
  accepted: boolean;
  /** For a retry: the answer being replaced, put back if the server refuses the retry. */
  previous: Pick<ChatMessage, 'content' | 'status' | 'error'> | null;
};

export type ChatContext = {
  agentId: string;
  conversationId: string | null;
  messages: ChatMessage[];
  draft: string;
  attachments: FileRef[];
  outgoing: Outgoing | null;
  replyKey: string | null;
  messageIds: string[];
  failure: ChatFailure | null;
  seq: number;
  /** Stop was pressed before the server took the question: it is stopped as soon as it does. */
  stopWanted: boolean;
};

/** What the address says: a stored conversation, a link to a new chat with an agent, or the market. */
export type ChatRoute = { market: boolean; conversationId: string | null; agentId: string | null };

export type ChatEvent =
  | ({ type: 'route.changed' } & ChatRoute)
  | { type: 'conversation.new'; agentId?: string }
  | { type: 'conversation.open'; conversationId: string }
  | { type: 'draft.change'; text: string }
  | { type: 'attachments.change'; files: FileRef[] }
  | { type: 'send' }
  | { type: 'stop' }
  | { type: 'retry' }
  | { type: 'reload' }
  /** The browser is online again: an answer whose connection was lost is read again. */
  | { type: 'connection.restored' }
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
});

const blankConversation = (
  agentId: string,
): Pick<ChatContext, 'agentId' | 'conversationId' | 'messages' | 'outgoing' | 'replyKey' | 'messageIds' | 'failure' | 'stopWanted'> => ({
  agentId,
  conversationId: null,
  messages: [],
  outgoing: null,
  replyKey: null,
  messageIds: [],
  failure: null,
  stopWanted: false,
});

const replyOf = (context: ChatContext) => context.messages.find((message) => message.key === context.replyKey);

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
    loadConversation: fromPromise<LoadedConversation, { conversationId: string }>(async () => {
      throw new Error('loadConversation is provided where the app starts');
    }),
    createConversation: fromPromise<Conversation, { agentId: string; title: string }>(async () => {
      throw new Error('createConversation is provided where the app starts');
    }),
    chatStream: fromCallback<{ type: 'noop' }, ChatRequest>(() => () => undefined),
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
        outgoing: { text: context.draft, files: context.attachments, retryMessageId: null, accepted: false, previous: null },
        replyKey,
        failure: null,
        draft: '',
        attachments: [],
        messageIds: [],
        messages: [
          ...context.messages,
          { key: userKey, serverId: null, role: 'user' as const, content: context.draft, status: 'sending' as const, files: context.attachments, error: null },
          { key: replyKey, serverId: null, role: 'assistant' as const, content: '', status: 'streaming' as const, files: [], error: null },
        ],
      };
    }),
    restoreOutgoing: assign(({ context }, params: { failure: ChatFailure }) => {
      const outgoing = context.outgoing;
      if (!outgoing) return { failure: params.failure };
      const sentKeys = new Set([context.replyKey, context.messages.at(-2)?.key]);
      return {
        messages: context.messages.filter((message) => !sentKeys.has(message.key)),
        // Whatever was typed since stays; the unsent question comes back in front of it.
        draft: context.draft ? `${outgoing.text}\n${context.draft}` : outgoing.text,
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
          if (message.key === context.replyKey) return { ...message, serverId: event.replyMessageId };
          if (index === userIndex && message.role === 'user') return { ...message, serverId: event.userMessageId, status: 'complete' as const };
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
        messages: updateMessage(context.messages, context.replyKey, () => ({ status: 'complete' as const })),
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
    setDraft: assign(({ event }) => {
      assertEvent(event, 'draft.change');
      return { draft: event.text };
    }),
    setAttachments: assign(({ event }) => {
      assertEvent(event, 'attachments.change');
      return { attachments: event.files };
    }),
    setLoadFailure: assign((_, params: { message: string }) => ({ failure: { kind: 'load' as const, message: params.message } })),
    forgetFailure: assign({ failure: null }),
    setConversationId: assign((_, params: { conversationId: string }) => ({ conversationId: params.conversationId })),
    /** A new conversation: nothing said yet, with this agent (the draft stays). */
    startBlank: assign((_, params: { agentId: string }) => blankConversation(params.agentId)),
    /** Another stored conversation: its id, its messages to come. */
    startOpening: assign(({ context }, params: { conversationId: string }) => ({
      ...blankConversation(context.agentId),
      conversationId: params.conversationId,
    })),
    setLoaded: assign((_, params: { loaded: LoadedConversation }) => ({
      agentId: params.loaded.conversation.sourceId,
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
        outgoing: {
          text: '',
          files: [],
          retryMessageId: question.serverId,
          accepted: false,
          previous: { content: reply.content, status: reply.status, error: reply.error },
        },
        messages: updateMessage(context.messages, reply.key, () => ({ content: '', status: 'streaming' as const, error: null })),
      };
    }),
  },
  guards: {
    hasSomethingToSend: ({ context }) => context.draft.trim().length > 0 || context.attachments.length > 0,
    isNewConversation: ({ context }) => context.conversationId === null,
    canRetry: ({ context }) => {
      const replyIndex = context.messages.findLastIndex((message) => message.role === 'assistant');
      return replyIndex > 0 && Boolean(context.messages[replyIndex - 1]?.serverId);
    },
    lastAnswerUnfinished: ({ context }) => {
      const last = context.messages.at(-1);
      return last?.role === 'assistant' && (last.status === 'incomplete' || last.status === 'failed');
    },
    wasAccepted: ({ context }) => context.outgoing?.accepted === true,
    /** The conversation opened on an answer still being written. */
    loadedAnswerBeingWritten: (_, params: { loaded: LoadedConversation }) => answerBeingWritten(params.loaded.messages) !== null,
    stopWanted: ({ context }) => context.stopWanted,
    /** The connection broke (or never opened) while the answer may still be being written. */
    isConnectionLost: ({ event }) => event.type === 'stream.failed' && (event.kind === 'incomplete' || event.kind === 'network'),
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
      event.type === 'route.changed' && !event.market && event.conversationId === null && context.conversationId !== null,
  },
}).createMachine({
  id: 'chat',
  context: ({ input }) => ({
    ...blankConversation(input.agentId ?? DEFAULT_AGENT_ID),
    conversationId: input.conversationId ?? null,
    draft: '',
    attachments: [],
    seq: 1,
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
        actions: { type: 'startBlank', params: ({ context }) => ({ agentId: context.agentId }) },
      },
    ],
    'conversation.new': {
      target: '.idle',
      actions: { type: 'startBlank', params: ({ context, event }) => ({ agentId: event.agentId ?? context.agentId }) },
    },
    'conversation.open': {
      target: '.loading',
      actions: { type: 'startOpening', params: ({ event }) => ({ conversationId: event.conversationId }) },
    },
    'draft.change': { actions: 'setDraft' },
    'attachments.change': { actions: 'setAttachments' },
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
      on: {
        send: [
          { guard: { type: 'hasSomethingToSend' }, target: 'sending', actions: 'takeDraft' },
        ],
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
        input: ({ context }) => ({ agentId: context.agentId, title: context.outgoing?.text.slice(0, 30) ?? '' }),
        onDone: {
          target: 'streaming',
          actions: [
            { type: 'setConversationId', params: ({ event }) => ({ conversationId: event.output.conversationId }) },
            { type: 'conversationCreated', params: ({ event }) => ({ conversationId: event.output.conversationId }) },
          ],
        },
        onError: {
          target: 'idle',
          actions: {
            type: 'restoreOutgoing',
            params: ({ event }) => ({ failure: { kind: 'create' as const, message: event.error instanceof Error ? event.error.message : '' } }),
          },
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
            actions: {
              type: 'restoreOutgoing',
              params: ({ event }) => ({ failure: failureOf(event) }),
            },
          },
        ],
        // Before the server took the question there is no answer to stop yet: it is stopped once there is.
        stop: [{ guard: 'wasAccepted', target: 'stopping' }, { actions: 'wantStop' }],
      },
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
        'stream.delta': { actions: 'appendDelta' },
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
    /** The connection to an answer still being written is lost: it is read again when it comes back. */
    detached: {
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
    done: {
      on: { send: { guard: 'hasSomethingToSend', target: 'sending', actions: 'takeDraft' } },
    },
    incomplete: {
      on: {
        send: { guard: 'hasSomethingToSend', target: 'sending', actions: 'takeDraft' },
        retry: { guard: 'canRetry', target: 'streaming', actions: 'prepareRetry' },
      },
    },
    failed: {
      on: {
        send: { guard: 'hasSomethingToSend', target: 'sending', actions: 'takeDraft' },
        retry: { guard: 'canRetry', target: 'streaming', actions: 'prepareRetry' },
      },
    },
    cancelled: {
      on: {
        send: { guard: 'hasSomethingToSend', target: 'sending', actions: 'takeDraft' },
        retry: { guard: 'canRetry', target: 'streaming', actions: 'prepareRetry' },
      },
    },
  },
});

/** An answer is on its way (asked, being read, reconnecting or being stopped): the composer offers Stop. */
export const isAnswering = (state: SnapshotFrom<typeof chatMachine>): boolean =>
  (['sending', 'creatingConversation', 'streaming', 'resuming', 'detached', 'stopping'] as const).some((answering) => state.matches(answering));
