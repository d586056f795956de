import { fromPromise } from 'xstate';
import { i18n } from '../i18n';
import type { AccountExport } from '../contract/accounts';
import { accountDataMachine } from '../machines/account-data.machine';
import { accountFormMachine } from '../machines/account-form.machine';
import { passwordChangeMachine } from '../machines/password-change.machine';
import { scanApprovalMachine } from '../machines/scan-approval.machine';
import { sessionsMachine, type SessionsNotice } from '../machines/sessions.machine';
import { changePassword, deleteAccount, exportAccount } from '../services/api/accounts';
import { uploadFile } from '../services/api/media';
import { saveFile } from '../services/save-file';
import {
  denyScanId,
  getUserInfo,
  getScanTicket,
  listSessions,
  revokeOtherSessions,
  revokeSession,
  updateScanId,
  updateUser,
} from '../services/api/users';
import { loginToApprove } from '../services/redirect';
import { refusalKey } from '../i18n/refusal';
import { statusOf } from '../machines/error-status';
import type { Navigate, Runtime } from './runtime';

/** A refusal the page shows, said in the product's words for its status; the status stays for the machine. */
const inOwnWords = async <T>(call: Promise<T>): Promise<T> => {
  try {
    return await call;
  } catch (error) {
    const status = statusOf(error);
    throw Object.assign(new Error(i18n.t(refusalKey({ status })), { cause: error }), { status });
  }
};

/**
 * The real side effects of the account's own screen machines (the form, scan approval, sessions), given
 * here rather than in the screens, so a screen only reads its machine and sends events.
 */
export const scanApprovalLogic = ({ navigate, toast }: Pick<Runtime, 'toast'> & { navigate: Navigate }) =>
  scanApprovalMachine.provide({
    actors: {
      fetchTicket: fromPromise(({ input }) => inOwnWords(getScanTicket(input.scanId, { silent: true }))),
      approveTicket: fromPromise(async ({ input }) => {
        await inOwnWords(updateScanId(input.scanId, { silent: true }));
      }),
      denyTicket: fromPromise(async ({ input }) => {
        await inOwnWords(denyScanId(input.scanId, { silent: true }));
      }),
    },
    actions: {
      askToLogIn: (_, { scanId }) => {
        toast({ title: i18n.t('scanApproval.logInFirst') });
        navigate(loginToApprove(scanId), { replace: true });
      },
    },
  });

const sessionsNoticeToast = (notice: SessionsNotice) =>
  notice.kind === 'revoked'
    ? { title: i18n.t('sessions.revokedToast'), variant: 'success' as const }
    : { title: i18n.t('sessions.revokedOthersToast', { count: notice.count }), variant: 'success' as const };

export const sessionsLogic = ({ toast }: Pick<Runtime, 'toast'>) =>
  sessionsMachine.provide({
    actors: {
      listSessions: fromPromise(() => listSessions({ silent: true })),
      revokeSession: fromPromise(async ({ input }) => {
        await revokeSession(input.id, { silent: true });
      }),
      revokeOthers: fromPromise(() => revokeOtherSessions({ silent: true })),
    },
    actions: {
      notify: (_, notice) => toast(sessionsNoticeToast(notice)),
    },
  });

export const accountFormLogic = ({ app, toast }: Pick<Runtime, 'app' | 'toast'>) =>
  accountFormMachine.provide({
    actors: {
      loadUser: fromPromise(() => getUserInfo({ silent: true })),
      saveUser: fromPromise(({ input }) => updateUser(input, { silent: true })),
      uploadAvatar: fromPromise(({ input }) => uploadFile(input.file, { silent: true })),
    },
    actions: {
      userSaved: (_, { user }) => {
        app.send({ type: 'session.updated', user });
        toast({ title: i18n.t('account.savedToast'), variant: 'success' });
      },
    },
  });

export const passwordChangeLogic = ({ toast }: Pick<Runtime, 'toast'>) =>
  passwordChangeMachine.provide({
    actors: { changePassword: fromPromise(({ input }) => changePassword(input, { silent: true })) },
    actions: {
      changed: (_, { revoked }) => toast({ title: i18n.t('account.password.changedToast', { count: revoked }), variant: 'success' }),
    },
  });

/** The file a download of the account is saved as: whose, and from which day. */
export const exportFileName = (username: string, exportedAt: string): string =>
  `kraken-ai-${username.replace(/[^\p{L}\p{N}._-]+/gu, '_')}-${exportedAt.slice(0, 10)}.json`;

export const accountDataLogic = ({ app, toast, navigate }: Pick<Runtime, 'app' | 'toast'> & { navigate: Navigate }) =>
  accountDataMachine.provide({
    actors: {
      exportAccount: fromPromise(() => exportAccount({ silent: true })),
      deleteAccount: fromPromise(async ({ input }) => {
        await deleteAccount(input.confirm, { silent: true });
      }),
    },
    actions: {
      saveExport: (_, { data, username }: { data: AccountExport; username: string }) =>
        saveFile(exportFileName(username, data.exportedAt), 'application/json', JSON.stringify(data, null, 2)),
      accountDeleted: () => {
        // The server ended every session with the account: signing out here forgets it in this browser too.
        app.send({ type: 'session.signOut' });
        toast({ title: i18n.t('account.data.deletedToast'), variant: 'success' });
        navigate('/', { replace: true });
      },
    },
  });
