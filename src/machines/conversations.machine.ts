import { assign, fromPromise, setup } from 'xstate';
import type { Conversation } from '../contract/conversations';
import type { Page } from '../contract/paging';
import { DEFAULT_PAGE_SIZE } from '../contract/paging';

export type ConversationsContext = {
  items: Conversation[];
  total: number;
  page: number;
  error: string | null;
};

export type ConversationsEvent = { type: 'refresh' } | { type: 'loadMore' };

const merge = (current: Conversation[], incoming: Conversation[]): Conversation[] => {
  const seen = new Set(current.map((item) => item.conversationId));
  return [...current, ...incoming.filter((item) => !seen.has(item.conversationId))];
};

/** The chat history: first page on start, more pages on demand, a fresh first page on refresh. */
export const conversationsMachine = setup({
  types: { context: {} as ConversationsContext, events: {} as ConversationsEvent },
  actors: {
    fetchPage: fromPromise<Page<Conversation>, { current: number; pageSize: number }>(async () => {
      throw new Error('fetchPage is provided where the app starts');
    }),
  },
  guards: {
    hasMore: ({ context }) => context.items.length < context.total,
  },
}).createMachine({
  id: 'conversations',
  context: { items: [], total: 0, page: 0, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchPage',
        input: { current: 1, pageSize: DEFAULT_PAGE_SIZE * 2 },
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ items: event.output.list, total: event.output.total, page: 1, error: null })),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) }),
        },
      },
    },
    ready: {
      on: {
        refresh: 'loading',
        loadMore: { guard: 'hasMore', target: 'loadingMore' },
      },
    },
    loadingMore: {
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ current: context.page + 1, pageSize: DEFAULT_PAGE_SIZE * 2 }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => ({
            items: merge(context.items, event.output.list),
            total: event.output.total,
            page: context.page + 1,
          })),
        },
        onError: 'ready',
      },
      on: { refresh: 'loading' },
    },
    failed: {
      on: { refresh: 'loading' },
    },
  },
});
