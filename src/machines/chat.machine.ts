import { and, assertEvent, assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { DEFAULT_AGENT_ID, MESSAGE_TEXT_MAX } from '../contract/constants';
import type { ChatRequest, ChatResumeRequest } from '../contract/chat';
import { titleFromQuestion } from '../contract/chat-title';
import type { Conversation, ConversationApplication, ConversationSource } from '../contract/conversations';
import type { Message, TokenUsage } from '../contract/messages';
import type { ChatEvent, ChatInput, LoadedConversation } from './chat-events';
import { answerBeingWritten, editable, foundExchange, fromServer, regenerable, updateMessage, versionAway, type FoundEnding } from './chat-messages';
import {
  acceptExchange,
  blankConversation,
  chatRequestOf,
  creationFailure,
  draftScope,
  errorMessage,
  prepareRetry,
  questionText,
  reattachDelayMs,
  replyOf,
  restoreOutgoing,
  restorePreviousReply,
  restoreThread,
  takeDraft,
  takeEdit,
  takeFound,
  takeRegenerate,
  type ChatContext,
  type ChatFailure,
} from './chat-sending';
import {
  agentFailed,
  answerEndedAs,
  answerFinished,
  answerStopped,
  endedAs,
  exchangeSettled,
  foundAs,
  giveBackLost,
  marked,
  withFailure,
  type EndingKind,
} from './chat-endings';
import type { ChatStreamInput, StreamEnding } from './chat-stream.actor';
import { draftIn, newChatScope, writeDraft } from './draft-book';

export type { ChatMessage, ChatMessageStatus } from './chat-messages';
export { foundExchange, sameApartFromAnswerText, sameChatApartFromAnswerText } from './chat-messages';
export type { ChatEvent, ChatInput, ChatRoute, LoadedConversation } from './chat-events';
export type { ChatContext, ChatFailure, Outgoing, Sending } from './chat-sending';
export { MAX_DRAFTS, writeDraft, type DraftBook } from './draft-book';
export { REATTACH_FIRST_MS, REATTACH_MAX_MS, reattachDelayMs } from './chat-sending';

/**
 * One chat at a time: open or start a conversation, send a question, stream the answer, stop
 * it, retry it. A question the server never accepted goes back into the input box; an answer
 * cut short is kept and marked, with a retry that answers the stored question again (the
 * question itself is never sent twice) or, when it has text, a continuation of it.
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
    /** The streams are provided where the app starts; unprovided, a stream never ends. */
    chatStream: fromPromise<StreamEnding, ChatStreamInput<ChatRequest>>(() => new Promise(() => undefined)),
    selectVersion: fromPromise<Message[], { conversationId: string; messageId: string }>(async () => {
      throw new Error('selectVersion is provided where the app starts');
    }),
    resumeStream: fromPromise<StreamEnding, ChatStreamInput<ChatResumeRequest>>(() => new Promise(() => undefined)),
    stopAnswer: fromPromise<Message, { conversationId: string; messageId: string }>(async () => {
      throw new Error('stopAnswer is provided where the app starts');
    }),
  },
  actions: {
    /** The conversation now has an id: the screen puts it in the address bar and the history. */
    conversationCreated: (_, _params: { conversationId: string }) => undefined,
    /** The server refused a conversation's first question: the empty conversation is deleted and the address goes back to a new chat. */
    conversationDiscarded: (_, _params: { conversationId: string }) => undefined,
    /** An exchange ended (any way): the history list should show the new update time. */
    exchangeSettled: (_, _params: { conversationId: string | null }) => undefined,
    takeDraft: assign(({ context }) => takeDraft(context)),
    takeEdit: assign(({ context }) => takeEdit(context)),
    takeRegenerate: assign(({ context, event }) => {
      assertEvent(event, 'regenerate');
      return takeRegenerate(context, event.key);
    }),
    prepareRetry: assign(({ context }) => prepareRetry(context)),
    prepareContinue: assign(({ context }) => prepareRetry(context, true)),
    restoreThread: assign(({ context }, params: { failure: ChatFailure }) => restoreThread(context, params.failure)),
    restoreOutgoing: assign(({ context }, params: { failure: ChatFailure }) => restoreOutgoing(context, params.failure)),
    restorePreviousReply: assign(({ context }, params: { failure: ChatFailure }) => restorePreviousReply(context, params.failure)),
    acceptExchange: assign(({ context, event }) => {
      assertEvent(event, 'stream.accepted');
      return acceptExchange(context, event);
    }),
    /** The server took the question after all (see `confirming`). */
    takeFound: assign(({ context }, params: { stored: Message[] }) => takeFound(context, params.stored)),
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
    appendDelta: assign(({ context, event }) => {
      assertEvent(event, 'stream.delta');
      return { messages: updateMessage(context.messages, context.replyKey, (message) => ({ content: message.content + event.text })) };
    }),
    completeReply: assign(({ context }, params: { messageIds: string[]; usage?: TokenUsage }) => ({
      messageIds: params.messageIds,
      outgoing: null,
      messages: updateMessage(context.messages, context.replyKey, () => ({ status: 'complete' as const, ...(params.usage ? { usage: params.usage } : {}) })),
    })),
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
    /** The chat is a new one again (its empty conversation discarded): what was typed stays with the new chat. */
    forgetConversation: assign({ conversationId: null, addressPending: false }),
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
  },
  delays: {
    reattachDelay: ({ context }) => reattachDelayMs(context.reattachAttempts),
  },
  guards: {
    /** Something typed or attached, and no longer than the server takes (it would refuse it). */
    hasSomethingToSend: ({ context }) => (context.draft.trim().length > 0 || context.attachments.length > 0) && context.draft.length <= MESSAGE_TEXT_MAX,
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
    /** The last answer has text the server stored, to write on from (the server refuses an empty one). */
    answerHasStoredText: ({ context }) => Boolean(context.messages.at(-1)?.content && context.messages.at(-1)?.serverId),
    wasAccepted: ({ context }) => context.outgoing?.accepted === true,
    /** The server refused a question in a conversation that holds nothing else: giving it back leaves the conversation empty. */
    refusedFirstQuestion: ({ context }) =>
      context.outgoing?.kind === 'question' && !context.outgoing.accepted && context.conversationId !== null && context.messages.length === 2,
    /** A new version of a question or an answer that the server did not take. */
    isRefusedVersion: ({ context }) => (context.outgoing?.kind === 'edit' || context.outgoing?.kind === 'regenerate') && !context.outgoing.accepted,
    /** A retry the server did not take. */
    isRefusedRetry: ({ context }) => context.outgoing?.kind === 'retry' && !context.outgoing.accepted,
    /** The retry was of a failed answer (which it gives back as failed). */
    replacedFailedAnswer: ({ context }) => context.outgoing?.kind === 'retry' && context.outgoing.previous.status === 'failed',
    /**
     * The connection broke before the server said it took what was sent (a question, an edit, a
     * new answer): it may have. A retry is not looked for: it asks nothing new.
     */
    mayHaveBeenTaken: ({ context }, params: { ending: EndingKind }) =>
      params.ending === 'lost' && context.outgoing !== null && !context.outgoing.accepted && context.outgoing.kind !== 'retry',
    /** The stream ended in one of these ways (its actor says which, once). */
    endedAs: (_, params: { ending: EndingKind; kinds: EndingKind[] }) => params.kinds.includes(params.ending),
    /** The server had taken what was sent, and the stream of its answer ended in one of these ways. */
    answerEndedAs: ({ context }, params: { ending: EndingKind; kinds: EndingKind[] }) => context.outgoing?.accepted === true && params.kinds.includes(params.ending),
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
        target: '.settled.idle',
        actions: { type: 'startBlank', params: ({ context, event }) => ({ agentId: event.agentId ?? context.agentId }) },
      },
      {
        guard: 'routeLeavesConversation',
        target: '.settled.idle',
        actions: {
          type: 'startBlank',
          params: ({ context }) => ({ agentId: context.agentId, source: context.source, application: context.application }),
        },
      },
      { guard: 'routeNamesCreated', actions: 'noteAddressReached' },
    ],
    'conversation.new': {
      target: '.settled.idle',
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
    'draft.change': { actions: 'setDraft' },
    'attachments.change': { actions: 'setAttachments' },
    'drafts.loaded': { actions: 'loadDrafts' },
    // From any state: whatever the chat was doing was for the person who left.
    'session.changed': { target: '.settled.idle', actions: 'forgetPerson' },
    'edit.change': { actions: 'changeEdit' },
    'edit.cancel': { actions: 'cancelEdit' },
  },
  states: {
    choosing: {
      always: [{ guard: 'isNewConversation', target: 'settled.idle' }, { target: 'loading' }],
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
            target: 'settled.idle',
            actions: { type: 'setLoaded', params: ({ event }) => ({ loaded: event.output }) },
          },
        ],
        onError: {
          target: 'loadFailed',
          actions: { type: 'setLoadFailure', params: ({ event }) => ({ message: errorMessage(event.error) }) },
        },
      },
    },
    loadFailed: {
      // Loading again is not a failure yet: the page stops saying it failed.
      on: { reload: { target: 'loading', actions: 'forgetFailure' } },
    },
    /**
     * No answer is being written: a question may be sent, a sent one edited, an answer asked
     * again, a version shown. How the last exchange ended decides only whether it offers a retry
     * (and, for an answer cut short with text, a continuation written on in the same answer).
     */
    settled: {
      tags: ['settled'],
      initial: 'idle',
      on: {
        send: { guard: 'hasSomethingToSend', target: 'sending', actions: 'takeDraft' },
        'edit.start': { guard: 'canEdit', actions: 'startEdit' },
        'edit.send': { guard: 'editHasText', target: 'streaming', actions: 'takeEdit' },
        regenerate: { guard: 'canRegenerate', target: 'streaming', actions: 'takeRegenerate' },
        'version.show': { guard: 'hasThatVersion', target: 'switchingVersion', actions: 'aimVersion' },
        continue: { guard: and(['canRetry', 'lastAnswerUnfinished', 'answerHasStoredText']), target: 'streaming', actions: 'prepareContinue' },
      },
      states: {
        /** Opened, new, or given back: a conversation opened on an answer cut short (a crash, a closed tab) offers its retry too. */
        idle: {
          on: {
            'starter.ask': { guard: 'offersStarters', target: '#chat.sending', actions: ['takeStarter', 'takeDraft'] },
            retry: { guard: and(['canRetry', 'lastAnswerUnfinished']), target: '#chat.streaming', actions: 'prepareRetry' },
          },
        },
        done: {},
        /** The answer was cut short, failed or was stopped: it may be written again. */
        unfinished: {
          initial: 'incomplete',
          on: { retry: { guard: 'canRetry', target: '#chat.streaming', actions: 'prepareRetry' } },
          states: { incomplete: {}, failed: {}, cancelled: {} },
        },
      },
    },
    sending: {
      always: [{ guard: 'isNewConversation', target: 'creatingConversation' }, { target: 'streaming' }],
    },
    creatingConversation: {
      invoke: {
        id: 'createConversation',
        src: 'createConversation',
        input: ({ context }) => ({ agentId: context.agentId, source: context.source, title: titleFromQuestion(questionText(context.outgoing)) }),
        onDone: {
          target: 'streaming',
          actions: [
            { type: 'setConversationId', params: ({ event }) => ({ conversationId: event.output.conversationId }) },
            { type: 'conversationCreated', params: ({ event }) => ({ conversationId: event.output.conversationId }) },
          ],
        },
        onError: {
          target: 'settled.idle',
          actions: { type: 'restoreOutgoing', params: ({ event }) => ({ failure: creationFailure(event.error) }) },
        },
      },
    },
    streaming: {
      invoke: {
        id: 'chatStream',
        src: 'chatStream',
        input: ({ context, self }) => ({ request: chatRequestOf(context), reportTo: self }),
        onDone: [
          answerFinished,
          answerStopped,
          // The server may have taken it and only its word of it was lost: look before giving it back.
          { guard: { type: 'mayHaveBeenTaken', params: ({ event }) => ({ ending: event.output.kind }) }, target: 'confirming', actions: withFailure('keepLoss') },
          { guard: 'isRefusedVersion', target: 'settled.idle', actions: withFailure('restoreThread') },
          { guard: and(['isRefusedRetry', 'replacedFailedAnswer']), target: 'settled.unfinished.failed', actions: withFailure('restorePreviousReply') },
          { guard: 'isRefusedRetry', target: 'settled.unfinished.incomplete', actions: withFailure('restorePreviousReply') },
          { guard: answerEndedAs('agent-error'), ...agentFailed },
          // The answer goes on without this connection: it is read again from the text shown.
          { guard: answerEndedAs('lost'), target: 'resuming' },
          { guard: 'wasAccepted', target: 'settled.unfinished.incomplete', actions: [marked('incomplete'), exchangeSettled] },
          {
            guard: 'refusedFirstQuestion',
            target: 'settled.idle',
            actions: [
              { type: 'conversationDiscarded', params: ({ context }) => ({ conversationId: context.conversationId ?? '' }) },
              'forgetConversation',
              withFailure('restoreOutgoing'),
            ],
          },
          { target: 'settled.idle', actions: withFailure('restoreOutgoing') },
        ],
      },
      on: {
        'stream.accepted': [{ guard: 'stopWanted', target: 'stopping', actions: 'acceptExchange' }, { actions: 'acceptExchange' }],
        'stream.delta': { actions: 'appendDelta' },
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
          foundAs(['writing'], 'stopping', { unsettled: true, stopWanted: true }),
          foundAs(['writing'], 'resuming', { unsettled: true }),
          foundAs(['complete'], 'settled.done'),
          foundAs(['failed'], 'settled.unfinished.failed'),
          foundAs(['incomplete', 'unanswered'], 'settled.unfinished.incomplete'),
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
        input: ({ context, self }) => ({
          request: { conversationId: context.conversationId ?? '', messageId: replyOf(context)?.serverId ?? '', offset: replyOf(context)?.content.length ?? 0 },
          reportTo: self,
        }),
        onDone: [
          answerFinished,
          answerStopped,
          { guard: endedAs('agent-error'), ...agentFailed },
          { guard: endedAs('lost'), target: 'detached', actions: withFailure('markDetached') },
          { target: 'settled.unfinished.incomplete', actions: marked('incomplete') },
        ],
      },
      on: {
        'stream.resumed': { actions: 'cutReply' },
        // New text: the answer is being written again, so a later loss starts from the shortest wait.
        'stream.delta': { actions: ['appendDelta', 'forgetReattachAttempts'] },
        stop: { target: 'stopping' },
      },
    },
    /**
     * The connection to an answer still being written is lost (the network, or the server restarting): it is read again when
     * the browser is back online, when the person asks, or by itself after a wait that grows with each attempt (see
     * `reattachDelayMs`). Reading again only ever calls resume, never sends the question.
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
          target: 'settled.unfinished.cancelled',
          actions: [{ type: 'takeStoredReply', params: ({ event }) => ({ stored: event.output }) }, exchangeSettled],
        },
        onError: {
          target: 'settled.unfinished.cancelled',
          actions: [{ type: 'markReply', params: { status: 'incomplete', failure: null } }, exchangeSettled],
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
          { target: 'settled.idle', actions: { type: 'showPath', params: ({ event }) => ({ messages: event.output }) } },
        ],
        onError: {
          target: 'settled.idle',
          actions: { type: 'setVersionFailure', params: ({ event }) => ({ message: errorMessage(event.error) }) },
        },
      },
    },
  },
});

/** A running chat, as the screens read it. */
export type ChatActorRef = ActorRefFrom<typeof chatMachine>;

/** The text of one message as it is now (searched from the end, where an answer being written is). */
export const selectAnswerText =
  (key: string) =>
  (state: SnapshotFrom<typeof chatMachine>): string | undefined =>
    state.context.messages.findLast((message) => message.key === key)?.content;

/** An answer is on its way (asked, being read, reconnecting or being stopped): the composer offers Stop. */
export const isAnswering = (state: SnapshotFrom<typeof chatMachine>): boolean =>
  (['sending', 'creatingConversation', 'streaming', 'confirming', 'resuming', 'detached', 'stopping'] as const).some((answering) => state.matches(answering));
