import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { PasswordChangeRequest } from '../contract/accounts';
import { refusalKey } from '../i18n/refusal';
import { statusOf } from './error-status';
import { newPasswordProblems } from './new-password';

export type PasswordField = 'current' | 'next' | 'confirm';
export type PasswordValues = Record<PasswordField, string>;
/** What is wrong with each field, as a translation key. */
export type PasswordProblems = Partial<Record<PasswordField, string>>;

type PasswordChangeContext = {
  username: string;
  values: PasswordValues;
  problems: PasswordProblems;
  /** Why the last change failed, when it was not the current password: a translation key. */
  failure: string | null;
};

export type PasswordChangeEvent = { type: 'field.change'; field: PasswordField; value: string } | { type: 'submit' };

const EMPTY: PasswordValues = { current: '', next: '', confirm: '' };

/** The rules a change must meet before it is sent; empty when it may go. */
export const problemsOf = ({ current, next, confirm }: PasswordValues, username: string): PasswordProblems => {
  const chosen = newPasswordProblems(next, confirm, username);
  return {
    ...(current ? {} : { current: 'password.required' }),
    ...(chosen.password ? { next: chosen.password } : {}),
    ...(chosen.confirm ? { confirm: chosen.confirm } : {}),
  };
};

/**
 * Changing the password on the account page: the current one, the new one twice. The contract's
 * rule is checked before anything is sent; a wrong current password is said beside its field;
 * any failure keeps everything typed. Once changed, the fields empty and the person is told how
 * many other sessions the server signed out.
 */
export const passwordChangeMachine = setup({
  types: {
    context: {} as PasswordChangeContext,
    events: {} as PasswordChangeEvent,
    input: {} as { username: string },
  },
  actors: {
    changePassword: fromPromise<{ revoked: number }, PasswordChangeRequest>(async () => {
      throw new Error('changePassword is provided where the app starts');
    }),
  },
  actions: {
    setField: assign(({ context, event }) => {
      assertEvent(event, 'field.change');
      const { [event.field]: _fixed, ...problems } = context.problems;
      return { values: { ...context.values, [event.field]: event.value }, problems, failure: null };
    }),
    showProblems: assign(({ context }) => ({ problems: problemsOf(context.values, context.username) })),
    showWrongCurrent: assign({ problems: { current: 'account.password.wrongCurrent' } }),
    showFailure: assign((_, params: { error: unknown }) => ({ failure: refusalKey({ status: statusOf(params.error) }) })),
    clearFailure: assign({ failure: null }),
    clearFields: assign({ values: EMPTY, problems: {} }),
    /** Tells the person the password changed and how many other sessions ended. */
    changed: (_, _params: { revoked: number }) => undefined,
  },
  guards: {
    isReady: ({ context }) => Object.keys(problemsOf(context.values, context.username)).length === 0,
    isWrongCurrent: (_, params: { error: unknown }) => statusOf(params.error) === 403,
  },
}).createMachine({
  id: 'passwordChange',
  context: ({ input }) => ({ username: input.username, values: EMPTY, problems: {}, failure: null }),
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
        src: 'changePassword',
        input: ({ context }) => ({ currentPassword: context.values.current, newPassword: context.values.next }),
        onDone: { target: 'editing', actions: ['clearFields', { type: 'changed', params: ({ event }) => event.output }] },
        onError: [
          { guard: { type: 'isWrongCurrent', params: ({ event }) => ({ error: event.error }) }, target: 'editing', actions: 'showWrongCurrent' },
          { target: 'editing', actions: { type: 'showFailure', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
  },
});
