import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { fromPromise } from 'xstate';
import { useRuntime } from '../../app/runtime-context';
import { googleSignInMachine, type GoogleSignInInput } from '../../machines/google-sign-in.machine';
import { getLoginOptions, loginWithGoogle, startGoogleAuthorization } from '../../services/api/auth';
import { forgetGoogleAttempt, writeGoogleAttempt } from '../../services/google-attempt';
import { useScreenActor } from '../../app/use-screen-actor';

/** The Google sign-in actor of a screen, with its real side effects. */
export const useGoogleSignIn = (input: GoogleSignInInput) => {
  const { app, leavePage } = useRuntime();
  const [, navigate] = useLocation();
  const actor = useScreenActor(
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
    }),
    { input },
  );
  // Back from Google's page through the back-forward cache: the page is as it was when it left.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) actor.send({ type: 'page.restored' });
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [actor]);
  return actor;
};
