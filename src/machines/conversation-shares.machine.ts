import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Share } from '../contract/shares';
import { statusOf } from './error-status';

export type ExportFormat = 'markdown' | 'json';

export type ConversationSharesInput = {
  /** The conversation whose links are shown; none for every link of the account. */
  conversationId: string | null;
  /** Sharing needs an account; a visitor can still export. */
  signedIn: boolean;
};

export type ConversationSharesContext = ConversationSharesInput & {
  shares: Share[];
  showOwnerName: boolean;
  /** `tooMany`: a link refused because the account made too many in a short time (429). */
  error: 'load' | 'create' | 'tooMany' | 'revoke' | 'export' | null;
};

export type ConversationSharesEvent =
  | { type: 'showName.toggle' }
  | { type: 'share.create' }
  | { type: 'share.revoke'; shareId: string }
  | { type: 'export'; format: ExportFormat }
  | { type: 'retry' };

/**
 * A conversation's share links and exports (or, without a conversation, every link of the
 * account): the links are listed, one is made (the owner's name shown only when chosen) or
 * revoked; the conversation is exported as Markdown or JSON. A failure is said and nothing is lost.
 */
export const conversationSharesMachine = setup({
  types: {
    context: {} as ConversationSharesContext,
    events: {} as ConversationSharesEvent,
    input: {} as ConversationSharesInput,
  },
  actors: {
    fetchShares: fromPromise<Share[], { conversationId: string | null }>(async () => {
      throw new Error('fetchShares is provided where the links are shown');
    }),
    createShare: fromPromise<Share, { conversationId: string; showOwnerName: boolean }>(async () => {
      throw new Error('createShare is provided where the links are shown');
    }),
    /** Answers the id of the link revoked. */
    revokeShare: fromPromise<string, { shareId: string }>(async () => {
      throw new Error('revokeShare is provided where the links are shown');
    }),
    exportConversation: fromPromise<void, { conversationId: string; format: ExportFormat }>(async () => {
      throw new Error('exportConversation is provided where the links are shown');
    }),
  },
  actions: {
    showShares: assign((_, params: { shares: Share[] }) => ({ shares: params.shares, error: null })),
    addShare: assign(({ context }, params: { share: Share }) => ({ shares: [params.share, ...context.shares], error: null })),
    dropShare: assign(({ context }, params: { shareId: string }) => ({
      shares: context.shares.filter((share) => share.shareId !== params.shareId),
      error: null,
    })),
    toggleShowName: assign(({ context }) => ({ showOwnerName: !context.showOwnerName })),
    sayFailed: assign((_, params: { error: NonNullable<ConversationSharesContext['error']> }) => ({ error: params.error })),
    clearError: assign({ error: null }),
  },
  guards: {
    canShare: ({ context }) => context.signedIn,
    hasConversation: ({ context }) => context.conversationId !== null,
  },
}).createMachine({
  id: 'conversationShares',
  context: ({ input }) => ({ ...input, shares: [], showOwnerName: false, error: null }),
  initial: 'choosing',
  states: {
    choosing: {
      always: [{ guard: 'canShare', target: 'loading' }, { target: 'exportOnly' }],
    },
    /** A visitor: no links (they need an account), exports only. */
    exportOnly: {
      on: { export: { guard: 'hasConversation', target: 'exportingAlone' } },
    },
    exportingAlone: {
      entry: 'clearError',
      invoke: {
        src: 'exportConversation',
        input: ({ context, event }) => ({ conversationId: context.conversationId ?? '', format: event.type === 'export' ? event.format : 'markdown' }),
        onDone: 'exportOnly',
        onError: { target: 'exportOnly', actions: { type: 'sayFailed', params: { error: 'export' } } },
      },
    },
    loading: {
      invoke: {
        src: 'fetchShares',
        input: ({ context }) => ({ conversationId: context.conversationId }),
        onDone: { target: 'ready', actions: { type: 'showShares', params: ({ event }) => ({ shares: event.output }) } },
        onError: { target: 'failed', actions: { type: 'sayFailed', params: { error: 'load' } } },
      },
    },
    failed: {
      on: { retry: 'loading' },
    },
    ready: {
      on: {
        'showName.toggle': { actions: 'toggleShowName' },
        'share.create': { guard: 'hasConversation', target: 'creating' },
        'share.revoke': { target: 'revoking' },
        export: { guard: 'hasConversation', target: 'exporting' },
      },
    },
    creating: {
      entry: 'clearError',
      invoke: {
        src: 'createShare',
        input: ({ context }) => ({ conversationId: context.conversationId ?? '', showOwnerName: context.showOwnerName }),
        onDone: { target: 'ready', actions: { type: 'addShare', params: ({ event }) => ({ share: event.output }) } },
        onError: { target: 'ready', actions: { type: 'sayFailed', params: ({ event }) => ({ error: statusOf(event.error) === 429 ? 'tooMany' : 'create' }) } },
      },
    },
    revoking: {
      entry: 'clearError',
      invoke: {
        src: 'revokeShare',
        input: ({ event }) => {
          assertEvent(event, 'share.revoke');
          return { shareId: event.shareId };
        },
        onDone: { target: 'ready', actions: { type: 'dropShare', params: ({ event }) => ({ shareId: event.output }) } },
        onError: { target: 'ready', actions: { type: 'sayFailed', params: { error: 'revoke' } } },
      },
    },
    exporting: {
      entry: 'clearError',
      invoke: {
        src: 'exportConversation',
        input: ({ context, event }) => ({ conversationId: context.conversationId ?? '', format: event.type === 'export' ? event.format : 'markdown' }),
        onDone: 'ready',
        onError: { target: 'ready', actions: { type: 'sayFailed', params: { error: 'export' } } },
      },
    },
  },
});
