import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { googleSignInLogic } from '../../app/login-actors';
import { useRuntime } from '../../app/runtime-context';
import type { GoogleSignInInput } from '../../machines/google-sign-in.machine';
import { useScreenActor } from '../../app/use-screen-actor';

/** The Google sign-in actor of a screen; back from Google through the back-forward cache, it hears so. */
export const useGoogleSignIn = (input: GoogleSignInInput) => {
  const { app, leavePage } = useRuntime();
  const [, navigate] = useLocation();
  const actor = useScreenActor(googleSignInLogic({ app, leavePage, navigate }), { input });
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
