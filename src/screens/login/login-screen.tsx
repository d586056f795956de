import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { loginPageLogic, useWechatActors } from '../../app/login-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { isSignedIn } from '../../machines/app.machine';
import { toSafeRedirectPath } from '../../services/redirect';
import { ForgotPasswordForm } from './forgot-password-form';
import { GoogleSignInButton } from './google-sign-in-button';
import { InvitationNotice } from './invitation-notice';
import { LoginTabs } from './login-tabs';
import { PasswordLoginForm } from './password-login-form';
import { ScanLoginPanel } from './scan-login-panel';
import { SignupForm } from './signup-form';
import { WechatSignInPanel } from './wechat-sign-in-panel';

const TITLES = { login: 'login.title', signup: 'login.signup.title', forgot: 'login.forgot.title' } as const;

const LoginScreen = () => {
  const { t } = useTranslation();
  const { wechatLogin } = useWechatActors();
  const search = useSearch();
  const query = new URLSearchParams(search);
  const fromOperations = query.get('source') === 'kraken';
  const returnTo = toSafeRedirectPath(query.get('redirect_url'), location.origin) ?? '/';
  const invitation = query.get('invitation') || null;
  const inWechat = useSelector(wechatLogin, (state) => state.matches('wechat'));
  const [tab, setTab] = useState('password');
  const { app, toast } = useRuntime();
  const signedIn = useSelector(app, isSignedIn);
  const [path, navigate] = useLocation();
  const [logic] = useState(() => loginPageLogic({ app, toast, navigate, returnTo }));
  const page = useScreenActor(logic, { input: { invitation } });
  const mode = useSelector(page, (state) => state.context.mode);
  const loading = useSelector(page, (state) => state.matches('loadingOptions') || state.matches('previewing'));
  const policy = useSelector(page, (state) => state.context.options.signup);
  const canSignup = useSelector(page, (state) => state.can({ type: 'mode.signup' }));
  const canReset = useSelector(page, (state) => state.can({ type: 'mode.forgot' }));
  useDocumentTitle(t(TITLES[mode]));

  // Someone already signed in has nothing to do here, unless an invitation waits for them: on to
  // where they were going (once a login on this page succeeds, the form itself goes there).
  if (signedIn && path === '/login' && !invitation) return <Redirect to={returnTo} replace />;
  // With an invitation, logging in comes back here to accept it.
  const afterLogin = invitation ? `${path}?${search}` : returnTo;

  const switchTo = (target: 'login' | 'signup' | 'forgot', label: string) => (
    <button type="button" className="btn-ghost px-0 text-sm underline" onClick={() => page.send({ type: `mode.${target}` })}>
      {label}
    </button>
  );

  const body = () => {
    if (inWechat) return <WechatSignInPanel />;
    // An invitation decides which form comes first: none until it is read.
    if (invitation && loading) return <LoadingStatus>{t('login.invitation.checking')}</LoadingStatus>;
    if (signedIn) return null;
    if (mode === 'signup') {
      return (
        <>
          <SignupForm returnTo={returnTo} invitation={invitation} policy={policy} />
          <p className="mt-4 text-sm text-muted">
            {t('login.signup.haveAccount')} {switchTo('login', t('login.signup.toLogin'))}
          </p>
        </>
      );
    }
    if (mode === 'forgot') {
      return (
        <>
          <ForgotPasswordForm />
          <p className="mt-4 text-sm">{switchTo('login', t('login.forgot.backToLogin'))}</p>
        </>
      );
    }
    return (
      <>
        <LoginTabs
          label={t('login.tabs.label')}
          selected={tab}
          onSelect={setTab}
          tabs={[
            { id: 'password', label: t('login.tabs.password'), panel: <PasswordLoginForm returnTo={afterLogin} /> },
            { id: 'scan', label: t('login.tabs.scan'), panel: <ScanLoginPanel returnTo={afterLogin} /> },
          ]}
        />
        {(canReset || canSignup) && (
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
            {canReset && switchTo('forgot', t('login.forgot.link'))}
            {canSignup && (
              <span className="text-sm text-muted">
                {t('login.signup.noAccount')} {switchTo('signup', t('login.signup.link'))}
              </span>
            )}
          </div>
        )}
        <GoogleSignInButton returnTo={afterLogin} />
      </>
    );
  };

  return (
    <div className="flex flex-1 items-start justify-center px-4 py-12">
      <section className="w-full max-w-sm rounded-2xl border border-line bg-surface p-6 shadow-sm" aria-labelledby="login-title">
        <h1 id="login-title" className="mb-1 text-2xl font-semibold">
          {t(TITLES[mode])}
        </h1>
        {fromOperations && <p className="mb-4 text-sm text-muted">{t('login.fromOperations')}</p>}
        {invitation && !loading && <InvitationNotice page={page} signedIn={signedIn} />}
        {signedIn && invitation && !loading && (
          <p className="mt-4 text-sm">
            <Link href={returnTo}>{t('login.invitation.notNow')}</Link>
          </p>
        )}
        {body()}
      </section>
    </div>
  );
};

export default LoginScreen;
