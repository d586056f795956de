import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type Actor, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import type { Application } from '../../../src/contract/applications';
import type { Page } from '../../../src/contract/paging';
import { applicationsListMachine, type ApplicationsListEvent } from '../../../src/machines/applications-list.machine';
import { coverageGaps, NO_GAPS } from './model-coverage';
import { playOnActor } from './play-path';
import { productionPaths, type ModelEvent, type ProductionPath } from './production-paths';

/**
 * The applications in the market, on paths generated from the machine that ships: the first page
 * asked for when the market opens, the server answering or failing, the person trying again, and
 * an application started, from the list or by an id the list does not hold. Each path is played
 * on the production machine with its fetch held until the path answers it, and after every step
 * the list, the pages asked for, the workflows started and what the person may do are checked
 * against the product's rules: one page of 20 is asked for, once per attempt; a failure offers to
 * try again and nothing else; a workflow starts with the application's own name, avatar and intro
 * when the list holds it, and by its id alone otherwise.
 */
type Snapshot = SnapshotFrom<typeof applicationsListMachine>;
type Phase = keyof typeof applicationsListMachine.root.states;

const application = (applicationId: string, name: string): Application => ({
  id: `row-${applicationId}`,
  applicationId,
  name,
  avatar: `/avatars/${applicationId}.png`,
  intro: `${name}, step by step`,
  companyId: 'co-1',
  public: true,
  published: true,
  isDraft: false,
});
const DIGEST = application('digest', 'Weekly digest');
const TRANSLATE = application('translate', 'Translate a document');
/** The market's first page. */
const PAGE: Page<Application> = { list: [DIGEST, TRANSLATE], total: 2, current: 1, pageSize: 20 };
/** Never listed: started by its id alone. */
const UNLISTED = 'unlisted';
const REFUSED = Object.assign(new Error('HTTP 500'), { status: 500 });

/** Read without throwing: a machine whose loading lost its call must fail the tests below, not the file as it loads. */
const LOADING_ID = applicationsListMachine.root.states.loading?.invoke[0]?.id ?? 'nothing invoked while loading';
const PAGE_ARRIVED: ModelEvent = { type: `xstate.done.actor.${LOADING_ID}`, output: PAGE };
const PAGE_FAILED: ModelEvent = { type: `xstate.error.actor.${LOADING_ID}`, error: REFUSED };
const STARTS: ModelEvent[] = [DIGEST.applicationId, UNLISTED].map((applicationId) => ({ type: 'application.start', applicationId }));

/** What the server and the person can do in each state: an application can be started from anywhere. */
const eventsIn = (state: Snapshot): ModelEvent[] => {
  switch (state.value as Phase) {
    case 'loading':
      return [PAGE_ARRIVED, PAGE_FAILED, ...STARTS];
    case 'failed':
      return [{ type: 'retry' }, ...STARTS];
    default:
      return STARTS;
  }
};
const serializeState = (state: Snapshot) => JSON.stringify([state.value, state.context.items.map((item) => item.applicationId)]);
const { model, paths, pathThrough, transitionCount, reachedStates } = productionPaths(applicationsListMachine, { events: eventsIn, serializeState });
console.log(`Applications in the market (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

type Started = { applicationId: string; application?: Application };

/** Where the product must be, and what it must have done, written from its rules. */
type Expected = { phase: Phase; items: Application[]; fetches: number; started: Started[] };
const OPENED: Expected = { phase: 'loading', items: [], fetches: 1, started: [] };

type World = {
  actor: Actor<typeof applicationsListMachine>;
  expected: Expected;
  last: string;
  /** The pages asked for, with what each asked. */
  fetched: unknown[];
  waiting: { resolve: (page: Page<Application>) => void; reject: (error: unknown) => void }[];
  started: Started[];
};

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  switch (event.type) {
    case PAGE_ARRIVED.type:
      return { ...before, phase: 'ready', items: (event.output as Page<Application>).list };
    // nothing listed, and an offer to try again
    case PAGE_FAILED.type:
      return { ...before, phase: 'failed' };
    case 'retry':
      return { ...before, phase: 'loading', fetches: before.fetches + 1 };
    // a workflow conversation opens, with the application as the list shows it; the list stays as it is
    case 'application.start': {
      const listed = before.items.find((item) => item.applicationId === event.applicationId);
      return { ...before, started: [...before.started, { applicationId: event.applicationId as string, application: listed }] };
    }
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

const check = (world: World, phase: Phase) => {
  const { expected, last } = world;
  expect(phase, `the machine's path is in ${phase} after ${last}; the rules say ${expected.phase}`).toBe(expected.phase);
  const snapshot = world.actor.getSnapshot();
  expect(snapshot.value, `after ${last}`).toBe(expected.phase);
  expect(snapshot.context, `after ${last}`).toEqual({ items: expected.items });
  // one page of twenty, asked again only by a retry
  expect(world.fetched, `pages asked for after ${last}`).toEqual(Array.from({ length: expected.fetches }, () => ({ pageSize: 20 })));
  expect(world.waiting, `a page under way after ${last}`).toHaveLength(phase === 'loading' ? 1 : 0);
  expect(world.started, `workflows started after ${last}`).toEqual(expected.started);
  expect(snapshot.can({ type: 'retry' }), `retry in ${phase}`).toBe(phase === 'failed');
  for (const start of STARTS) expect(snapshot.can(start as ApplicationsListEvent), `${JSON.stringify(start)} in ${phase}`).toBe(true);
};

let world: World | null = null;
const current = () => world!;

const send = ({ event }: { event: ModelEvent }) => {
  const w = current();
  w.expected = EXPECTED_AFTER(w.expected, event);
  w.last = `${event.type} ${String(event.applicationId ?? '')}`.trim();
  w.actor.send(event as ApplicationsListEvent);
};

const answer = async ({ event }: { event: ModelEvent }) => {
  const w = current();
  const call = w.waiting.shift();
  expect(call, `no page is asked for when ${event.type} comes`).toBeDefined();
  w.expected = EXPECTED_AFTER(w.expected, event);
  w.last = event.type === PAGE_FAILED.type ? 'the page failed' : 'the page arrived';
  if (event.type === PAGE_ARRIVED.type) call!.resolve(event.output as Page<Application>);
  else call!.reject(event.error);
  // the answer reaches the machine a few microtasks later
  await new Promise((resolve) => setTimeout(resolve, 0));
};

const params: TestParam<Snapshot, ModelEvent> = {
  states: Object.fromEntries((Object.keys(applicationsListMachine.root.states) as Phase[]).map((phase) => [phase, () => check(current(), phase)])),
  events: { [PAGE_ARRIVED.type]: answer, [PAGE_FAILED.type]: answer, retry: send, 'application.start': send },
};

const play = async (path: ProductionPath<typeof applicationsListMachine>) => {
  const w = { expected: OPENED, last: 'the market opened', fetched: [], waiting: [], started: [] } as Omit<World, 'actor'> as World;
  w.actor = createActor(
    applicationsListMachine.provide({
      actors: {
        fetchApplications: fromPromise<Page<Application>, { pageSize: number }>(
          ({ input }) =>
            new Promise((resolve, reject) => {
              w.fetched.push(input);
              w.waiting.push({ resolve, reject });
            }),
        ),
      },
      actions: { startWorkflow: (_, started) => void w.started.push(started) },
    }),
  );
  world = w;
  await playOnActor(w.actor, path, params);
};

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === PAGE_ARRIVED.type) return 'page arrived';
      if (event.type === PAGE_FAILED.type) return 'page failed';
      if (event.type === 'application.start') return `start ${String(event.applicationId)}`;
      return event.type;
    })
    .join(', ');

describe('the applications in the market, paths generated from the production machine', () => {
  it('reaches every state and takes every transition, each state asserted and each event played', () => {
    expect([...reachedStates].map((value) => JSON.parse(value) as string).sort()).toEqual(Object.keys(applicationsListMachine.root.states).sort());
    expect(coverageGaps(applicationsListMachine, model, params)).toEqual(NO_GAPS);
    // loading: the page, its failure and two starts; failed: retry and two starts; ready: two starts
    expect(transitionCount).toBe(9);
  });

  // a retry's page is the one the list shows (the traversal meets "loading" again as it was at first)
  const retried = [PAGE_ARRIVED, PAGE_FAILED].map((outcome) => pathThrough([PAGE_FAILED, { type: 'retry' }, outcome]));
  it.each([pathThrough([]), ...paths, ...retried].map((path) => [describePath(path.events) || 'opened', path] as const))('%s', async (_name, path) => {
    await play(path);
  });
});
