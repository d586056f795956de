import { fromPromise } from 'xstate';
import { i18n } from '../i18n';
import { googleSignInMachine } from '../machines/google-sign-in.machine';
import { loginPageMachine } from '../machines/login-page.machine';
import { passwordLoginMachine } from '../machines/password-login.machine';
import { passwordResetMachine } from '../machines/password-reset.machine';
import { resetByMailMachine } from '../machines/reset-by-mail.machine';
import { signupMachine } from '../machines/signup.machine';
import { acceptInvitation, previewInvitation, previewPasswordReset, requestPasswordResetByMail, resetPassword, signup } from '../services/api/accounts';
import { getLoginOptions, loginWithGoogle, loginWithPassword, startGoogleAuthorization } from '../services/api/auth';
import { forgetGoogleAttempt, writeGoogleAttempt } from '../services/google-attempt';
import type { Navigate, Runtime } from './runtime';
import { useRuntime } from './runtime-context';
import { createWechatActors } from './wechat-runtime';

/**
 * The real side effects of the login page's machines (password, Google; WeChat and scan login are
 * attached to the runtime), given here rather than in the screens.
 */
export const passwordLoginLogic = ({ app, navigate, returnTo }: Pick<Runtime, 'app'> & { navigate: Navigate; returnTo: string }) =>
  passwordLoginMachine.provide({
    actors: { login: fromPromise(({ input }) => loginWithPassword(input, { silent: true })) },
    actions: {
      signedIn: (_, result) => app.send({ type: 'session.signedIn', token: result.token, user: result.userInfo }),
      leave: () => navigate(returnTo, { replace: true }),
    },
  });

/**
 * The login page and its Google button both ask what the server offers as the page opens: one
 * request answers both (a request still under way is shared; a later ask asks again).
 */
let optionsUnderWay: ReturnType<typeof getLoginOptions> | null = null;
const loginOptions = () =>
  (optionsUnderWay ??= getLoginOptions({ silent: true }).finally(() => {
    optionsUnderWay = null;
  }));

export const googleSignInLogic = ({ app, leavePage, navigate }: Pick<Runtime, 'app' | 'leavePage'> & { navigate: Navigate }) =>
  googleSignInMachine.provide({
    actors: {
      loadOptions: fromPromise(loginOptions),
      authorize: fromPromise(() => startGoogleAuthorization({ silent: true })),
      login: fromPromise(({ input: request }) => loginWithGoogle(request, { silent: true })),
    },
    actions: {
      rememberAttempt: (_, attempt) => writeGoogleAttempt(attempt),
      forgetAttempt: () => forgetGoogleAttempt(),
      leaveForGoogle: (_, { url }) => leavePage(url),
      signedIn: (_, result) => app.send({ type: 'session.signedIn', token: result.token, user: result.userInfo }),
      leave: (_, { to }) => navigate(to, { replace: true }),
    },
  });

/** The login page around its forms: what the server offers, and an invitation link's organisation and role. */
export const loginPageLogic = ({ app, toast, navigate, returnTo }: Pick<Runtime, 'app' | 'toast'> & { navigate: Navigate; returnTo: string }) =>
  loginPageMachine.provide({
    actors: {
      loadOptions: fromPromise(loginOptions),
      previewInvitation: fromPromise(({ input }) => previewInvitation(input.token, { silent: true })),
      acceptInvitation: fromPromise(({ input }) => acceptInvitation(input.token, { silent: true })),
    },
    actions: {
      joined: (_, { user, companyName }) => {
        app.send({ type: 'session.updated', user });
        toast({ title: i18n.t('login.invitation.joinedToast', { company: companyName }), variant: 'success' });
        navigate(returnTo, { replace: true });
      },
    },
  });

/** Sign-up signs in exactly as the password form does: the app gets the session, the page goes on. */
export const signupLogic = ({ app, navigate, returnTo }: Pick<Runtime, 'app'> & { navigate: Navigate; returnTo: string }) =>
  signupMachine.provide({
    actors: { signup: fromPromise(({ input }) => signup(input, { silent: true })) },
    actions: {
      signedIn: (_, result) => app.send({ type: 'session.signedIn', token: result.token, user: result.userInfo }),
      leave: () => navigate(returnTo, { replace: true }),
    },
  });

export const resetByMailLogic = () =>
  resetByMailMachine.provide({
    actors: {
      requestLink: fromPromise(async ({ input }) => {
        await requestPasswordResetByMail(input.username, { silent: true });
      }),
    },
  });

export const passwordResetLogic = ({ toast, navigate }: Pick<Runtime, 'toast'> & { navigate: Navigate }) =>
  passwordResetMachine.provide({
    actors: {
      previewLink: fromPromise(({ input }) => previewPasswordReset(input.token, { silent: true })),
      resetPassword: fromPromise(async ({ input }) => {
        await resetPassword(input.token, input.newPassword, { silent: true });
      }),
    },
    actions: {
      passwordSet: () => {
        toast({ title: i18n.t('resetPassword.doneToast'), variant: 'success' });
        navigate('/login', { replace: true });
      },
    },
  });

/** The WeChat login-state and scan-login actors, attached to the runtime when the login page first needs them. */
export const useWechatActors = () => useRuntime().attachWechat(createWechatActors);
