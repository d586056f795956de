import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { passwordResetMachine, type ResetField } from './password-reset.machine';

/**
 * A reset link opened (`/reset-password?token=`), on paths generated from the machine that ships:
 * the server says whose account the link is for, or that it was used, never existed or could not
 * be read; the person types a new password the rules refuse (too short, the account name) or
 * accept, and the second typing matching it or not, then sends; the server sets it, finds the link
 * used or unknown by then, fails or cannot be reached. Each path is played on the production
 * machine as an actor whose calls wait until the path says how they end, and checked after every
 * step against rules written here: nothing is sent that breaks a rule, a link that stopped working
 * says so and offers nothing to type, any other failure keeps what was typed, and a password set
 * sends the person to log in.
 */
type Snapshot = SnapshotFrom<typeof passwordResetMachine>;
const TOKEN = 'reset-token-0123456789abcdef';
const USERNAME = 'ada@example.com';
const answers = actorAnswers(passwordResetMachine);
const refusal = (status?: number) => Object.assign(new Error(status ? `status ${status}` : 'offline'), status ? { status } : {});

/** What the rules say of each new password: 8 to 128 characters, not only digits, not the account name. */
const NEW_PASSWORD_PROBLEM: Record<string, string | null> = {
  '': 'password.tooShort',
  short: 'password.tooShort',
  [USERNAME]: 'password.sameAsAccount',
  'new secret 1': null,
};
const TYPED: [ResetField, string][] = [
  ['password', 'short'],
  ['password', USERNAME],
  ['password', 'new secret 1'],
  ['confirm', 'new secret 1'],
  ['confirm', 'other secret'],
];
/** A link that stopped working says why and offers nothing more: used (410) or unknown (404). */
const LINK_FAILURES: Record<number, string> = { 410: 'login.links.gone', 404: 'login.links.unknown' };
/** Any other failure, by the server's status (none: nothing answered). */
const OTHER_FAILURES: [number | undefined, string][] = [
  [500, 'errors.refusal.server'],
  [undefined, 'errors.refusal.unreachable'],
];

const failures = (src: string, statuses: (number | undefined)[]) =>
  statuses.map((status): ModelEvent => ({ type: answers.error(src, 0).type, error: refusal(status) }));
const EVENTS: ModelEvent[] = [
  answers.done('previewLink', { username: USERNAME }),
  ...failures('previewLink', [410, 404, 500]),
  ...TYPED.map(([field, value]): ModelEvent => ({ type: 'field.change', field, value })),
  { type: 'submit' },
  answers.done('resetPassword'),
  ...failures('resetPassword', [410, 404, 500, undefined]),
];
const serializeState = (state: Snapshot) =>
  JSON.stringify([state.value, state.context.values, Object.keys(state.context.problems).sort(), state.context.failure]);
const { paths, transitionCount, reachedStates } = productionPaths(passwordResetMachine, { events: EVENTS, input: { token: TOKEN }, serializeState });

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'field.change') return `${event.field as string} ${JSON.stringify(event.value)}`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      return event.type.startsWith('xstate.done.') ? `${src} ok` : `${src} ${(event.error as { status?: number }).status ?? 'unreachable'}`;
    })
    .join(', ');

type Place = 'loading' | 'linkFailed' | 'ready' | 'submitting' | 'done';
/** What the page must show and have done: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  username: string;
  values: Record<ResetField, string>;
  problems: Partial<Record<ResetField, string>>;
  failure: string | null;
  calls: { src: string; input: unknown }[];
  /** Whether the person was sent on to log in. */
  sentToLogin: boolean;
};
const START: Expected = {
  place: 'loading',
  username: '',
  values: { password: '', confirm: '' },
  problems: {},
  failure: null,
  calls: [{ src: 'previewLink', input: { token: TOKEN } }],
  sentToLogin: false,
};

const statusOf = (event: ModelEvent) => (event.error as { status?: number }).status;
const linkFailure = (status: number | undefined) => LINK_FAILURES[status ?? 0] ?? OTHER_FAILURES.find(([known]) => known === status)![1];

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  const done = event.type.startsWith('xstate.done.');
  if (src === 'previewLink') {
    if (before.place !== 'loading') return before;
    // Whatever stops the link being read, the page says why and offers nothing to type.
    return done ? { ...before, place: 'ready', username: USERNAME } : { ...before, place: 'linkFailed', failure: linkFailure(statusOf(event)) };
  }
  if (src === 'resetPassword') {
    if (before.place !== 'submitting') return before;
    if (done) return { ...before, place: 'done', sentToLogin: true };
    const status = statusOf(event);
    if (LINK_FAILURES[status ?? 0]) return { ...before, place: 'linkFailed', failure: LINK_FAILURES[status!]! };
    return { ...before, place: 'ready', failure: OTHER_FAILURES.find(([known]) => known === status)![1] };
  }
  // Only the form of a link that works takes what is typed.
  if (before.place !== 'ready') return before;
  if (event.type === 'field.change') {
    const field = event.field as ResetField;
    const { [field]: _fixed, ...problems } = before.problems;
    return { ...before, values: { ...before.values, [field]: event.value as string }, problems };
  }
  const { password, confirm } = before.values;
  const passwordProblem = NEW_PASSWORD_PROBLEM[password]!;
  if (passwordProblem) return { ...before, problems: { password: passwordProblem } };
  if (confirm !== password) return { ...before, problems: { confirm: 'password.mismatch' } };
  return { ...before, place: 'submitting', failure: null, calls: [...before.calls, { src: 'resetPassword', input: { token: TOKEN, newPassword: password } }] };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  let sentToLogin = 0;
  const actor = createActor(
    passwordResetMachine.provide({
      actors: { previewLink: held.stub('previewLink'), resetPassword: held.stub('resetPassword') },
      actions: { passwordSet: () => void (sentToLogin += 1) },
    }),
    { input: { token: TOKEN } },
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.value, after).toBe(expected.place);
    expect(state.status, after).toBe(expected.place === 'done' ? 'done' : 'active');
    expect(state.context.username, `${after}: whose account`).toBe(expected.username);
    expect(state.context.values, `${after}: what is typed`).toEqual(expected.values);
    expect(state.context.problems, `${after}: the rules said broken`).toEqual(expected.problems);
    expect(state.context.failure, after).toBe(expected.failure);
    expect(held.calls.map(({ src, input }) => ({ src, input })), `${after}: calls`).toEqual(expected.calls);
    expect(sentToLogin, `${after}: sent on to log in`).toBe(expected.sentToLogin ? 1 : 0);
    // Something to type and send only on a link that works, and not while it is being used.
    expect(state.can({ type: 'submit' }), after).toBe(expected.place === 'ready');
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('a reset link, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(Object.keys(passwordResetMachine.root.states).map((state) => JSON.stringify(state)).sort());
    // Every place the page can be in (what each field holds, which say what is wrong, the failure) by the events it takes there.
    expect(transitionCount).toBe(327);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
