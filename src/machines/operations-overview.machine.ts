import { assign, fromPromise, raise, setup } from 'xstate';
import { TASK_STATUSES, type Platform, type StatusCounts, type TaskListRequest, type TaskPage, type TaskStatus, type TaskSummary } from '../contract/tasks';

export type OverviewFilters = { platform: Platform | null; status: TaskStatus | null; keyword: string; current: number };

export type OverviewContext = {
  filters: OverviewFilters;
  pageSize: number;
  items: TaskSummary[];
  total: number;
  counts: StatusCounts;
  error: string | null;
  /** What is in the search box; searched once the typing pauses. */
  typed: string;
};

export type OverviewEvent =
  | { type: 'filter.platform'; platform: Platform | null }
  | { type: 'filter.status'; status: TaskStatus | null }
  /** A keystroke in the search box. */
  | { type: 'search.typed'; keyword: string }
  | { type: 'search'; keyword: string }
  | { type: 'page'; current: number }
  | { type: 'reload' };

export const OVERVIEW_PAGE_SIZE = 10;
/** The search runs once typing pauses this long, not on every keystroke. */
export const SEARCH_DELAY_MS = 300;

const noCounts = (): StatusCounts => Object.fromEntries(TASK_STATUSES.map((status) => [status, 0])) as StatusCounts;

export const listRequestOf = (context: Pick<OverviewContext, 'filters' | 'pageSize'>): TaskListRequest => ({
  current: context.filters.current,
  pageSize: context.pageSize,
  ...(context.filters.platform ? { platform: context.filters.platform } : {}),
  ...(context.filters.status ? { status: context.filters.status } : {}),
  ...(context.filters.keyword.trim() ? { keyword: context.filters.keyword.trim() } : {}),
});

/**
 * The overview of the operator's tasks: filtered by platform and status, searched by title,
 * paged, with counts per status. A new filter or search starts again at page 1; a later answer
 * always replaces an earlier one (the earlier request is cancelled). The search waits for the
 * typing to pause, and runs only when the words changed.
 */
export const operationsOverviewMachine = setup({
  types: {
    context: {} as OverviewContext,
    events: {} as OverviewEvent,
    input: {} as { filters?: Partial<OverviewFilters> },
  },
  actors: {
    fetchTasks: fromPromise<TaskPage, TaskListRequest>(async () => {
      throw new Error('fetchTasks is provided where the screen starts');
    }),
  },
  actions: {
    setTasks: assign((_, params: { page: TaskPage }) => ({ items: params.page.list, total: params.page.total, counts: params.page.counts, error: null })),
    /** The filters changed: the screen keeps them in the address, so a reload or a link shows the same list. */
    filtersChanged: (_, _params: OverviewFilters) => undefined,
    recordTyped: assign((_, params: { keyword: string }) => ({ typed: params.keyword })),
    searchTyped: raise(({ context }) => ({ type: 'search' as const, keyword: context.typed })),
    setFilters: assign(({ context }, params: Partial<OverviewFilters>) => ({ filters: { ...context.filters, current: 1, ...params } })),
    recordError: assign((_, params: { error: unknown }) => ({ error: params.error instanceof Error ? params.error.message : String(params.error) })),
  },
  guards: {
    typedDiffers: ({ context }) => context.typed !== context.filters.keyword,
  },
  delays: {
    searchDelay: SEARCH_DELAY_MS,
  },
}).createMachine({
  id: 'operationsOverview',
  context: ({ input }) => ({
    filters: { platform: null, status: null, keyword: '', current: 1, ...input.filters },
    pageSize: OVERVIEW_PAGE_SIZE,
    items: [],
    total: 0,
    counts: noCounts(),
    error: null,
    typed: input.filters?.keyword ?? '',
  }),
  type: 'parallel',
  states: {
    list: {
      initial: 'loading',
      on: {
        'filter.platform': { target: '.loading', actions: [{ type: 'setFilters', params: ({ event }) => ({ platform: event.platform }) }, { type: 'filtersChanged', params: ({ context }) => context.filters }] },
        'filter.status': { target: '.loading', actions: [{ type: 'setFilters', params: ({ event }) => ({ status: event.status }) }, { type: 'filtersChanged', params: ({ context }) => context.filters }] },
        search: { target: '.loading', actions: [{ type: 'setFilters', params: ({ event }) => ({ keyword: event.keyword }) }, { type: 'filtersChanged', params: ({ context }) => context.filters }] },
        page: { target: '.loading', actions: [{ type: 'setFilters', params: ({ event }) => ({ current: Math.max(1, event.current) }) }, { type: 'filtersChanged', params: ({ context }) => context.filters }] },
        reload: { target: '.loading' },
      },
      states: {
        loading: {
          invoke: {
            id: 'fetchTasks',
            src: 'fetchTasks',
            input: ({ context }) => listRequestOf(context),
            onDone: {
              target: 'loaded',
              actions: { type: 'setTasks', params: ({ event }) => ({ page: event.output }) },
            },
            onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        loaded: {},
        failed: {},
      },
    },
    /** Each keystroke starts the wait again; the pause searches what is typed, if it changed. */
    searchBox: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'search.typed': { target: 'typing', actions: { type: 'recordTyped', params: ({ event }) => ({ keyword: event.keyword }) } } },
        },
        typing: {
          on: { 'search.typed': { target: 'typing', reenter: true, actions: { type: 'recordTyped', params: ({ event }) => ({ keyword: event.keyword }) } } },
          after: {
            searchDelay: [{ guard: 'typedDiffers', target: 'idle', actions: 'searchTyped' }, { target: 'idle' }],
          },
        },
      },
    },
  },
});
