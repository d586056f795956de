import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import type { Conversation } from '../../../src/contract/conversations';
import type { Page } from '../../../src/contract/paging';
import { conversationsMachine, HISTORY_PAGE_SIZE, reportingActor, SEARCH_DEBOUNCE_MS } from '../../../src/machines/conversations.machine';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * The chat history's paths are generated from the machine that ships, and played on that machine
 * as an actor whose server calls are stubs the path answers (and whose clock is fake, for the
 * search's pause). After each step the list, the calls made and the state are checked against
 * rules written from the product: a list on screen stays while it is refreshed or while a refresh
 * or a next page fails; search waits for the typing to pause; the next page asks for page 2.
 */
type Snapshot = SnapshotFrom<typeof conversationsMachine>;
type AnyEvent = ModelEvent & { [key: string]: unknown };

const chat = (id: string, updatedAt: string): Conversation => ({
  conversationId: id,
  source: 'agent',
  sourceId: 'agent',
  title: `Chat ${id}`,
  pinned: false,
  createdAt: updatedAt,
  updatedAt,
});
const FIRST: Page<Conversation> = { list: [chat('a', '2025-01-03T00:00:00Z'), chat('b', '2025-01-02T00:00:00Z')], total: 3, current: 1, pageSize: HISTORY_PAGE_SIZE };
const NEXT: Page<Conversation> = { list: [chat('c', '2025-01-01T00:00:00Z')], total: 3, current: 2, pageSize: HISTORY_PAGE_SIZE };
const KEYWORD = 'sour';
const DEBOUNCE_OVER = 'xstate.after.searchDebounce.conversations.debouncing';

const E = {
  firstPage: { type: 'xstate.done.actor.0.conversations.loading', output: FIRST },
  firstPageFailed: { type: 'xstate.error.actor.0.conversations.loading', error: new Error('down') },
  refreshed: { type: 'xstate.done.actor.0.conversations.revalidating', output: FIRST },
  refreshFailed: { type: 'xstate.error.actor.0.conversations.revalidating', error: new Error('down') },
  nextPage: { type: 'xstate.done.actor.0.conversations.loadingMore', output: NEXT },
  nextPageFailed: { type: 'xstate.error.actor.0.conversations.loadingMore', error: new Error('down') },
  refresh: { type: 'refresh' },
  loadMore: { type: 'loadMore' },
  focus: { type: 'window.focus' },
  search: { type: 'search', keyword: KEYWORD },
  debounceOver: { type: DEBOUNCE_OVER },
} satisfies Record<string, AnyEvent>;

const stateOf = (state: Snapshot) => String(state.value);
const serializeState = (state: Snapshot) =>
  [stateOf(state), state.context.items.length > 0 ? 'shown' : 'empty', state.context.items.length < state.context.total ? 'more' : 'all'].join(' ');

const eventsFor = (state: Snapshot): AnyEvent[] => {
  switch (stateOf(state)) {
    case 'loading':
      return [E.firstPage, E.firstPageFailed];
    case 'revalidating':
      return [E.refreshed, E.refreshFailed];
    case 'loadingMore':
      return [E.nextPage, E.nextPageFailed, E.refresh];
    case 'debouncing':
      return [E.debounceOver, E.search];
    case 'failed':
      return [E.refresh, E.focus];
    default:
      return [E.refresh, E.loadMore, E.focus, E.search];
  }
};

const { paths, transitionCount } = productionPaths(conversationsMachine, { events: eventsFor, input: {}, serializeState });
console.log(`Chat history (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

type Fetch = { input: { current: number; pageSize: number; keyword: string }; resolve: (page: Page<Conversation>) => void; reject: (error: unknown) => void };

type World = {
  actor: ReturnType<typeof start>['actor'];
  fetches: Fetch[];
  answered: number;
  storeCache: ReturnType<typeof vi.fn>;
  last: string;
  expected: string;
  /** What the list must show, by the product's rules. */
  ids: string[];
  keyword: string;
  page: number;
  failed: boolean;
  /** First pages received: each is offered to the cache for the next visit. */
  cached: number;
};

/**
 * Where the history must be after what last happened, written from the product's rules and not
 * read from the machine.
 */
const EXPECTED_AFTER: Record<string, string> = {
  'opened without a cache': 'loading',
  'server sent the first page': 'ready',
  'the first page failed': 'failed',
  'the search failed': 'failed',
  'server sent the refreshed list': 'ready',
  'a refresh failed': 'ready',
  'server sent the next page': 'ready',
  'the next page failed': 'ready',
  'asked to refresh with the list shown': 'revalidating',
  'asked to reload after a failure': 'loading',
  'reached the end of the list': 'loadingMore',
  'typed a search': 'debouncing',
  'the typing paused': 'loading',
  'the window regained focus after a failure': 'loading',
};

const happened = (world: World, what: string) => {
  expect(EXPECTED_AFTER[what], `no rule for "${what}"`).toBeDefined();
  world.last = what;
  world.expected = EXPECTED_AFTER[what]!;
};

const start = (fetches: Fetch[]) => {
  const storeCache = vi.fn();
  const actor = createActor(
    conversationsMachine.provide({
      actors: {
        fetchPage: fromPromise(({ input }) => new Promise<Page<Conversation>>((resolve, reject) => fetches.push({ input, resolve, reject }))),
        saveConversation: reportingActor(async () => null, () => null, () => ''),
        deleteConversation: reportingActor(async () => null, () => null, () => ''),
      },
      actions: { storeCache },
    }),
    { input: {} },
  );
  actor.start();
  return { actor, storeCache };
};

const settle = () => vi.advanceTimersByTimeAsync(0);

/** Answers the call the list is waiting on, after checking what it asked for. */
const answer = async (world: World, page: number, outcome: Page<Conversation> | Error) => {
  expect(world.fetches, 'a call is waiting').toHaveLength(world.answered + 1);
  const fetch = world.fetches[world.answered]!;
  expect(fetch.input).toEqual({ current: page, pageSize: HISTORY_PAGE_SIZE, keyword: world.keyword });
  world.answered += 1;
  if (outcome instanceof Error) fetch.reject(outcome);
  else fetch.resolve(outcome);
  await settle();
};

const play: Record<string, (world: World, event: AnyEvent) => Promise<void>> = {
  'xstate.done.actor.0.conversations.loading': async (world) => {
    world.ids = FIRST.list.map((item) => item.conversationId);
    world.page = 1;
    world.failed = false;
    world.cached += 1;
    happened(world, 'server sent the first page');
    await answer(world, 1, FIRST);
  },
  'xstate.error.actor.0.conversations.loading': async (world) => {
    // the list of another search is no answer to this one: the failure is said, with a reload
    world.failed = true;
    happened(world, world.keyword ? 'the search failed' : 'the first page failed');
    await answer(world, 1, new Error('down'));
  },
  'xstate.done.actor.0.conversations.revalidating': async (world) => {
    world.ids = FIRST.list.map((item) => item.conversationId);
    world.page = 1;
    world.cached += 1;
    happened(world, 'server sent the refreshed list');
    await answer(world, 1, FIRST);
  },
  'xstate.error.actor.0.conversations.revalidating': async (world) => {
    happened(world, 'a refresh failed');
    await answer(world, 1, new Error('down'));
  },
  'xstate.done.actor.0.conversations.loadingMore': async (world) => {
    world.ids = [...world.ids, ...NEXT.list.map((item) => item.conversationId)];
    world.page += 1;
    happened(world, 'server sent the next page');
    await answer(world, world.page, NEXT);
  },
  'xstate.error.actor.0.conversations.loadingMore': async (world) => {
    happened(world, 'the next page failed');
    await answer(world, world.page + 1, new Error('down'));
  },
  refresh: async (world) => {
    happened(world, world.failed ? 'asked to reload after a failure' : 'asked to refresh with the list shown');
    // a next page still on its way is of the list being replaced: its answer no longer counts
    if (world.fetches.length > world.answered) world.answered = world.fetches.length;
    world.actor.send({ type: 'refresh' });
    await settle();
  },
  loadMore: async (world) => {
    happened(world, 'reached the end of the list');
    world.actor.send({ type: 'loadMore' });
    await settle();
  },
  'window.focus': async (world) => {
    happened(world, 'the window regained focus after a failure');
    world.actor.send({ type: 'window.focus' });
    await settle();
  },
  search: async (world) => {
    world.keyword = KEYWORD;
    happened(world, 'typed a search');
    world.actor.send({ type: 'search', keyword: ` ${KEYWORD} ` });
    // the server is not asked while the person is still typing
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1);
  },
  [DEBOUNCE_OVER]: async (world) => {
    happened(world, 'the typing paused');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
  },
};

/** The list as the rules say it must be now: what it shows and which call waits. */
const checkHistory = (world: World, state: Snapshot, waiting: { page: number } | null) => {
  expect(world.expected, `after ${world.last}`).toBe(stateOf(state));
  const snapshot = world.actor.getSnapshot();
  expect(snapshot.value).toEqual(state.value);
  expect(snapshot.context.items.map((item) => item.conversationId)).toEqual(world.ids);
  expect(snapshot.context.keyword).toBe(world.keyword);
  expect(snapshot.context.error !== null, 'the failure shown').toBe(world.failed);
  if (waiting) {
    expect(world.fetches, 'one call waits').toHaveLength(world.answered + 1);
    expect(world.fetches.at(-1)!.input).toEqual({ current: waiting.page, pageSize: HISTORY_PAGE_SIZE, keyword: world.keyword });
  } else {
    expect(world.fetches, 'no call waits').toHaveLength(world.answered);
  }
  // every first page is offered to the cache (which keeps only the whole history's)
  expect(world.storeCache).toHaveBeenCalledTimes(world.cached);
};

const params = (world: () => World): TestParam<Snapshot, AnyEvent> => ({
  states: {
    loading: (state) => checkHistory(world(), state, { page: 1 }),
    revalidating: (state) => checkHistory(world(), state, { page: 1 }),
    loadingMore: (state) => checkHistory(world(), state, { page: world().page + 1 }),
    debouncing: (state) => checkHistory(world(), state, null),
    ready: (state) => {
      checkHistory(world(), state, null);
      expect(world().actor.getSnapshot().context.page).toBe(world().page);
    },
    failed: (state) => checkHistory(world(), state, null),
  },
  events: Object.fromEntries(Object.entries(play).map(([type, run]) => [type, ({ event }: { event: AnyEvent }) => run(world(), event)])),
});

afterEach(() => {
  vi.useRealTimers();
});

describe('chat history, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state and takes every transition', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => stateOf(step.state))));
    // starting decides at once between the cache and the server
    const declared = Object.keys(conversationsMachine.root.states).filter((state) => state !== 'starting');
    expect([...reached].sort()).toEqual(declared.sort());
    expect(transitionCount).toBe(26);
    expect(paths).toHaveLength(transitionCount);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describeEvents(path.events), path] as const))('%s', async (_description, path) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const fetches: Fetch[] = [];
    const { actor, storeCache } = start(fetches);
    world = { actor, fetches, answered: 0, storeCache, last: 'opened without a cache', expected: 'loading', ids: [], keyword: '', page: 0, failed: false, cached: 0 };
    await path.test(testParams);
    actor.stop();
  });
});
