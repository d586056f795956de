import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { LoginResult } from '../contract/auth';
import { statusOf } from './error-status';

export type LoginField = 'username' | 'password';

/** Why the last attempt failed: the form's own check, or the server's refusal. */
export type LoginFailure = { reason: 'missing-fields' } | { reason: 'rejected'; status: number | undefined; msg: string };

export type PasswordLoginContext = {
  username: string;
  password: string;
  failure: LoginFailure | null;
};

export type PasswordLoginEvent = { type: 'field.change'; field: LoginField; value: string } | { type: 'submit' };

/**
 * The password form: what was typed stays in the context through every failure, so a refused
 * login never empties the form. On success it hands the session to the app and leaves.
 */
export const passwordLoginMachine = setup({
  types: { context: {} as PasswordLoginContext, events: {} as PasswordLoginEvent },
  actors: {
    login: fromPromise<LoginResult, { username: string; password: string }>(async () => {
      throw new Error('login is provided where the app starts');
    }),
  },
  actions: {
    setField: assign(({ context, event }) => {
      assertEvent(event, 'field.change');
      return { ...context, [event.field]: event.value };
    }),
    clearFailure: assign({ failure: null }),
    /** Submitted with a field left empty: the form says so without asking the server. */
    showMissingFields: assign({ failure: { reason: 'missing-fields' } }),
    /** The server refused: why, with what was typed left in place. */
    showRejection: assign((_, params: { error: unknown }) => ({
      failure: {
        reason: 'rejected' as const,
        status: statusOf(params.error),
        msg: params.error instanceof Error ? params.error.message : '',
      },
    })),
    signedIn: (_, _params: LoginResult) => undefined,
    leave: () => undefined,
  },
  guards: {
    hasBothFields: ({ context }) => context.username.trim().length > 0 && context.password.length > 0,
  },
}).createMachine({
  id: 'passwordLogin',
  context: { username: '', password: '', failure: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': { actions: 'setField' },
        submit: [
          { guard: 'hasBothFields', target: 'submitting', actions: 'clearFailure' },
          { actions: 'showMissingFields' },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'login',
        input: ({ context }) => ({ username: context.username.trim(), password: context.password }),
        onDone: {
          target: 'succeeded',
          actions: { type: 'signedIn', params: ({ event }) => event.output },
        },
        onError: {
          target: 'editing',
          actions: { type: 'showRejection', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    succeeded: {
      type: 'final',
      entry: 'leave',
    },
  },
});
