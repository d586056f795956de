import type { LoginFailure } from '../../machines/password-login.machine';

/**
 * The sentence for a failed password login. Only the rate limit says "try later": a wrong
 * account or password says so, and anything else (the server down, an unexpected answer) is a
 * plain failure to retry.
 */
export const loginFailureKey = (failure: LoginFailure) => {
  if (failure.reason === 'missing-fields') return 'login.missingFields' as const;
  if (failure.status === 401) return 'login.wrongCredentials' as const;
  if (failure.status === 429) return 'login.tooManyAttempts' as const;
  return 'login.failedOther' as const;
};
