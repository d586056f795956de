import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { Organisation } from '../contract/admin';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { adminOrganisationsMachine } from './admin-organisations.machine';

/**
 * The console's organisations, on paths generated from the machine that ships: the list loads,
 * fails or cannot be reached and is tried again; the admin types a name (none, only spaces, one
 * with spaces around it, one over 80 characters) and creates it; the server creates it or refuses.
 * Each path is played on the production machine as an actor whose calls wait until the path says
 * how they end, and checked after every step against rules written here: Create is offered only
 * for a name the contract accepts, the name is sent trimmed, a refusal keeps it and says why, and
 * an organisation created joins the list and is announced once.
 */
type Snapshot = SnapshotFrom<typeof adminOrganisationsMachine>;
const ACME: Organisation = { id: 'o1', name: 'Acme', members: 3 };
const BAKERY: Organisation = { id: 'o2', name: 'Bakery', members: 0 };
const answers = actorAnswers(adminOrganisationsMachine);
const refused = (status: number) => Object.assign(new Error(`status ${status}`), { status });
const UNREACHABLE = Object.assign(new Error('offline'), { unreachable: true });

/** What the rules say of each name: 1 to 80 characters once trimmed, sent trimmed. */
const NAMES: Record<string, string | null> = { '': null, '   ': null, ' Bakery ': 'Bakery', [`B${'a'.repeat(80)}`]: null };

const EVENTS: ModelEvent[] = [
  answers.done('listOrganisations', [ACME]),
  { type: answers.error('listOrganisations', 0).type, error: refused(500) },
  { type: answers.error('listOrganisations', 0).type, error: UNREACHABLE },
  { type: 'retry' },
  ...Object.keys(NAMES).map((name): ModelEvent => ({ type: 'name.change', name })),
  { type: 'create' },
  answers.done('createOrganisation', BAKERY),
  { type: answers.error('createOrganisation', 0).type, error: refused(409) },
];
/** What the admin can tell apart: the state, the name typed, whether one was created, and the failure shown. */
const serializeState = (state: Snapshot) =>
  JSON.stringify([state.value, state.context.name, Math.min(state.context.organisations.length, 2), state.context.failure]);
const { paths, transitionCount, reachedStates } = productionPaths(adminOrganisationsMachine, { events: EVENTS, serializeState });

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'name.change') return `typed ${JSON.stringify(event.name)}`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      return event.type.startsWith('xstate.done.') ? `${src} ok` : `${src} ${(event.error as { status?: number }).status ?? 'unreachable'}`;
    })
    .join(', ');

/** What the panel must show and have done: written from the product's rules, not read from the machine. */
type Expected = {
  place: 'loading' | 'loadFailed' | 'idle' | 'creating';
  name: string;
  organisations: Organisation[];
  failure: { status: number | undefined } | null;
  lists: number;
  creations: { name: string }[];
  announced: Organisation[];
};
const START: Expected = { place: 'loading', name: '', organisations: [], failure: null, lists: 1, creations: [], announced: [] };
const PLACES = { loading: 'loading', loadFailed: 'loadFailed', idle: { ready: 'idle' }, creating: { ready: 'creating' } } as const;

const statusOf = (event: ModelEvent) => (event.error as { status?: number }).status;

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  const done = event.type.startsWith('xstate.done.');
  if (src === 'listOrganisations') {
    if (before.place !== 'loading') return before;
    return done ? { ...before, place: 'idle', organisations: [ACME], failure: null } : { ...before, place: 'loadFailed', failure: { status: statusOf(event) } };
  }
  if (src === 'createOrganisation') {
    if (before.place !== 'creating') return before;
    if (done) return { ...before, place: 'idle', organisations: [...before.organisations, BAKERY], name: '', failure: null, announced: [...before.announced, BAKERY] };
    return { ...before, place: 'idle', failure: { status: statusOf(event) } };
  }
  // What is typed is kept whatever the panel is doing.
  if (event.type === 'name.change') return { ...before, name: event.name as string };
  if (event.type === 'retry') return before.place === 'loadFailed' ? { ...before, place: 'loading', failure: null, lists: before.lists + 1 } : before;
  const sent = NAMES[before.name];
  if (before.place !== 'idle' || !sent) return before;
  return { ...before, place: 'creating', failure: null, creations: [...before.creations, { name: sent }] };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const announced: Organisation[] = [];
  const actor = createActor(
    adminOrganisationsMachine.provide({
      actors: { listOrganisations: held.stub('listOrganisations'), createOrganisation: held.stub('createOrganisation') },
      actions: { created: (_, { organisation }) => void announced.push(organisation) },
    }),
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches(PLACES[expected.place] as never), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    expect(state.context, after).toEqual({ organisations: expected.organisations, name: expected.name, failure: expected.failure });
    expect(held.calls.filter((call) => call.src === 'listOrganisations'), `${after}: lists asked for`).toHaveLength(expected.lists);
    expect(held.calls.filter((call) => call.src === 'createOrganisation').map((call) => call.input), `${after}: creations asked for`).toEqual(expected.creations);
    expect(announced, `${after}: announced`).toEqual(expected.announced);
    // The Create button works only for a name the rules accept, and not while one is being created.
    expect(state.can({ type: 'create' }), `${after}: Create offered`).toBe(expected.place === 'idle' && NAMES[expected.name] !== null);
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('the console’s organisations, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(Object.values(PLACES).map((place) => JSON.stringify(place)).sort());
    // Every place the panel can be in (the name typed, whether one was created, the failure shown) by the events it takes there.
    expect(transitionCount).toBe(184);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
