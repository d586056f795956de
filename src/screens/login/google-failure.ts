import type { TFunction } from 'i18next';
import type { GoogleFailure } from '../../machines/google-sign-in.machine';

/** What to tell the person when Google sign-in stopped, in their language (the server's own msg is English). */
export const googleFailureText = (t: TFunction, failure: GoogleFailure): string => {
  if (failure.reason === 'cancelled') return t('login.google.cancelled');
  if (failure.reason === 'foreign') return t('login.google.foreign');
  switch (failure.status) {
    case 400:
      return t('login.google.expired');
    case 429:
      return t('login.google.tooMany');
    case 502:
      return t('login.google.unreachable');
    case 503:
      return t('login.google.unavailable');
    default:
      return t('login.google.generic');
  }
};
