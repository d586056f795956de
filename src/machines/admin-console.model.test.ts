import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { ADMIN_PANELS, adminConsoleMachine, type AdminPanel } from './admin-console.machine';

/**
 * The console's panels, on paths generated from the machine that ships: the console opens on the
 * panel its address names (`?panel=audit`), on Users when it names none or one that does not
 * exist, and the admin opens each of the eight panels in turn, the one already open included. Each
 * path is played on the production machine as an actor and checked after every step against rules
 * written here: opening another panel shows it and is announced once (the address follows it),
 * opening the panel shown does nothing, and every other panel can be opened from any panel.
 */
type Snapshot = SnapshotFrom<typeof adminConsoleMachine>;
const answers = actorAnswers(adminConsoleMachine);
const EVENTS: ModelEvent[] = ADMIN_PANELS.map((panel): ModelEvent => ({ type: 'open', panel }));
/** What the admin can tell apart: the panel shown. */
const serializeState = (state: Snapshot) => JSON.stringify([state.value, state.context.panel]);

/** The address the console opens from, and the panel the rules say it shows first. */
const OPENINGS: { address: string | null; first: AdminPanel }[] = [
  { address: 'audit', first: 'audit' },
  { address: 'models', first: 'models' },
  { address: 'reviews', first: 'reviews' },
  { address: null, first: 'users' },
  { address: 'billing', first: 'users' },
];
const generated = OPENINGS.map(({ address, first }) => ({ address, first, ...productionPaths(adminConsoleMachine, { events: EVENTS, serializeState, input: { panel: address } }) }));

const describePath = (events: ModelEvent[]) => events.map((event) => `opened ${event.panel as string}`).join(', ');

/** What the console must show and have announced: written from the product's rules, not read from the machine. */
type Expected = { panel: AdminPanel; announced: AdminPanel[] };

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const panel = event.panel as AdminPanel;
  return panel === before.panel ? before : { panel, announced: [...before.announced, panel] };
};

const play = async (address: string | null, first: AdminPanel, events: ModelEvent[]) => {
  const held = heldCalls();
  const announced: AdminPanel[] = [];
  const actor = createActor(
    adminConsoleMachine.provide({ actions: { panelOpened: (_, { panel }) => void announced.push(panel) } }),
    { input: { panel: address } },
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.context, after).toEqual({ panel: expected.panel });
    expect(announced, `${after}: announced`).toEqual(expected.announced);
    // Every panel but the one shown can be opened.
    for (const panel of ADMIN_PANELS) expect(state.can({ type: 'open', panel }), `${after}: ${panel} can be opened`).toBe(panel !== expected.panel);
  };
  await playAgainstRules(events, { actor, held, answers, start: { panel: first, announced: [] }, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe.each(generated)('the console’s panels opened from ?panel=$address, paths generated from the production machine', ({ address, first, paths, transitionCount, reachedStates }) => {
  it('reaches every state and takes every transition', () => {
    // The console has one state; what tells its places apart is the panel shown.
    expect([...reachedStates]).toEqual(['{}']);
    // Eight panels (users, organisations, invitations, connectors, models, approvals, usage, audit), each opening the seven others.
    expect(transitionCount).toBe(56);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(address, first, path.events);
  });
});
