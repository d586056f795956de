import { assertEvent, assign, fromPromise, setup } from 'xstate';
import * as v from 'valibot';
import type { SignupPolicy, SignupRequest } from '../contract/accounts';
import { accountSchema, type LoginResult } from '../contract/auth';
import { NICKNAME_MAX } from '../contract/users';
import { refusalKey } from '../i18n/refusal';
import { statusOf } from './error-status';
import { linkFailureKey } from './login-page.machine';
import { newPasswordProblems } from './new-password';

export type SignupField = 'username' | 'nickname' | 'password' | 'confirm';
export type SignupValues = Record<SignupField, string>;
/** What is wrong with each field, as a translation key. */
export type SignupProblems = Partial<Record<SignupField, string>>;

type SignupContext = {
  values: SignupValues;
  problems: SignupProblems;
  /** Why the server refused, when it is not about one field: a translation key. */
  failure: string | null;
  invitation: string | null;
  policy: SignupPolicy | undefined;
};

export type SignupEvent = { type: 'field.change'; field: SignupField; value: string } | { type: 'submit' };

/** The contract's rules for a new account, each broken one named for its field. */
export const problemsOf = (values: SignupValues): SignupProblems => {
  const username = values.username.trim();
  const chosen = newPasswordProblems(values.password, values.confirm, username);
  return {
    ...(username === '' ? { username: 'login.signup.usernameRequired' } : v.is(accountSchema, username) ? {} : { username: 'login.signup.usernameFormat' }),
    ...(values.nickname.trim().length > NICKNAME_MAX ? { nickname: 'account.problems.nickname.tooLong' } : {}),
    ...(chosen.password ? { password: chosen.password } : {}),
    ...(chosen.confirm ? { confirm: chosen.confirm } : {}),
  };
};

const requestOf = ({ values, invitation }: SignupContext): SignupRequest => ({
  username: values.username.trim(),
  password: values.password,
  ...(values.nickname.trim() ? { nickname: values.nickname.trim() } : {}),
  ...(invitation ? { invitation } : {}),
});

/**
 * Making an account with a password: account name, an optional nickname, the password twice.
 * The contract's rules are checked before anything is sent; what was typed stays through every
 * refusal. An account made signs in exactly as a password login does (the app gets the session,
 * the page goes where the person was going).
 */
export const signupMachine = setup({
  types: {
    context: {} as SignupContext,
    events: {} as SignupEvent,
    input: {} as { invitation: string | null; policy: SignupPolicy | undefined },
  },
  actors: {
    signup: fromPromise<LoginResult, SignupRequest>(async () => {
      throw new Error('signup is provided where the screen starts');
    }),
  },
  actions: {
    setField: assign(({ context, event }) => {
      assertEvent(event, 'field.change');
      const { [event.field]: _fixed, ...problems } = context.problems;
      return { values: { ...context.values, [event.field]: event.value }, problems };
    }),
    showProblems: assign(({ context }) => ({ problems: problemsOf(context.values) })),
    clearFailure: assign({ failure: null }),
    showTaken: assign({ problems: { username: 'login.signup.taken' } }),
    showRefusal: assign(({ context }, params: { error: unknown }) => {
      const status = statusOf(params.error);
      if (status === 403) return { failure: context.policy === 'invite' ? 'login.signup.inviteOnly' : 'login.signup.closed' };
      if (status === 429) return { failure: 'login.tooManyAttempts' };
      if (context.invitation && (status === 404 || status === 410)) return { failure: linkFailureKey(params.error) };
      return { failure: refusalKey({ status }) };
    }),
    signedIn: (_, _params: LoginResult) => undefined,
    leave: () => undefined,
  },
  guards: {
    isReady: ({ context }) => Object.keys(problemsOf(context.values)).length === 0,
    isTaken: (_, params: { error: unknown }) => statusOf(params.error) === 409,
  },
}).createMachine({
  id: 'signup',
  context: ({ input }) => ({
    values: { username: '', nickname: '', password: '', confirm: '' },
    problems: {},
    failure: null,
    invitation: input.invitation,
    policy: input.policy,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': { actions: 'setField' },
        submit: [{ guard: 'isReady', target: 'submitting', actions: 'clearFailure' }, { actions: 'showProblems' }],
      },
    },
    submitting: {
      invoke: {
        src: 'signup',
        input: ({ context }) => requestOf(context),
        onDone: { target: 'succeeded', actions: { type: 'signedIn', params: ({ event }) => event.output } },
        onError: [
          { guard: { type: 'isTaken', params: ({ event }) => ({ error: event.error }) }, target: 'editing', actions: 'showTaken' },
          { target: 'editing', actions: { type: 'showRefusal', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    succeeded: { type: 'final', entry: 'leave' },
  },
});
