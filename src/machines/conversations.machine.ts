import { assertEvent, assign, cancel, enqueueActions, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import type { Conversation } from '../contract/conversations';
import type { Page } from '../contract/paging';
import { DEFAULT_PAGE_SIZE } from '../contract/constants';
import { dayGroupOf, type DayGroup } from '../i18n/format';

/** How long a fetched history stays good enough to show at once (spec: request cache 5 minutes). */
export const HISTORY_CACHE_MS = 5 * 60_000;
/** Window focus refreshes the history at most this often (spec: focus refresh timespan). */
export const FOCUS_REFRESH_MS = 5000;
/** A deleted chat can be brought back for this long; then the server deletes it. */
export const UNDO_DELETE_MS = 5000;
/** Typing in the search box waits this long before asking the server. */
export const SEARCH_DEBOUNCE_MS = 300;
export const HISTORY_PAGE_SIZE = DEFAULT_PAGE_SIZE * 2;

export type HistoryCache = { items: Conversation[]; total: number; page: number; keyword: string; fetchedAt: number };

export type ConversationsContext = {
  items: Conversation[];
  total: number;
  page: number;
  error: string | null;
  keyword: string;
  fetchedAt: number;
  lastFocusRefreshAt: number;
  /** The open conversation, to leave it when it is deleted. */
  activeId: string | null;
  editingId: string | null;
  /** Deleted here, hidden, still restorable until the undo window ends. */
  pendingDeletes: Array<{ conversation: Conversation }>;
};

export type ConversationsEvent =
  | { type: 'refresh' }
  | { type: 'loadMore' }
  | { type: 'window.focus' }
  | { type: 'search'; keyword: string }
  | { type: 'route.changed'; market: boolean; conversationId: string | null }
  | { type: 'rename.start'; conversationId: string }
  | { type: 'rename.cancel' }
  | { type: 'rename.commit'; title: string }
  | { type: 'pin.toggle'; conversationId: string }
  | { type: 'delete'; conversationId: string }
  | { type: 'delete.undo'; conversationId: string }
  | { type: 'delete.commit'; conversationId: string }
  | { type: 'mutation.failed'; conversationId: string; previous: Conversation | null; message: string }
  | { type: 'mutation.saved'; conversation: Conversation }
  | { type: 'history.close' };

export type ConversationsInput = { cache?: HistoryCache | null; now?: number };

export type ConversationPatch = { conversationId: string; title?: string; pinned?: boolean };
type MutationInput = { patch: ConversationPatch; previous: Conversation };
type DeleteInput = { conversation: Conversation };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const merge = (current: Conversation[], incoming: Conversation[]): Conversation[] => {
  const seen = new Set(current.map((item) => item.conversationId));
  return [...current, ...incoming.filter((item) => !seen.has(item.conversationId))];
};

/** Pinned first, then the newest update, then the newest chat: the server's order, kept after local edits. */
const byPinnedThenUpdated = (a: Conversation, b: Conversation): number =>
  Number(b.pinned) - Number(a.pinned) ||
  b.updatedAt.localeCompare(a.updatedAt) ||
  b.createdAt.localeCompare(a.createdAt) ||
  Number(a.conversationId > b.conversationId) - Number(a.conversationId < b.conversationId);

const withoutPending = (items: Conversation[], pending: ConversationsContext['pendingDeletes']): Conversation[] => {
  if (pending.length === 0) return items;
  const hidden = new Set(pending.map((entry) => entry.conversation.conversationId));
  return items.filter((item) => !hidden.has(item.conversationId));
};

const firstPage = (context: ConversationsContext, page: Page<Conversation>): Partial<ConversationsContext> => ({
  items: withoutPending(page.list, context.pendingDeletes),
  total: page.total,
  page: 1,
  error: null,
  fetchedAt: Date.now(),
});

const findItem = (context: ConversationsContext, conversationId: string) =>
  context.items.find((item) => item.conversationId === conversationId);

/**
 * A callback actor that runs one promise and reports its end to the parent: the history keeps
 * several saves and deletes in flight at once, each reverting only itself when it fails.
 */
export const reportingActor = <I,>(run: (input: I) => Promise<Conversation | null>, failedItem: (input: I) => Conversation | null, idOf: (input: I) => string) =>
  fromCallback<EventObject, I>(({ input, sendBack }) => {
    run(input).then(
      (conversation) => {
        if (conversation) sendBack({ type: 'mutation.saved', conversation });
      },
      (error: unknown) => sendBack({ type: 'mutation.failed', conversationId: idOf(input), previous: failedItem(input), message: messageOf(error) }),
    );
  });

export type HistoryRow =
  | { kind: 'group'; key: string; group: DayGroup | 'pinned' }
  | { kind: 'item'; key: string; conversation: Conversation };

/** The rows the history shows: pinned first, then Today, Yesterday, Previous 7 days, Earlier. */
export const historyRows = (items: Conversation[], now: Date = new Date()): HistoryRow[] => {
  const rows: HistoryRow[] = [];
  let current: DayGroup | 'pinned' | null = null;
  for (const conversation of items) {
    const group = conversation.pinned ? 'pinned' : dayGroupOf(conversation.updatedAt, now);
    if (group !== current) {
      rows.push({ kind: 'group', key: `group:${group}`, group });
      current = group;
    }
    rows.push({ kind: 'item', key: conversation.conversationId, conversation });
  }
  return rows;
};

const historySetup = setup({
  types: {
    context: {} as ConversationsContext,
    events: {} as ConversationsEvent,
    input: {} as ConversationsInput,
  },
  actors: {
    fetchPage: fromPromise<Page<Conversation>, { current: number; pageSize: number; keyword: string }>(async () => {
      throw new Error('fetchPage is provided where the app starts');
    }),
    saveConversation: reportingActor<MutationInput>(
      async () => {
        throw new Error('saveConversation is provided where the app starts');
      },
      (input) => input.previous,
      (input) => input.patch.conversationId,
    ),
    deleteConversation: reportingActor<DeleteInput>(
      async () => {
        throw new Error('deleteConversation is provided where the app starts');
      },
      (input) => input.conversation,
      (input) => input.conversation.conversationId,
    ),
  },
  actions: {
    /** The fresh first page is kept for the next visit (the 5-minute cache); it reads the context. */
    storeCache: () => undefined,
    /** A chat was deleted here (the `delete` event): say so, with an undo. */
    announceDeleted: () => undefined,
    /** The undo window of a deleted chat ended (`delete.commit`): its undo is no longer offered. */
    withdrawUndo: () => undefined,
    /** A rename, pin or delete the server refused (the `mutation.failed` event): say so. */
    announceFailure: () => undefined,
    /** The open chat was deleted: leave it for a new chat. */
    leaveConversation: () => undefined,
    /**
     * The history is closing (page left) while deletions wait for their undo window: delete them
     * now, the undo is gone with the toast. Reads `context.pendingDeletes`.
     */
    flushPendingDeletes: () => undefined,
    rememberFocusRefresh: assign({ lastFocusRefreshAt: () => Date.now() }),
    /** The deletions were sent (or dropped with the history): none waits any more. */
    forgetPendingDeletes: assign({ pendingDeletes: [] }),
    setKeyword: assign(({ event }) => {
      assertEvent(event, 'search');
      return { keyword: event.keyword.trim() };
    }),
    /** The chat in the address is the open one; the agents market shows none. */
    setActive: assign(({ event }) => {
      assertEvent(event, 'route.changed');
      return { activeId: event.market ? null : event.conversationId };
    }),
    startEditing: assign(({ event }) => {
      assertEvent(event, 'rename.start');
      return { editingId: event.conversationId };
    }),
    stopEditing: assign({ editingId: null }),
    saveTitle: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'rename.commit');
      const previous = context.editingId ? findItem(context, context.editingId) : undefined;
      enqueue.assign({ editingId: null });
      const title = event.title.trim();
      if (!previous || !title || title === previous.title) return;
      enqueue.assign({ items: context.items.map((item) => (item === previous ? { ...item, title } : item)) });
      enqueue.spawnChild('saveConversation', { input: { patch: { conversationId: previous.conversationId, title }, previous } });
    }),
    togglePin: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'pin.toggle');
      const previous = findItem(context, event.conversationId);
      if (!previous) return;
      const pinned = !previous.pinned;
      enqueue.assign({
        items: context.items.map((item) => (item === previous ? { ...item, pinned } : item)).sort(byPinnedThenUpdated),
      });
      enqueue.spawnChild('saveConversation', { input: { patch: { conversationId: previous.conversationId, pinned }, previous } });
    }),
    hideForUndo: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'delete');
      const conversation = findItem(context, event.conversationId);
      if (!conversation) return;
      enqueue.assign({
        items: context.items.filter((item) => item !== conversation),
        total: Math.max(0, context.total - 1),
        pendingDeletes: [...context.pendingDeletes, { conversation }],
        editingId: context.editingId === conversation.conversationId ? null : context.editingId,
      });
      enqueue.raise({ type: 'delete.commit', conversationId: conversation.conversationId }, { delay: 'undoWindow', id: `delete:${conversation.conversationId}` });
      enqueue('announceDeleted');
      if (context.activeId === conversation.conversationId) enqueue('leaveConversation');
    }),
    restoreDeleted: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'delete.undo');
      const entry = context.pendingDeletes.find((item) => item.conversation.conversationId === event.conversationId);
      if (!entry) return;
      enqueue(cancel(`delete:${event.conversationId}`));
      // Back in the list's order, which may have changed meanwhile (a chat pinned or saved).
      enqueue.assign({
        items: [...context.items, entry.conversation].sort(byPinnedThenUpdated),
        total: context.total + 1,
        pendingDeletes: context.pendingDeletes.filter((item) => item !== entry),
      });
    }),
    deleteOnServer: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'delete.commit');
      const entry = context.pendingDeletes.find((item) => item.conversation.conversationId === event.conversationId);
      if (!entry) return;
      enqueue.assign({ pendingDeletes: context.pendingDeletes.filter((item) => item !== entry) });
      enqueue.spawnChild('deleteConversation', { input: { conversation: entry.conversation } });
    }),
    revertMutation: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'mutation.failed');
      const { previous } = event;
      if (previous) {
        const others = context.items.filter((item) => item.conversationId !== previous.conversationId);
        enqueue.assign({
          items: [...others, previous].sort(byPinnedThenUpdated),
          total: others.length === context.items.length ? context.total + 1 : context.total,
        });
      }
      enqueue('announceFailure');
    }),
    takeSaved: assign(({ context, event }) => {
      assertEvent(event, 'mutation.saved');
      const saved = event.conversation;
      return {
        items: context.items
          .map((item) => (item.conversationId === saved.conversationId ? { ...saved, title: item.title, pinned: item.pinned } : item))
          .sort(byPinnedThenUpdated),
      };
    }),
  },
  guards: {
    hasMore: ({ context }) => context.items.length + context.pendingDeletes.length < context.total,
    isCacheFresh: ({ context }) => context.fetchedAt > 0 && Date.now() - context.fetchedAt < HISTORY_CACHE_MS,
    focusRefreshDue: ({ context }) => Date.now() - Math.max(context.lastFocusRefreshAt, context.fetchedAt) >= FOCUS_REFRESH_MS,
  },
  delays: {
    undoWindow: UNDO_DELETE_MS,
    searchDebounce: SEARCH_DEBOUNCE_MS,
  },
})
  // Steps with parameters are added to the setup once it is typed: declared in one object with the
  // steps that queue others (enqueueActions), TypeScript loses their parameters and refuses the chart.
  .extend({
    actions: {
      /** The first page the server sent replaces the list (minus the chats waiting for their undo). */
      showFirstPage: assign(({ context }, params: { page: Page<Conversation> }) => firstPage(context, params.page)),
      /** The next page goes under the list, without the chats already shown or waiting for their undo. */
      appendPage: assign(({ context }, params: { page: Page<Conversation> }) => ({
        items: merge(context.items, withoutPending(params.page.list, context.pendingDeletes)),
        total: params.page.total,
        page: context.page + 1,
      })),
      showLoadError: assign((_, params: { message: string }) => ({ error: params.message })),
    },
  });

/**
 * The chat history: the first page on start (or the cached one, shown at once and refreshed),
 * more pages near the end of the list, server-side search, a refresh on window focus at most
 * every 5 s, inline rename and pin saved optimistically (a refused save puts the old one back),
 * and delete with undo: the chat is hidden at once and deleted on the server only when the undo
 * window closes.
 */
export const conversationsMachine = historySetup.createMachine({
  id: 'conversations',
  context: ({ input }) => {
    const cache = input.cache && input.cache.keyword === '' && Date.now() - input.cache.fetchedAt < HISTORY_CACHE_MS ? input.cache : null;
    return {
      items: cache?.items ?? [],
      total: cache?.total ?? 0,
      page: cache?.page ?? 0,
      error: null,
      keyword: '',
      fetchedAt: cache?.fetchedAt ?? 0,
      lastFocusRefreshAt: 0,
      activeId: null,
      editingId: null,
      pendingDeletes: [],
    };
  },
  initial: 'starting',
  on: {
    'route.changed': { actions: 'setActive' },
    'rename.start': { actions: 'startEditing' },
    'rename.cancel': { actions: 'stopEditing' },
    'rename.commit': { actions: 'saveTitle' },
    'pin.toggle': { actions: 'togglePin' },
    delete: { actions: 'hideForUndo' },
    'delete.undo': { actions: 'restoreDeleted' },
    'delete.commit': { actions: ['withdrawUndo', 'deleteOnServer'] },
    'mutation.failed': { actions: 'revertMutation' },
    'mutation.saved': { actions: 'takeSaved' },
    search: { target: '.debouncing', actions: 'setKeyword' },
    // An actor that is stopped runs no exit actions: the screen says it is closing instead.
    'history.close': { actions: ['flushPendingDeletes', 'forgetPendingDeletes'] },
  },
  states: {
    starting: {
      always: [{ guard: 'isCacheFresh', target: 'revalidating' }, { target: 'loading' }],
    },
    /** Nothing to show yet: the list says it is loading. */
    loading: {
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ current: 1, pageSize: HISTORY_PAGE_SIZE, keyword: context.keyword }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'showFirstPage', params: ({ event }) => ({ page: event.output }) }, 'storeCache'],
        },
        onError: {
          target: 'failed',
          actions: { type: 'showLoadError', params: ({ event }) => ({ message: messageOf(event.error) }) },
        },
      },
    },
    /** Showing what is known (the cache, or the list before a refresh) while asking again. */
    revalidating: {
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ current: 1, pageSize: HISTORY_PAGE_SIZE, keyword: context.keyword }),
        onDone: {
          target: 'ready',
          actions: [{ type: 'showFirstPage', params: ({ event }) => ({ page: event.output }) }, 'storeCache'],
        },
        // The list on screen stays; the next refresh tries again.
        onError: 'ready',
      },
    },
    debouncing: {
      after: { searchDebounce: 'loading' },
    },
    ready: {
      on: {
        refresh: 'revalidating',
        'window.focus': { guard: 'focusRefreshDue', target: 'revalidating', actions: 'rememberFocusRefresh' },
        loadMore: { guard: 'hasMore', target: 'loadingMore' },
      },
    },
    loadingMore: {
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ current: context.page + 1, pageSize: HISTORY_PAGE_SIZE, keyword: context.keyword }),
        onDone: {
          target: 'ready',
          actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) },
        },
        onError: 'ready',
      },
      on: { refresh: 'revalidating' },
    },
    failed: {
      on: { refresh: 'loading', 'window.focus': { guard: 'focusRefreshDue', target: 'loading', actions: 'rememberFocusRefresh' } },
    },
  },
});
