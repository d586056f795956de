import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { Usage } from '../contract/admin';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { adminUsageMachine, type UsageWindow } from './admin-usage.machine';

/**
 * The console's usage, on paths generated from the machine that ships: the figures of the last 30
 * days load, fail or cannot be reached and are tried again; the admin picks a period of 7, 30 or
 * 90 days, while the figures load, once they are shown or after a failure. Each path is played on
 * the production machine as an actor whose calls wait until the path says how they end, and
 * checked after every step against rules written here: picking another period asks for its
 * figures (the one being read is forgotten), picking the period shown does nothing, the figures
 * shown stay until new ones come, and a failure offers Try again.
 */
type Snapshot = SnapshotFrom<typeof adminUsageMachine>;
const usageOf = (questions: number): Usage => ({
  days: [{ day: '2026-03-01', questions, tokens: questions * 100 }],
  users: [{ userId: 'u1', name: 'Ada', questions, tokens: questions * 100 }],
  agents: [{ agentId: 'a1', name: 'Helper', questions, tokens: questions * 100 }],
});
const FIGURES = usageOf(4);
const answers = actorAnswers(adminUsageMachine);
const refused = (status: number) => Object.assign(new Error(`status ${status}`), { status });
const UNREACHABLE = Object.assign(new Error('offline'), { unreachable: true });
const WINDOWS: UsageWindow[] = [7, 30, 90];

const EVENTS: ModelEvent[] = [
  answers.done('loadUsage', FIGURES),
  { type: answers.error('loadUsage', 0).type, error: refused(500) },
  { type: answers.error('loadUsage', 0).type, error: UNREACHABLE },
  { type: 'retry' },
  ...WINDOWS.map((days): ModelEvent => ({ type: 'days.pick', days })),
];
/** What the admin can tell apart: the state, the period picked, whether figures are shown, and the failure. */
const serializeState = (state: Snapshot) => JSON.stringify([state.value, state.context.days, state.context.usage !== null, state.context.failure]);
const { paths, transitionCount, reachedStates } = productionPaths(adminUsageMachine, { events: EVENTS, serializeState });

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'days.pick') return `picked ${event.days as number} days`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      return event.type.startsWith('xstate.done.') ? `${src} ok` : `${src} ${(event.error as { status?: number }).status ?? 'unreachable'}`;
    })
    .join(', ');

/** What the panel must show and have asked for: written from the product's rules, not read from the machine. */
type Expected = {
  place: 'loading' | 'loaded' | 'failed';
  days: UsageWindow;
  usage: Usage | null;
  failure: { status: number | undefined } | null;
  loads: { days: number }[];
};
const START: Expected = { place: 'loading', days: 30, usage: null, failure: null, loads: [{ days: 30 }] };

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  if (src === 'loadUsage') {
    if (before.place !== 'loading') return before;
    if (event.type.startsWith('xstate.done.')) return { ...before, place: 'loaded', usage: FIGURES, failure: null };
    return { ...before, place: 'failed', failure: { status: (event.error as { status?: number }).status } };
  }
  if (event.type === 'retry') return before.place === 'failed' ? { ...before, place: 'loading', loads: [...before.loads, { days: before.days }] } : before;
  // Another period is read whatever the panel is doing; the one shown is not read again.
  const days = event.days as UsageWindow;
  if (days === before.days) return before;
  return { ...before, place: 'loading', days, loads: [...before.loads, { days }] };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const actor = createActor(adminUsageMachine.provide({ actors: { loadUsage: held.stub('loadUsage') } })).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches(expected.place), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    expect(state.context, after).toEqual({ days: expected.days, usage: expected.usage, failure: expected.failure });
    expect(held.calls.map((call) => call.input), `${after}: figures asked for`).toEqual(expected.loads);
    // Try again is offered after a failure only; every period but the one picked can be chosen.
    expect(state.can({ type: 'retry' }), `${after}: Try again offered`).toBe(expected.place === 'failed');
    for (const days of WINDOWS) expect(state.can({ type: 'days.pick', days }), `${after}: ${days} days can be picked`).toBe(days !== expected.days);
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('the console’s usage, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(['"failed"', '"loaded"', '"loading"']);
    // Every place the panel can be in (the period, whether figures are shown, the failure) by the events it takes there.
    expect(transitionCount).toBe(132);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
