import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { AccountExport } from '../contract/accounts';
import { refusalKey } from '../i18n/refusal';
import { statusOf } from './error-status';

type AccountDataContext = {
  username: string;
  /** The account name as typed in the deletion dialog. */
  confirmText: string;
  /** Why the download failed, as a translation key. */
  exportFailure: string | null;
  /** Why the deletion was refused, as a translation key. */
  deleteFailure: string | null;
};

export type AccountDataEvent =
  | { type: 'export' }
  | { type: 'delete.open' }
  | { type: 'delete.cancel' }
  | { type: 'confirm.change'; value: string }
  | { type: 'delete.confirm' };

/**
 * The account's data: download all of it as one JSON file, and delete the account. Deleting asks
 * for the account name typed again (the server checks it too) and offers the download first;
 * once deleted, the person is signed out and sent home. The last admin of the instance cannot
 * leave (the server answers 409), and is told so.
 */
export const accountDataMachine = setup({
  types: {
    context: {} as AccountDataContext,
    events: {} as AccountDataEvent,
    input: {} as { username: string },
  },
  actors: {
    exportAccount: fromPromise<AccountExport>(async () => {
      throw new Error('exportAccount is provided where the app starts');
    }),
    deleteAccount: fromPromise<void, { confirm: string }>(async () => {
      throw new Error('deleteAccount is provided where the app starts');
    }),
  },
  actions: {
    /** Hands the document to the browser as a file. */
    saveExport: (_, _params: { data: AccountExport; username: string }) => undefined,
    /** Signs the person out and goes home: the account is gone. */
    accountDeleted: () => undefined,
    setConfirmText: assign(({ event }) => {
      assertEvent(event, 'confirm.change');
      return { confirmText: event.value, deleteFailure: null };
    }),
    resetDeletion: assign({ confirmText: '', deleteFailure: null }),
    clearExportFailure: assign({ exportFailure: null }),
    showExportFailure: assign((_, params: { error: unknown }) => ({ exportFailure: refusalKey({ status: statusOf(params.error) }) })),
    showMismatch: assign({ deleteFailure: 'account.data.mismatch' }),
    showDeleteFailure: assign((_, params: { error: unknown }) => {
      const status = statusOf(params.error);
      if (status === 409) return { deleteFailure: 'account.data.lastAdmin' };
      if (status === 400) return { deleteFailure: 'account.data.mismatch' };
      return { deleteFailure: refusalKey({ status }) };
    }),
  },
  guards: {
    /** The account name typed again, as the server compares it. */
    isAccountNameTyped: ({ context }) => context.confirmText.trim() === context.username,
  },
}).createMachine({
  id: 'accountData',
  context: ({ input }) => ({ username: input.username, confirmText: '', exportFailure: null, deleteFailure: null }),
  type: 'parallel',
  states: {
    download: {
      initial: 'idle',
      states: {
        idle: {
          on: { export: { target: 'exporting', actions: 'clearExportFailure' } },
        },
        exporting: {
          invoke: {
            src: 'exportAccount',
            onDone: {
              target: 'idle',
              actions: { type: 'saveExport', params: ({ context, event }) => ({ data: event.output, username: context.username }) },
            },
            onError: { target: 'idle', actions: { type: 'showExportFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
    deletion: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'delete.open': { target: 'confirming', actions: 'resetDeletion' } },
        },
        confirming: {
          on: {
            'confirm.change': { actions: 'setConfirmText' },
            'delete.cancel': { target: 'closed', actions: 'resetDeletion' },
            'delete.confirm': [{ guard: 'isAccountNameTyped', target: 'deleting' }, { actions: 'showMismatch' }],
          },
        },
        deleting: {
          invoke: {
            src: 'deleteAccount',
            input: ({ context }) => ({ confirm: context.confirmText.trim() }),
            onDone: { target: 'deleted', actions: 'accountDeleted' },
            onError: { target: 'confirming', actions: { type: 'showDeleteFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        deleted: { type: 'final' },
      },
    },
  },
});
