import { fromPromise } from 'xstate';
import { googleSignInMachine } from '../machines/google-sign-in.machine';
import { passwordLoginMachine } from '../machines/password-login.machine';
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

export const googleSignInLogic = ({ app, leavePage, navigate }: Pick<Runtime, 'app' | 'leavePage'> & { navigate: Navigate }) =>
  googleSignInMachine.provide({
    actors: {
      loadOptions: fromPromise(() => getLoginOptions({ silent: true })),
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

/** The WeChat login-state and scan-login actors, attached to the runtime when the login page first needs them. */
export const useWechatActors = () => useRuntime().attachWechat(createWechatActors);
