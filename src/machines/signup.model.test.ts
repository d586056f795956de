import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { SignupPolicy } from '../contract/accounts';
import type { LoginResult } from '../contract/auth';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { signupMachine, type SignupField, type SignupValues } from './signup.machine';

/**
 * Making an account, on paths generated from the machine that ships, on a server open to anyone
 * and on one that takes only invitations (opened from an invitation link): the person types an
 * account name (none, not an address or a phone number, an address with spaces around it), a
 * nickname (none, one with spaces around it, one too long), a password (too short, the account
 * name, a good one) and types it again, then sends; the server makes the account, finds the name
 * taken, refuses (sign-up closed or by invitation only, the invitation used, too many attempts),
 * or fails. Each path is played on the production machine as an actor whose call waits until the
 * path says how it ends, and checked after every step against rules written here: nothing is sent
 * that breaks a rule, each broken rule is named for its field, what was typed stays through every
 * refusal, and an account made signs the person in and moves on.
 */
type Snapshot = SnapshotFrom<typeof signupMachine>;
const TOKEN = 'invite-token-0123456789abcdef';
const answers = actorAnswers(signupMachine);
const refusal = (status?: number) => Object.assign(new Error(status ? `status ${status}` : 'offline'), status ? { status } : {});
const SIGNED_IN: LoginResult = { token: 'session-1', userInfo: { id: 'u1', username: 'ada@example.com', nickname: 'Ada', avatar: '' } } as LoginResult;

const LONG_NICKNAME = 'n'.repeat(33);
const TYPED: [SignupField, string][] = [
  ['username', 'ada'],
  ['username', ' ada@example.com '],
  ['nickname', ' Ada '],
  ['nickname', LONG_NICKNAME],
  ['password', 'new secret 1'],
  ['confirm', 'new secret 1'],
];

/** Each broken rule named for its field: the account name is an e-mail address or a phone number; a nickname has at most 32 characters; the password 8 or more, not the account name; typed twice the same. */
const brokenRules = ({ username, nickname, password, confirm }: SignupValues) => {
  const problems: Partial<Record<SignupField, string>> = {};
  const name = username.trim();
  if (name === '') problems.username = 'login.signup.usernameRequired';
  else if (name !== 'ada@example.com') problems.username = 'login.signup.usernameFormat';
  if (nickname === LONG_NICKNAME) problems.nickname = 'account.problems.nickname.tooLong';
  if (password.length < 8) problems.password = 'password.tooShort';
  else if (password === name) problems.password = 'password.sameAsAccount';
  else if (confirm !== password) problems.confirm = 'password.mismatch';
  return problems;
};

/** The two servers: open to anyone, or by invitation only with the page opened from one. */
const SERVERS: { name: string; input: { invitation: string | null; policy: SignupPolicy | undefined } }[] = [
  { name: 'sign-up open', input: { invitation: null, policy: 'open' } },
  { name: 'by invitation', input: { invitation: TOKEN, policy: 'invite' } },
];
/** What the form says when the server refuses, on each server: beside the account name (taken), or above the form. */
const REFUSALS: [number | undefined, { field?: 'username'; open: string; invited: string }][] = [
  [409, { field: 'username', open: 'login.signup.taken', invited: 'login.signup.taken' }],
  [403, { open: 'login.signup.closed', invited: 'login.signup.inviteOnly' }],
  [429, { open: 'login.tooManyAttempts', invited: 'login.tooManyAttempts' }],
  // only an invitation can be used up
  [410, { open: 'errors.refusal.gone', invited: 'login.links.gone' }],
  [500, { open: 'errors.refusal.server', invited: 'errors.refusal.server' }],
  [undefined, { open: 'errors.refusal.unreachable', invited: 'errors.refusal.unreachable' }],
];

/** What the world can do: typing something other than what a field holds, sending, and each answer of the server. */
const eventsIn = (state: Snapshot): ModelEvent[] => [
  ...TYPED.filter(([field, value]) => state.context.values[field] !== value).map(([field, value]): ModelEvent => ({ type: 'field.change', field, value })),
  { type: 'submit' },
  answers.done('signup', SIGNED_IN),
  ...REFUSALS.map(([status]): ModelEvent => ({ type: answers.error('signup', 0).type, error: refusal(status) })),
];
/** What the person can tell apart: the state, what each field holds, which fields say what is wrong, and whether a refusal is shown. */
const serializeState = (state: Snapshot) =>
  JSON.stringify([state.value, state.context.values, Object.keys(state.context.problems).sort(), state.context.failure !== null]);
const generated = SERVERS.map((server) => ({ ...server, ...productionPaths(signupMachine, { events: eventsIn, input: server.input, serializeState }) }));

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
  place: 'editing' | 'submitting' | 'succeeded';
  values: SignupValues;
  problems: Partial<Record<SignupField, string>>;
  failure: string | null;
  requests: unknown[];
  signedIn: boolean;
};
const START: Expected = { place: 'editing', values: { username: '', nickname: '', password: '', confirm: '' }, problems: {}, failure: null, requests: [], signedIn: false };

const expectedAfter = (invitation: string | null) => (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  if (src && before.place !== 'submitting') return before;
  if (src && event.type.startsWith('xstate.done.')) return { ...before, place: 'succeeded', signedIn: true };
  if (src) {
    const refused = REFUSALS.find(([status]) => status === (event.error as { status?: number }).status)![1];
    const key = invitation ? refused.invited : refused.open;
    return refused.field ? { ...before, place: 'editing', problems: { [refused.field]: key } } : { ...before, place: 'editing', failure: key };
  }
  // While the account is being made, nothing can be typed or sent; once made, the page moves on.
  if (before.place !== 'editing') return before;
  if (event.type === 'field.change') {
    const field = event.field as SignupField;
    const { [field]: _fixed, ...problems } = before.problems;
    return { ...before, values: { ...before.values, [field]: event.value as string }, problems };
  }
  const problems = brokenRules(before.values);
  if (Object.keys(problems).length > 0) return { ...before, problems };
  const { username, nickname, password } = before.values;
  // The request: the account name and nickname trimmed, no empty nickname, the invitation the page was opened with.
  const request = { username: username.trim(), password, ...(nickname.trim() ? { nickname: nickname.trim() } : {}), ...(invitation ? { invitation } : {}) };
  return { ...before, place: 'submitting', failure: null, requests: [...before.requests, request] };
};

const play = async (input: (typeof SERVERS)[number]['input'], events: ModelEvent[]) => {
  const held = heldCalls();
  const signedIn: unknown[] = [];
  let left = 0;
  const actor = createActor(
    signupMachine.provide({
      actors: { signup: held.stub('signup') },
      actions: { signedIn: (_, result) => void signedIn.push(result), leave: () => void (left += 1) },
    }),
    { input },
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.value, after).toBe(expected.place);
    expect(state.status, after).toBe(expected.place === 'succeeded' ? 'done' : 'active');
    expect(state.context.values, `${after}: what is typed`).toEqual(expected.values);
    expect(state.context.problems, `${after}: the rules said broken`).toEqual(expected.problems);
    expect(state.context.failure, after).toBe(expected.failure);
    expect(held.calls.map((call) => call.input), `${after}: accounts asked for`).toEqual(expected.requests);
    // An account made signs in exactly as a login does, then the page goes where the person was going.
    expect(signedIn, `${after}: signed in`).toEqual(expected.signedIn ? [SIGNED_IN] : []);
    expect(left, `${after}: left the page`).toBe(expected.signedIn ? 1 : 0);
  };
  const rules = expectedAfter(input.invitation);
  await playAgainstRules(events, { actor, held, answers, start: START, rules: rules, check, describe: (event) => describePath([event]) });
};

describe('making an account, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    for (const { reachedStates } of generated) {
      expect([...reachedStates].sort()).toEqual(Object.keys(signupMachine.root.states).map((state) => JSON.stringify(state)).sort());
    }
    // Every place the form can be in (what each field holds, which say what is wrong, a refusal shown) by the events it takes there.
    expect(generated.map(({ transitionCount }) => transitionCount)).toEqual([569, 569]);
  });

  describe.each(generated)('$name', ({ input, paths }) => {
    it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
      // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
      expect(path.steps.length, path.description).toBeGreaterThan(1);
      await play(input, path.events);
    });
  });
});
