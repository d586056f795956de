import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Agent } from '../contract/agents';
import { DEFAULT_CURRENT, DEFAULT_PAGE_SIZE, type Page } from '../contract/paging';

/** Typing in the market's search box waits this long before asking the server. */
export const MARKET_SEARCH_DEBOUNCE_MS = 300;

export type AgentsMarketContext = {
  keyword: string;
  /** The category shown; null shows every category. */
  category: string | null;
  items: Agent[];
  total: number;
  page: number;
  error: string | null;
  /** The agent whose detail is open. */
  selected: Agent | null;
};

export type AgentsMarketEvent =
  | { type: 'search'; keyword: string }
  | { type: 'category.pick'; category: string | null }
  | { type: 'loadMore' }
  | { type: 'retry' }
  | { type: 'agent.open'; agentId: string }
  | { type: 'agent.close' }
  | { type: 'agent.start'; agentId: string };

export type MarketFetchInput = { current: number; pageSize: number; keyword: string; category: string | null };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const merge = (current: Agent[], incoming: Agent[]): Agent[] => {
  const seen = new Set(current.map((agent) => agent.agentId));
  return [...current, ...incoming.filter((agent) => !seen.has(agent.agentId))];
};

/**
 * The agents market: published agents page by page (current 1, page size 10), a debounced
 * keyword search and a category filter that start over from the first page, more pages as the list nears its end,
 * an agent's detail, and "start a new chat" with the chosen agent.
 */
export const agentsMarketMachine = setup({
  types: { context: {} as AgentsMarketContext, events: {} as AgentsMarketEvent },
  actors: {
    fetchPage: fromPromise<Page<Agent>, MarketFetchInput>(async () => {
      throw new Error('fetchPage is provided where the market opens');
    }),
  },
  actions: {
    /** Opens a new chat with the agent (the chat and the address bar follow). */
    startChat: (_, _params: { agentId: string }) => undefined,
    setKeyword: assign(({ event }) => {
      assertEvent(event, 'search');
      return { keyword: event.keyword.trim() };
    }),
    setCategory: assign(({ event }) => {
      assertEvent(event, 'category.pick');
      return { category: event.category };
    }),
    select: assign(({ context, event }) => {
      assertEvent(event, 'agent.open');
      return { selected: context.items.find((agent) => agent.agentId === event.agentId) ?? null };
    }),
    closeDetail: assign({ selected: null }),
    setFirstPage: assign((_, params: { page: Page<Agent> }) => ({ items: params.page.list, total: params.page.total, page: DEFAULT_CURRENT })),
    appendPage: assign(({ context }, params: { page: Page<Agent> }) => ({
      items: merge(context.items, params.page.list),
      total: params.page.total,
      page: context.page + 1,
    })),
    /** A new search or a retry starts from an empty list. */
    clearResults: assign({ items: [], total: 0, page: 0, error: null }),
    showLoadError: assign((_, params: { message: string }) => ({ error: params.message })),
  },
  guards: {
    hasMore: ({ context }) => context.items.length < context.total,
    keywordChanged: ({ context, event }) => event.type === 'search' && event.keyword.trim() !== context.keyword,
    categoryChanged: ({ context, event }) => event.type === 'category.pick' && event.category !== context.category,
  },
  delays: { searchDebounce: MARKET_SEARCH_DEBOUNCE_MS },
}).createMachine({
  id: 'agentsMarket',
  context: { keyword: '', category: null, items: [], total: 0, page: 0, error: null, selected: null },
  initial: 'loading',
  on: {
    search: { guard: 'keywordChanged', target: '.debouncing', actions: 'setKeyword' },
    /** A category is one click, not typing: the list starts over at once. */
    'category.pick': { guard: 'categoryChanged', target: '.loading', actions: 'setCategory' },
    'agent.open': { actions: 'select' },
    'agent.close': { actions: 'closeDetail' },
    'agent.start': {
      actions: ['closeDetail', { type: 'startChat', params: ({ event }) => ({ agentId: event.agentId }) }],
    },
  },
  states: {
    debouncing: {
      after: { searchDebounce: 'loading' },
    },
    loading: {
      entry: 'clearResults',
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ current: DEFAULT_CURRENT, pageSize: DEFAULT_PAGE_SIZE, keyword: context.keyword, category: context.category }),
        onDone: {
          target: 'ready',
          actions: { type: 'setFirstPage', params: ({ event }) => ({ page: event.output }) },
        },
        onError: { target: 'failed', actions: { type: 'showLoadError', params: ({ event }) => ({ message: messageOf(event.error) }) } },
      },
    },
    ready: {
      on: { loadMore: { guard: 'hasMore', target: 'loadingMore' } },
    },
    loadingMore: {
      invoke: {
        src: 'fetchPage',
        input: ({ context }) => ({ current: context.page + 1, pageSize: DEFAULT_PAGE_SIZE, keyword: context.keyword, category: context.category }),
        onDone: {
          target: 'ready',
          actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) },
        },
        onError: { target: 'moreFailed', actions: { type: 'showLoadError', params: ({ event }) => ({ message: messageOf(event.error) }) } },
      },
    },
    /** The list stays; the end of it offers to try the next page again. */
    moreFailed: {
      on: { retry: 'loadingMore' },
    },
    failed: {
      on: { retry: 'loading' },
    },
  },
});
