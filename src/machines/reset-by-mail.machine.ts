import { assertEvent, assign, fromPromise, setup } from 'xstate';
import * as v from 'valibot';
import { accountSchema } from '../contract/auth';
import { refusalKey } from '../i18n/refusal';
import { statusOf } from './error-status';

type ResetByMailContext = {
  username: string;
  /** What is wrong with the account name, or why the request failed: a translation key. */
  problem: string | null;
  failure: string | null;
};

export type ResetByMailEvent = { type: 'username.change'; value: string } | { type: 'submit' };

/**
 * "Forgot password?": asks the server to mail a reset link to the account. The server answers the
 * same whether the account exists or not, so the page says only that a link was sent if it does.
 */
export const resetByMailMachine = setup({
  types: { context: {} as ResetByMailContext, events: {} as ResetByMailEvent },
  actors: {
    requestLink: fromPromise<void, { username: string }>(async () => {
      throw new Error('requestLink is provided where the screen starts');
    }),
  },
  actions: {
    setUsername: assign(({ event }) => {
      assertEvent(event, 'username.change');
      return { username: event.value, problem: null };
    }),
    showProblem: assign(({ context }) => ({
      problem: context.username.trim() === '' ? 'login.signup.usernameRequired' : 'login.signup.usernameFormat',
    })),
    clearFailure: assign({ failure: null }),
    showFailure: assign((_, params: { error: unknown }) => {
      const status = statusOf(params.error);
      return { failure: status === 429 ? 'login.tooManyAttempts' : refusalKey({ status }) };
    }),
  },
  guards: {
    isAccountName: ({ context }) => v.is(accountSchema, context.username.trim()),
  },
}).createMachine({
  id: 'resetByMail',
  context: { username: '', problem: null, failure: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'username.change': { actions: 'setUsername' },
        submit: [{ guard: 'isAccountName', target: 'sending', actions: 'clearFailure' }, { actions: 'showProblem' }],
      },
    },
    sending: {
      invoke: {
        src: 'requestLink',
        input: ({ context }) => ({ username: context.username.trim() }),
        onDone: 'sent',
        onError: { target: 'editing', actions: { type: 'showFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    sent: {},
  },
});
