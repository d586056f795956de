import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { googleFailureText } from './google-failure';
import { useGoogleSignIn } from './use-google-sign-in';
import { LoginAlert } from './login-alert';

/** The "G" of the button, drawn in text so no third-party asset is loaded. */
export const GoogleMark = () => (
  <span aria-hidden="true" className="inline-flex h-5 w-5 items-center justify-center rounded-full bg-white text-sm font-bold text-[#1a56db] ring-1 ring-line">
    G
  </span>
);

/** "Continue with Google" under the login tabs, only when the server offers it. */
export const GoogleSignInButton = ({ returnTo }: { returnTo: string }) => {
  const { t } = useTranslation();
  const google = useGoogleSignIn({ mode: 'offer', returnTo });
  const offered = useSelector(google, (state) => state.hasTag('offered'));
  const busy = useSelector(google, (state) => state.hasTag('busy'));
  const failure = useSelector(google, (state) => state.context.failure);
  if (!offered) return null;
  return (
    <div className="mt-6 flex flex-col gap-3">
      <p className="flex items-center gap-3 text-xs uppercase text-muted" aria-hidden="true">
        <span className="h-px flex-1 bg-line" />
        {t('login.google.or')}
        <span className="h-px flex-1 bg-line" />
      </p>
      {failure && (
        <LoginAlert title={t('login.google.startFailed')}>{googleFailureText(t, failure)}</LoginAlert>
      )}
      <button type="button" className="btn-outline gap-2" disabled={busy} onClick={() => google.send({ type: 'start' })}>
        <GoogleMark />
        {busy ? t('login.google.opening') : t('login.google.continue')}
      </button>
    </div>
  );
};
