import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type Actor, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import type { SharedConversation } from '../../../src/contract/shares';
import { sharedConversationMachine } from '../../../src/machines/shared-conversation.machine';
import { coverageGaps, NO_GAPS } from './model-coverage';
import { playOnActor } from './play-path';
import { productionPaths, type ModelEvent, type ProductionPath } from './production-paths';

/**
 * A shared conversation read by its link, on paths generated from the machine that ships: the
 * server sends the conversation, says the link is gone (404: revoked or unknown; 400: a link that
 * could never have been made), fails otherwise (500, 403, or no answer at all), and the reader
 * tries again. Each path is played on the production machine with its fetch held until the path
 * answers it, and after every step the page's state, the conversation shown, the fetches made and
 * whether a retry is offered are checked against the product's rules: a gone link says so for
 * good, any other failure offers to try again, and the conversation shows once it arrives.
 */
type Snapshot = SnapshotFrom<typeof sharedConversationMachine>;
type Phase = keyof typeof sharedConversationMachine.root.states;

const TOKEN = 'Vb3kq0yJ7m2xR9tLw4nF8pZs1cHd6gAe5uKoTiQrYvE';
const SHARED: SharedConversation = {
  title: 'Trip to Lyon',
  ownerName: 'Ada',
  sharedAt: '2026-01-01T00:00:00.000Z',
  messages: [
    { role: 'user', content: 'Three days in Lyon?', files: [], createdAt: '2026-01-01T00:00:00.000Z' },
    { role: 'assistant', content: 'Day one: Vieux Lyon.', files: [], createdAt: '2026-01-01T00:00:01.000Z' },
  ],
};

/** Read without throwing: a machine whose loading lost its call must fail the tests below, not the file as it loads. */
const LOADING_ID = sharedConversationMachine.root.states.loading?.invoke[0]?.id ?? 'nothing invoked while loading';
const ARRIVED: ModelEvent = { type: `xstate.done.actor.${LOADING_ID}`, output: SHARED };
const failure = (status?: number): ModelEvent => ({
  type: `xstate.error.actor.${LOADING_ID}`,
  error: Object.assign(new Error(status === undefined ? 'no answer' : `HTTP ${status}`), status === undefined ? {} : { status }),
});
/** How the server can refuse, and where the page must be then: the link gone for good, or a failure worth trying again. */
const AFTER_REFUSAL = new Map<number | undefined, Phase>([
  [404, 'gone'],
  [400, 'gone'],
  [500, 'failed'],
  [403, 'failed'],
  [undefined, 'failed'],
]);
const FAILURES = [...AFTER_REFUSAL.keys()].map(failure);

const eventsIn = (state: Snapshot): ModelEvent[] => {
  switch (state.value as Phase) {
    case 'loading':
      return [ARRIVED, ...FAILURES];
    case 'failed':
      return [{ type: 'retry' }];
    default:
      return [];
  }
};
const serializeState = (state: Snapshot) => JSON.stringify([state.value, state.context.shared?.title ?? null]);
const { model, paths, pathThrough, transitionCount, reachedStates } = productionPaths(sharedConversationMachine, {
  events: eventsIn,
  input: { token: TOKEN },
  serializeState,
});
console.log(`A shared conversation (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

/** Where the page must be, and what it must have done, written from the product's rules. */
type Expected = { phase: Phase; shared: SharedConversation | null; fetches: number };
const OPENED: Expected = { phase: 'loading', shared: null, fetches: 1 };

const statusOf = (event: ModelEvent) => (event.error as { status?: number }).status;

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  switch (event.type) {
    case ARRIVED.type:
      return { ...before, phase: 'ready', shared: event.output as SharedConversation };
    case failure().type:
      return { ...before, phase: AFTER_REFUSAL.get(statusOf(event))! };
    case 'retry':
      return { ...before, phase: 'loading', fetches: before.fetches + 1 };
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

type World = {
  actor: Actor<typeof sharedConversationMachine>;
  expected: Expected;
  last: string;
  fetched: unknown[];
  waiting: { resolve: (shared: SharedConversation) => void; reject: (error: unknown) => void }[];
};

const check = (world: World, phase: Phase) => {
  const { expected, last } = world;
  expect(phase, `the machine's path is in ${phase} after ${last}; the rules say ${expected.phase}`).toBe(expected.phase);
  const snapshot = world.actor.getSnapshot();
  expect(snapshot.value, `after ${last}`).toBe(expected.phase);
  expect(snapshot.context, `after ${last}`).toEqual({ token: TOKEN, shared: expected.shared });
  // the link's token, asked once per attempt
  expect(world.fetched, `fetches after ${last}`).toEqual(Array.from({ length: expected.fetches }, () => ({ token: TOKEN })));
  expect(world.waiting, `a fetch under way after ${last}`).toHaveLength(phase === 'loading' ? 1 : 0);
  expect(snapshot.can({ type: 'retry' }), `retry in ${phase}`).toBe(phase === 'failed');
};

let world: World | null = null;
const current = () => world!;

const answer = async ({ event }: { event: ModelEvent }) => {
  const w = current();
  const call = w.waiting.shift();
  expect(call, `no fetch is under way when ${event.type} comes`).toBeDefined();
  w.expected = EXPECTED_AFTER(w.expected, event);
  w.last = describePath([event]);
  if (event.type === ARRIVED.type) call!.resolve(event.output as SharedConversation);
  else call!.reject(event.error);
  // the answer reaches the machine a few microtasks later
  await new Promise((resolve) => setTimeout(resolve, 0));
};

const params: TestParam<Snapshot, ModelEvent> = {
  states: Object.fromEntries((Object.keys(sharedConversationMachine.root.states) as Phase[]).map((phase) => [phase, () => check(current(), phase)])),
  events: {
    [ARRIVED.type]: answer,
    [failure().type]: answer,
    retry: ({ event }) => {
      const w = current();
      w.expected = EXPECTED_AFTER(w.expected, event);
      w.last = 'retry';
      w.actor.send({ type: 'retry' });
    },
  },
};

const play = async (path: ProductionPath<typeof sharedConversationMachine>) => {
  const w = { expected: OPENED, last: 'the link opened', fetched: [], waiting: [] } as Omit<World, 'actor'> as World;
  w.actor = createActor(
    sharedConversationMachine.provide({
      actors: {
        fetchShared: fromPromise<SharedConversation, { token: string }>(
          ({ input }) =>
            new Promise((resolve, reject) => {
              w.fetched.push(input);
              w.waiting.push({ resolve, reject });
            }),
        ),
      },
    }),
    { input: { token: TOKEN } },
  );
  world = w;
  await playOnActor(w.actor, path, params);
};

function describePath(events: ModelEvent[]) {
  return events
    .map((event) => {
      if (event.type === ARRIVED.type) return 'conversation arrived';
      if (event.type === failure().type) return `refused ${statusOf(event) ?? 'without an answer'}`;
      return event.type;
    })
    .join(', ');
}

describe('a shared conversation read by its link, paths generated from the production machine', () => {
  it('reaches every state and takes every transition, each state asserted and each event played', () => {
    expect([...reachedStates].map((value) => JSON.parse(value) as string).sort()).toEqual(Object.keys(sharedConversationMachine.root.states).sort());
    expect(coverageGaps(sharedConversationMachine, model, params)).toEqual(NO_GAPS);
    // loading: the conversation or one of five refusals; failed: retry
    expect(transitionCount).toBe(7);
  });

  // what follows a retry (the traversal meets "loading" again as it was at first)
  const retried = [ARRIVED, ...FAILURES].map((outcome) => pathThrough([failure(500), { type: 'retry' }, outcome]));
  it.each([pathThrough([]), ...paths, ...retried].map((path) => [describePath(path.events) || 'opened', path] as const))('%s', async (_name, path) => {
    await play(path);
  });
});
