import type { GoogleAttempt } from '../machines/google-sign-in.machine';
import { toSafeRedirectPath } from './redirect';

const KEY = 'ai-chat-ops:google-sign-in';

/**
 * The Google sign-in this tab started, kept in session storage: only this tab can finish it, and
 * it is gone when the tab closes. What is read back is checked again (the page could have been
 * tampered with), and `returnTo` is always a same-origin path.
 */
export const readGoogleAttempt = (origin: string): GoogleAttempt | null => {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<GoogleAttempt> | null;
    if (!parsed || typeof parsed.state !== 'string' || parsed.state === '') return null;
    return { state: parsed.state, returnTo: toSafeRedirectPath(parsed.returnTo, origin) ?? '/' };
  } catch {
    return null;
  }
};

export const writeGoogleAttempt = (attempt: GoogleAttempt): void => {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(attempt));
  } catch {
    // without storage the return is not recognised: the person is asked to start again
  }
};

export const forgetGoogleAttempt = (): void => {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // see writeGoogleAttempt
  }
};
