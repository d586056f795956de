import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { passwordChangeMachine, type PasswordField, type PasswordValues } from './password-change.machine';

/**
 * Changing the password on the account page, on paths generated from the machine that ships: the
 * person types the current password, a new one the rules refuse (too short, only digits, the
 * account name) or accept, and the second typing matching it or not, then sends; the server
 * changes it, says the current password is wrong, fails or cannot be reached. Each path is played
 * on the production machine as an actor whose call waits until the path says how it ends, and
 * checked after every step against rules written here: nothing is sent that breaks a rule, each
 * broken rule is named beside its field, a failure keeps everything typed, and a change made
 * empties the fields and says how many other sessions ended.
 */
type Snapshot = SnapshotFrom<typeof passwordChangeMachine>;
const USERNAME = 'ada@example.com';
const answers = actorAnswers(passwordChangeMachine);
const refusal = (status?: number) => Object.assign(new Error(status ? `status ${status}` : 'offline'), status ? { status } : {});

/** What the rules say of each new password: 8 to 128 characters, not only digits, not the account name. */
const NEW_PASSWORD_PROBLEM: Record<string, string | null> = {
  '': 'password.tooShort',
  short: 'password.tooShort',
  '12345678': 'password.onlyDigits',
  [USERNAME]: 'password.sameAsAccount',
  'new secret 1': null,
};
const TYPED: [PasswordField, string][] = [
  ['current', 'old secret'],
  ...Object.keys(NEW_PASSWORD_PROBLEM)
    .filter((value) => value !== '')
    .map((value): [PasswordField, string] => ['next', value]),
  ['confirm', 'new secret 1'],
  ['confirm', 'other secret'],
];
/** What the form says when the change fails, beside which field (none: above the form), by the server's status. */
const FAILURES: [number | undefined, { field: 'current' | null; key: string }][] = [
  [403, { field: 'current', key: 'account.password.wrongCurrent' }],
  [500, { field: null, key: 'errors.refusal.server' }],
  [undefined, { field: null, key: 'errors.refusal.unreachable' }],
];
const REVOKED = 2;

const EVENTS: ModelEvent[] = [
  ...TYPED.map(([field, value]): ModelEvent => ({ type: 'field.change', field, value })),
  { type: 'submit' },
  answers.done('changePassword', { revoked: REVOKED }),
  ...FAILURES.map(([status]): ModelEvent => ({ type: answers.error('changePassword', 0).type, error: refusal(status) })),
];
/** What the person can tell apart: the state, which fields hold what, which say what is wrong, and the failure. */
const serializeState = (state: Snapshot) =>
  JSON.stringify([state.value, state.context.values, Object.keys(state.context.problems).sort(), state.context.failure]);
const { paths, transitionCount, reachedStates } = productionPaths(passwordChangeMachine, { events: EVENTS, input: { username: USERNAME }, serializeState });

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'field.change') return `${event.field as string} ${JSON.stringify(event.value)}`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      return event.type.startsWith('xstate.done.') ? `${src} ok` : `${src} ${(event.error as { status?: number }).status ?? 'unreachable'}`;
    })
    .join(', ');

/** What the form must show and have done: written from the product's rules, not read from the machine. */
type Expected = {
  place: 'editing' | 'submitting';
  values: PasswordValues;
  problems: Partial<Record<PasswordField, string>>;
  failure: string | null;
  requests: { currentPassword: string; newPassword: string }[];
  /** How many times the person was told the password changed (and how many sessions ended). */
  told: number;
};
const EMPTY: PasswordValues = { current: '', next: '', confirm: '' };
const START: Expected = { place: 'editing', values: EMPTY, problems: {}, failure: null, requests: [], told: 0 };

/** Every rule the typed values break, named for its field; the second typing only once the new password is acceptable. */
const brokenRules = ({ current, next, confirm }: PasswordValues) => {
  const problems: Partial<Record<PasswordField, string>> = {};
  if (current === '') problems.current = 'password.required';
  const nextProblem = NEW_PASSWORD_PROBLEM[next]!;
  if (nextProblem) problems.next = nextProblem;
  else if (confirm !== next) problems.confirm = 'password.mismatch';
  return problems;
};

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  // The server answers only a change under way.
  if (src && before.place !== 'submitting') return before;
  if (src && event.type.startsWith('xstate.done.')) return { ...before, place: 'editing', values: EMPTY, problems: {}, told: before.told + 1 };
  if (src) {
    const { field, key } = FAILURES.find(([status]) => status === (event.error as { status?: number }).status)![1];
    return field ? { ...before, place: 'editing', problems: { [field]: key } } : { ...before, place: 'editing', failure: key };
  }
  // While the change is under way, nothing can be typed or sent.
  if (before.place !== 'editing') return before;
  if (event.type === 'field.change') {
    const field = event.field as PasswordField;
    // Typing in a field takes back what was said about it, and the last failure.
    const { [field]: _fixed, ...problems } = before.problems;
    return { ...before, values: { ...before.values, [field]: event.value as string }, problems, failure: null };
  }
  const problems = brokenRules(before.values);
  if (Object.keys(problems).length > 0) return { ...before, problems };
  return {
    ...before,
    place: 'submitting',
    failure: null,
    requests: [...before.requests, { currentPassword: before.values.current, newPassword: before.values.next }],
  };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const changed: { revoked: number }[] = [];
  const actor = createActor(
    passwordChangeMachine.provide({ actors: { changePassword: held.stub('changePassword') }, actions: { changed: (_, params) => void changed.push(params) } }),
    { input: { username: USERNAME } },
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.value, after).toBe(expected.place);
    expect(state.context.values, `${after}: what is typed`).toEqual(expected.values);
    expect(state.context.problems, `${after}: the rules said broken`).toEqual(expected.problems);
    expect(state.context.failure, after).toBe(expected.failure);
    expect(held.calls.map((call) => call.input), `${after}: changes sent`).toEqual(expected.requests);
    expect(changed, `${after}: told it changed`).toEqual(Array.from({ length: expected.told }, () => ({ revoked: REVOKED })));
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('changing the password, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(Object.keys(passwordChangeMachine.root.states).map((state) => JSON.stringify(state)).sort());
    // Every place the form can be in (what each field holds, which say what is wrong, the failure) by the events it takes there.
    expect(transitionCount).toBe(760);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
