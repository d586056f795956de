import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, type Actor, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import type { Agent } from '../contract/agents';
import type { Page } from '../contract/paging';
import { settle, stubCalls } from '../../tests/spa/models/held-calls';
import { describeEvents, productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { playCheckingEveryStep } from '../../tests/spa/models/play-path';
import { agentsMarketMachine, MARKET_SEARCH_DEBOUNCE_MS, type MarketFetchInput } from './agents-market.machine';

/**
 * The agents market on paths generated from the machine that ships: the pages the server gives
 * (a first page of 12 agents, then the rest; or all of them at once), its failures, a keyword
 * typed and the pause after it, more pages near the end of the list, a category picked
 * (the list starts over at once), an agent's detail and "start a new chat". Each path is played on the production machine as an actor whose page
 * requests wait until the path says how they end, on fake time for the search's pause.
 */
type Snapshot = SnapshotFrom<typeof agentsMarketMachine>;

const agent = (index: number): Agent => ({
  id: `a${index}`, agentId: `a${index}`, name: `Agent ${index}`, avatar: '', intro: '', createBy: 'c', createByName: 'Creator',
  updateBy: 'c', updateByName: 'Creator', versionId: 'v1', companyId: 'co', public: true, published: true, isDraft: false,
});
const page = (from: number, count: number, total: number, current: number): Page<Agent> => ({
  list: Array.from({ length: count }, (_, index) => agent(from + index)), total, current, pageSize: 10,
});
const PAGES = { firstOfTwelve: page(1, 10, 12, 1), allTwo: page(1, 2, 2, 1), rest: page(11, 2, 12, 2) };

const FIRST = '0.agentsMarket.loading';
const MORE = '0.agentsMarket.loadingMore';
const PAUSE = 'xstate.after.searchDebounce.agentsMarket.debouncing';
const EVENTS: ModelEvent[] = [
  { type: `xstate.done.actor.${FIRST}`, output: PAGES.firstOfTwelve },
  { type: `xstate.done.actor.${FIRST}`, output: PAGES.allTwo },
  { type: `xstate.error.actor.${FIRST}`, error: new Error('HTTP 500') },
  { type: `xstate.done.actor.${MORE}`, output: PAGES.rest },
  { type: `xstate.error.actor.${MORE}`, error: new Error('HTTP 500') },
  { type: 'loadMore' },
  { type: 'retry' },
  { type: 'search', keyword: ' tea ' },
  { type: 'category.pick', category: 'writing' },
  { type: 'category.pick', category: null },
  { type: PAUSE },
  { type: 'agent.open', agentId: 'a1' },
  { type: 'agent.close' },
  { type: 'agent.start', agentId: 'a1' },
];
const serializeState = (state: Snapshot) =>
  `${JSON.stringify(state.value)} "${state.context.keyword}" [${state.context.category ?? '*'}] ${state.context.items.length}/${state.context.total} ${state.context.selected?.agentId ?? '-'}`;
const { paths, transitionCount } = productionPaths(agentsMarketMachine, { events: EVENTS, serializeState });

type World = {
  actor: Actor<typeof agentsMarketMachine>;
  stubs: ReturnType<typeof stubCalls>;
  started: string[];
  /** What the market must hold, from what happened. */
  keyword: string;
  category: string | null;
  items: number;
  selected: string | null;
  /** Where the market must be: set by what happened; opening or closing a detail moves nothing. */
  expected: string;
  last: string;
};

/** Where the market must be after what last happened, from the product's rules; null: where it was. */
const EXPECTED_AFTER: Record<string, string | null> = {
  start: 'loading',
  'first page': 'ready',
  'first page fails': 'failed',
  'click try again': 'loading',
  'near the end of the list': 'loadingMore',
  'next page': 'ready',
  'next page fails': 'moreFailed',
  'click try again at the end': 'loadingMore',
  'typed a new keyword': 'debouncing',
  'pause after typing': 'loading',
  'picked a category': 'loading',
  'open an agent': null,
  'close the detail': null,
  'start a chat': null,
};

const follow = (world: World, last: string) => {
  world.last = last;
  const expected = EXPECTED_AFTER[last];
  if (expected) world.expected = expected;
};

const check = (world: World, state: string) => {
  expect(world.expected, `after ${world.last}`).toBe(state);
  const { value, context } = world.actor.getSnapshot();
  expect(value).toBe(state);
  expect(context.keyword).toBe(world.keyword);
  expect(context.category).toBe(world.category);
  expect(context.items.map((item) => item.agentId)).toEqual(Array.from({ length: world.items }, (_, index) => `a${index + 1}`));
  expect(context.selected?.agentId ?? null).toBe(world.selected);
};

const fetching = (world: World): MarketFetchInput[] => world.stubs.pending.map((call) => call.input as MarketFetchInput);

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    debouncing: () => {
      check(world(), 'debouncing');
      // nothing is asked while the person is still typing
      expect(fetching(world())).toEqual([]);
    },
    loading: () => {
      check(world(), 'loading');
      // a search starts over from the first page
      expect(fetching(world())).toEqual([{ current: 1, pageSize: 10, keyword: world().keyword, category: world().category }]);
    },
    ready: () => {
      check(world(), 'ready');
      expect(fetching(world())).toEqual([]);
      expect(world().actor.getSnapshot().context.error).toBeNull();
      expect(world().actor.getSnapshot().can({ type: 'loadMore' })).toBe(world().items === 10);
    },
    loadingMore: () => {
      check(world(), 'loadingMore');
      expect(fetching(world())).toEqual([{ current: 2, pageSize: 10, keyword: world().keyword, category: world().category }]);
    },
    moreFailed: () => {
      check(world(), 'moreFailed');
      expect(fetching(world())).toEqual([]);
      // the list stays
      expect(world().items).toBe(10);
    },
    failed: () => {
      check(world(), 'failed');
      expect(fetching(world())).toEqual([]);
      expect(world().actor.getSnapshot().context.error).toBe('HTTP 500');
    },
  },
  events: {
    [`xstate.done.actor.${FIRST}`]: async ({ event }: { event: ModelEvent }) => {
      follow(world(), 'first page');
      world().items = (event.output as Page<Agent>).list.length;
      await world().stubs.end('fetchPage', { output: event.output });
    },
    [`xstate.error.actor.${FIRST}`]: async ({ event }: { event: ModelEvent }) => {
      follow(world(), 'first page fails');
      await world().stubs.end('fetchPage', { error: event.error });
    },
    [`xstate.done.actor.${MORE}`]: async ({ event }: { event: ModelEvent }) => {
      follow(world(), 'next page');
      world().items += (event.output as Page<Agent>).list.length;
      await world().stubs.end('fetchPage', { output: event.output });
    },
    [`xstate.error.actor.${MORE}`]: async ({ event }: { event: ModelEvent }) => {
      follow(world(), 'next page fails');
      await world().stubs.end('fetchPage', { error: event.error });
    },
    loadMore: () => {
      follow(world(), 'near the end of the list');
      world().actor.send({ type: 'loadMore' });
    },
    retry: () => {
      follow(world(), world().expected === 'moreFailed' ? 'click try again at the end' : 'click try again');
      if (world().expected === 'loading') world().items = 0;
      world().actor.send({ type: 'retry' });
    },
    search: ({ event }) => {
      const { keyword } = event as ModelEvent & { keyword: string };
      follow(world(), 'typed a new keyword');
      world().keyword = keyword.trim();
      world().actor.send({ type: 'search', keyword });
    },
    'category.pick': ({ event }) => {
      const { category } = event as ModelEvent & { category: string | null };
      follow(world(), 'picked a category');
      world().category = category;
      // the list starts over at once, without the pause typing has
      world().items = 0;
      world().actor.send({ type: 'category.pick', category });
    },
    [PAUSE]: () => {
      follow(world(), 'pause after typing');
      // the list starts over
      world().items = 0;
      vi.advanceTimersByTime(MARKET_SEARCH_DEBOUNCE_MS);
    },
    'agent.open': ({ event }) => {
      const { agentId } = event as ModelEvent & { agentId: string };
      follow(world(), 'open an agent');
      world().selected = world().items > 0 ? agentId : null;
      world().actor.send({ type: 'agent.open', agentId });
    },
    'agent.close': () => {
      follow(world(), 'close the detail');
      world().selected = null;
      world().actor.send({ type: 'agent.close' });
    },
    'agent.start': ({ event }) => {
      const { agentId } = event as ModelEvent & { agentId: string };
      follow(world(), 'start a chat');
      world().selected = null;
      const before = world().started.length;
      world().actor.send({ type: 'agent.start', agentId });
      expect(world().started.slice(before)).toEqual([agentId]);
    },
  },
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the agents market, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state and takes every transition', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    const declared = Object.keys(agentsMarketMachine.root.states);
    expect([...reached].map((value) => JSON.parse(value) as string).sort()).toEqual(declared.sort());
    // Every event from every place the market can be in (where, which keyword and category, how much is listed,
    // which detail is open) that the machine takes.
    expect(transitionCount).toBe(396);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describeEvents(path.events, (event) => `${(event.output as Page<Agent>).list.length} of ${(event.output as Page<Agent>).total}`), path] as const))(
    '%s',
    async (_name, path) => {
      vi.useFakeTimers();
      const stubs = stubCalls();
      const w = { stubs, started: [], keyword: '', category: null, items: 0, selected: null, expected: 'loading', last: 'start' } as unknown as World;
      w.actor = createActor(
        agentsMarketMachine.provide({
          actors: { fetchPage: stubs.logic('fetchPage') },
          actions: { startChat: (_, { agentId }) => void w.started.push(agentId) },
        }),
      );
      world = w;
      w.actor.start();
      await settle();
      await playCheckingEveryStep(path, testParams);
      w.actor.stop();
    },
  );
});
