import { fromPromise } from 'xstate';
import { i18n } from '../i18n';
import { accountFormMachine } from '../machines/account-form.machine';
import { scanApprovalMachine } from '../machines/scan-approval.machine';
import { sessionsMachine, type SessionsNotice } from '../machines/sessions.machine';
import { uploadFile } from '../services/api/media';
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
