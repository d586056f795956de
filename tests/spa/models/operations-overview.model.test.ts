import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock, type SnapshotFrom } from 'xstate';
import type { TaskListRequest, TaskPage } from '../../../src/contract/tasks';
import { operationsOverviewMachine, SEARCH_DELAY_MS, type OverviewFilters } from '../../../src/machines/operations-overview.machine';
import { heldCalls, settle } from './held-calls';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * The overview's paths are generated from the machine that ships: people's filters, pages, reloads
 * and keystrokes, the server's answers and the pause after typing are the events of the traversal.
 * Each path is played on a real actor (its fetch held until the path answers it, its timer on a
 * simulated clock) and checked against what the product says must follow, step by step.
 */
type Snapshot = SnapshotFrom<typeof operationsOverviewMachine>;
/** An event with whatever it carries (a platform, a page, the words typed). */
type WorldEvent = ModelEvent & Record<string, unknown>;

const page: TaskPage = {
  list: [],
  total: 25,
  current: 1,
  pageSize: 10,
  counts: { draft: 20, ready: 5, scheduled: 0, publishing: 0, due: 0, published: 0, failed: 0 },
};
const TYPING_PAUSE = 'xstate.after.searchDelay.operationsOverview.searchBox.typing';

const EVENTS: WorldEvent[] = [
  { type: 'filter.platform', platform: 'linkedin' },
  { type: 'filter.status', status: 'draft' },
  { type: 'page', current: 2 },
  { type: 'reload' },
  { type: 'search.typed', keyword: ' launch ' },
  { type: 'search.typed', keyword: '' },
  { type: 'xstate.done.actor.fetchTasks', output: page },
  { type: 'xstate.error.actor.fetchTasks', error: new Error('offline') },
  { type: TYPING_PAUSE },
];

/** What the person can tell apart: the list's state, the box's, whether what is typed is searched yet, and the page. */
const serializeState = (state: Snapshot) =>
  `${JSON.stringify(state.value)}${state.context.typed === state.context.filters.keyword ? '' : '+typed'}${state.context.filters.current > 1 ? '+later page' : ''}`;
const { paths, transitionCount, reachedStates } = productionPaths(operationsOverviewMachine, { events: EVENTS, input: { filters: {} }, serializeState });
console.log(`Task overview (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

/** Where the overview must be: written from the product's rules, not read from the machine. */
type Expected = {
  list: 'loading' | 'loaded' | 'failed';
  searchBox: 'idle' | 'typing';
  filters: OverviewFilters;
  typed: string;
  fetches: number;
  addressChanges: number;
};

const START: Expected = { list: 'loading', searchBox: 'idle', filters: { platform: null, status: null, keyword: '', current: 1 }, typed: '', fetches: 1, addressChanges: 0 };

/** A new filter, search or page asks the server again and is written in the address; a filter or search starts at page 1. */
const refetch = (expected: Expected, filters: Partial<OverviewFilters>): Expected => ({
  ...expected,
  list: 'loading',
  filters: { ...expected.filters, current: 1, ...filters },
  fetches: expected.fetches + 1,
  addressChanges: expected.addressChanges + 1,
});

const EXPECTED_AFTER = (before: Expected, event: WorldEvent): Expected => {
  switch (event.type) {
    case 'filter.platform':
      return refetch(before, { platform: event.platform as OverviewFilters['platform'] });
    case 'filter.status':
      return refetch(before, { status: event.status as OverviewFilters['status'] });
    case 'page':
      return refetch(before, { current: event.current as number });
    case 'reload':
      return { ...before, list: 'loading', fetches: before.fetches + 1 };
    // Typing searches nothing yet; the list stays as it is.
    case 'search.typed':
      return { ...before, searchBox: 'typing', typed: event.keyword as string };
    // The pause searches what is typed, once, and only if it differs from the search in force.
    case TYPING_PAUSE:
      return before.typed === before.filters.keyword ? { ...before, searchBox: 'idle' } : { ...refetch(before, { keyword: before.typed }), searchBox: 'idle' };
    case 'xstate.done.actor.fetchTasks':
      return { ...before, list: 'loaded' };
    case 'xstate.error.actor.fetchTasks':
      return { ...before, list: 'failed' };
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

/** The request the server must get for these filters: trimmed words, no empty filter. */
const requestFor = (filters: OverviewFilters): TaskListRequest => ({
  current: filters.current,
  pageSize: 10,
  ...(filters.platform ? { platform: filters.platform } : {}),
  ...(filters.status ? { status: filters.status } : {}),
  ...(filters.keyword.trim() ? { keyword: filters.keyword.trim() } : {}),
});

const play = async (path: (typeof paths)[number]) => {
  const held = heldCalls();
  const clock = new SimulatedClock();
  const addresses: OverviewFilters[] = [];
  const actor = createActor(
    operationsOverviewMachine.provide({
      actors: { fetchTasks: held.stub<TaskPage, TaskListRequest>('fetchTasks') },
      actions: { filtersChanged: (_, filters) => addresses.push(filters) },
    }),
    { input: { filters: {} }, clock },
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches({ list: expected.list, searchBox: expected.searchBox }), `after ${after}: ${JSON.stringify(state.value)}`).toBe(true);
    expect(state.context.filters, after).toEqual(expected.filters);
    expect(state.context.typed, after).toBe(expected.typed);
    expect(held.calls, after).toHaveLength(expected.fetches);
    expect(held.calls.at(-1)!.input, after).toEqual(requestFor(expected.filters));
    expect(addresses, after).toHaveLength(expected.addressChanges);
    if (expected.addressChanges) expect(addresses.at(-1), after).toEqual(expected.filters);
    if (expected.list === 'loaded') expect(state.context.counts.draft, after).toBe(20);
    if (expected.list === 'failed') expect(state.context.error, after).toBe('offline');
  };

  let expected = START;
  check(expected, 'start');
  for (const event of path.events) {
    if (event.type === 'xstate.done.actor.fetchTasks') held.waiting('fetchTasks')!.resolve(event.output);
    else if (event.type === 'xstate.error.actor.fetchTasks') held.waiting('fetchTasks')!.reject(event.error);
    else if (event.type === TYPING_PAUSE) clock.increment(SEARCH_DELAY_MS);
    else actor.send(event as never);
    await settle();
    expected = EXPECTED_AFTER(expected, event as WorldEvent);
    check(expected, event.type);
  }
  actor.stop();
};

describe('the task overview, paths generated from the production machine', () => {
  it('reaches every state of the list and the search box, and takes every transition', () => {
    const declared = ['loading', 'loaded', 'failed'].flatMap((list) => ['idle', 'typing'].map((searchBox) => JSON.stringify({ list, searchBox })));
    expect([...reachedStates].sort()).toEqual(declared.sort());
    // the states a person tells apart (on page 1 or later) x the events each accepts
    expect(transitionCount).toBe(132);
  });

  it('waits for the typing to pause: keystrokes within the delay search once', async () => {
    const held = heldCalls();
    const clock = new SimulatedClock();
    const actor = createActor(operationsOverviewMachine.provide({ actors: { fetchTasks: held.stub('fetchTasks') } }), { input: {}, clock }).start();
    for (const keyword of ['l', 'la', 'lau']) {
      actor.send({ type: 'search.typed', keyword });
      clock.increment(SEARCH_DELAY_MS - 1);
    }
    expect(held.calls).toHaveLength(1);
    clock.increment(1);
    expect(held.calls).toHaveLength(2);
    expect(held.calls[1]!.input).toMatchObject({ keyword: 'lau', current: 1 });
    actor.stop();
  });

  it.each(paths.map((path) => [describeEvents(path.events), path] as const))('%s', async (_description, path) => {
    await play(path);
  });
});
