import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { resetByMailMachine } from './reset-by-mail.machine';

/**
 * "Forgot password?" on paths generated from the machine that ships: the person types an account
 * name (none, one that is neither an e-mail address nor a phone number, an address with spaces
 * around it, a phone number), asks for the link, and the server sends it, refuses too many
 * requests, fails or cannot be reached. Each path is played on the production machine as an actor
 * whose request waits until the path says how it ends, and checked after every step against rules
 * written here: nothing is sent unless it is an account name, what is sent is trimmed, a failure
 * says why and keeps what was typed, a sent link ends the form.
 */
type Snapshot = SnapshotFrom<typeof resetByMailMachine>;
const answers = actorAnswers(resetByMailMachine);
const refusal = (status?: number) => Object.assign(new Error(status ? `status ${status}` : 'offline'), status ? { status } : {});

/** What the rules say of each name a person may type: what is sent, or what is wrong with it. */
const NAMES: Record<string, { sends: string } | { problem: string }> = {
  '': { problem: 'login.signup.usernameRequired' },
  '   ': { problem: 'login.signup.usernameRequired' },
  ada: { problem: 'login.signup.usernameFormat' },
  ' ada@example.com ': { sends: 'ada@example.com' },
  '+8613800000000': { sends: '+8613800000000' },
};
/** What the page says when the request fails, by the server's status (none: nothing answered). */
const FAILURES: [number | undefined, string][] = [
  [429, 'login.tooManyAttempts'],
  [500, 'errors.refusal.server'],
  [undefined, 'errors.refusal.unreachable'],
];

const EVENTS: ModelEvent[] = [
  ...Object.keys(NAMES).map((value): ModelEvent => ({ type: 'username.change', value })),
  { type: 'submit' },
  answers.done('requestLink'),
  ...FAILURES.map(([status]): ModelEvent => ({ type: answers.error('requestLink', 0).type, error: refusal(status) })),
];
const serializeState = (state: Snapshot) => JSON.stringify([state.value, state.context]);
const { paths, transitionCount, reachedStates } = productionPaths(resetByMailMachine, { events: EVENTS, serializeState });
/** "typed ' ada@example.com ', submit, requestLink 429". */
const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'username.change') return `typed ${JSON.stringify(event.value)}`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      return event.type.startsWith('xstate.done.') ? `${src} ok` : `${src} ${(event.error as { status?: number }).status ?? 'unreachable'}`;
    })
    .join(', ');

/** Where the page must be and what it shows: written from the product's rules, not read from the machine. */
type Expected = { place: 'editing' | 'sending' | 'sent'; username: string; problem: string | null; failure: string | null; requests: string[] };
const START: Expected = { place: 'editing', username: '', problem: null, failure: null, requests: [] };

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  // The request can be answered only while it is under way.
  if (src && before.place !== 'sending') return before;
  if (event.type === answers.done('requestLink').type) return { ...before, place: 'sent' };
  if (src) {
    const status = (event.error as { status?: number }).status;
    return { ...before, place: 'editing', failure: FAILURES.find(([known]) => known === status)![1] };
  }
  // Once asked, the form cannot be changed or sent again.
  if (before.place !== 'editing') return before;
  if (event.type === 'username.change') return { ...before, username: event.value as string, problem: null };
  const rule = NAMES[before.username]!;
  if ('problem' in rule) return { ...before, problem: rule.problem };
  return { ...before, place: 'sending', failure: null, requests: [...before.requests, rule.sends] };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const actor = createActor(resetByMailMachine.provide({ actors: { requestLink: held.stub('requestLink') } })).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.value, after).toBe(expected.place);
    expect(state.context, after).toEqual({ username: expected.username, problem: expected.problem, failure: expected.failure });
    expect(held.calls.map((call) => (call.input as { username: string }).username), `${after}: links asked for`).toEqual(expected.requests);
    // The form can be sent while it is shown; a request under way or a link sent takes nothing more.
    expect(state.can({ type: 'submit' }), after).toBe(expected.place === 'editing');
    expect(state.can({ type: 'username.change', value: 'x' }), after).toBe(expected.place === 'editing');
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('asking for a reset link by mail, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(Object.keys(resetByMailMachine.root.states).map((state) => JSON.stringify(state)).sort());
    // Every place the form can be in (what is typed, the problem and the failure shown) by the events it takes there.
    expect(transitionCount).toBe(200);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
