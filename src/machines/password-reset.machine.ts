import { assertEvent, assign, fromPromise, setup } from 'xstate';
import { refusalKey } from '../i18n/refusal';
import { statusOf } from './error-status';
import { linkFailureKey } from './login-page.machine';
import { newPasswordProblems, type NewPasswordProblems } from './new-password';

export type ResetField = 'password' | 'confirm';

type PasswordResetContext = {
  token: string;
  /** The account the link is for, once the server said. */
  username: string;
  values: Record<ResetField, string>;
  problems: NewPasswordProblems;
  /** Why the link or the reset failed, as a translation key. */
  failure: string | null;
};

export type PasswordResetEvent = { type: 'field.change'; field: ResetField; value: string } | { type: 'submit' };

/** The link stopped working while the password was being chosen (used elsewhere, expired). */
const isLinkDead = (error: unknown) => [404, 410].includes(statusOf(error) ?? 0);

/**
 * A reset link (`/reset-password?token=`): shows which account it is for, takes the new password
 * twice (the contract's rule checked first), and once it is set sends the person to log in. A
 * link that expired, was used or never existed says so and offers nothing to type.
 */
export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    input: {} as { token: string },
  },
  actors: {
    previewLink: fromPromise<{ username: string }, { token: string }>(async () => {
      throw new Error('previewLink is provided where the screen starts');
    }),
    resetPassword: fromPromise<void, { token: string; newPassword: string }>(async () => {
      throw new Error('resetPassword is provided where the screen starts');
    }),
  },
  actions: {
    setUsername: assign((_, params: { username: string }) => ({ username: params.username })),
    setField: assign(({ context, event }) => {
      assertEvent(event, 'field.change');
      const { [event.field]: _fixed, ...problems } = context.problems;
      return { values: { ...context.values, [event.field]: event.value }, problems };
    }),
    showProblems: assign(({ context }) => ({ problems: newPasswordProblems(context.values.password, context.values.confirm, context.username) })),
    clearFailure: assign({ failure: null }),
    failLink: assign((_, params: { error: unknown }) => ({ failure: linkFailureKey(params.error) })),
    showFailure: assign((_, params: { error: unknown }) => ({ failure: refusalKey({ status: statusOf(params.error) }) })),
    /** The password is set: on to the login page, with a word that it worked. */
    passwordSet: () => undefined,
  },
  guards: {
    isReady: ({ context }) => Object.keys(newPasswordProblems(context.values.password, context.values.confirm, context.username)).length === 0,
    isLinkDead: (_, params: { error: unknown }) => isLinkDead(params.error),
  },
}).createMachine({
  id: 'passwordReset',
  context: ({ input }) => ({ token: input.token, username: '', values: { password: '', confirm: '' }, problems: {}, failure: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'previewLink',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'ready', actions: { type: 'setUsername', params: ({ event }) => event.output } },
        onError: { target: 'linkFailed', actions: { type: 'failLink', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    linkFailed: {},
    ready: {
      on: {
        'field.change': { actions: 'setField' },
        submit: [{ guard: 'isReady', target: 'submitting', actions: 'clearFailure' }, { actions: 'showProblems' }],
      },
    },
    submitting: {
      invoke: {
        src: 'resetPassword',
        input: ({ context }) => ({ token: context.token, newPassword: context.values.password }),
        onDone: { target: 'done', actions: 'passwordSet' },
        onError: [
          { guard: { type: 'isLinkDead', params: ({ event }) => ({ error: event.error }) }, target: 'linkFailed', actions: { type: 'failLink', params: ({ event }) => ({ error: event.error }) } },
          { target: 'ready', actions: { type: 'showFailure', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    done: { type: 'final' },
  },
});
