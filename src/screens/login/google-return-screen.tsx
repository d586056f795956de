import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { readGoogleAttempt } from '../../services/google-attempt';
import { googleFailureText } from './google-failure';
import { GoogleMark } from './google-sign-in-button';
import { useGoogleSignIn } from './use-google-sign-in';
import { LoginAlert } from './login-alert';

/**
 * Where Google sends the person back (`GOOGLE_REDIRECT_URI`): finishes the sign-in this tab
 * started and goes on, or says why not and offers to start again.
 */
const GoogleReturnScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('login.google.title'));
  // Read once: the address and the attempt are what Google and this tab left at arrival.
  const [input] = useState(() => ({ mode: 'return' as const, href: location.href, attempt: readGoogleAttempt(location.origin) }));
  const google = useGoogleSignIn(input);
  const failure = useSelector(google, (state) => state.context.failure);
  const failed = useSelector(google, (state) => state.matches('failed'));
  const busy = useSelector(google, (state) => state.hasTag('busy'));
  const returnTo = useSelector(google, (state) => state.context.returnTo);
  const loginPage = returnTo === '/' ? '/login' : `/login?redirect_url=${encodeURIComponent(returnTo)}`;

  return (
    <div className="flex flex-1 items-start justify-center px-4 py-12">
      <section className="w-full max-w-sm rounded-2xl border border-line bg-surface p-6 shadow-sm" aria-labelledby="google-title">
        <h1 id="google-title" className="mb-4 flex items-center gap-2 text-2xl font-semibold">
          <GoogleMark />
          {t('login.google.title')}
        </h1>
        {failed && failure ? (
          <div className="flex flex-col gap-3">
            <LoginAlert title={t('login.google.failedTitle')}>{googleFailureText(t, failure)}</LoginAlert>
            <button type="button" className="btn-primary" onClick={() => google.send({ type: 'start' })}>
              {t('login.google.retry')}
            </button>
            <Link href={loginPage} className="btn-ghost">
              {t('login.google.backToLogin')}
            </Link>
          </div>
        ) : (
          <p role="status" className="flex items-center gap-2 text-sm text-muted">
            <span className="i-lucide-loader-circle animate-spin" aria-hidden="true" />
            {busy ? t('login.google.opening') : t('login.google.signingIn')}
          </p>
        )}
      </section>
    </div>
  );
};

export default GoogleReturnScreen;
