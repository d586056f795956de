import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useRuntime } from '../../app/runtime-context';
import { useWechatActors } from '../../app/login-actors';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { isSignedIn } from '../../machines/app.machine';
import { toSafeRedirectPath } from '../../services/redirect';
import { GoogleSignInButton } from './google-sign-in-button';
import { LoginTabs } from './login-tabs';
import { PasswordLoginForm } from './password-login-form';
import { ScanLoginPanel } from './scan-login-panel';
import { WechatSignInPanel } from './wechat-sign-in-panel';

const LoginScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('login.title'));
  const { wechatLogin } = useWechatActors();
  const query = new URLSearchParams(useSearch());
  const fromOperations = query.get('source') === 'kraken';
  const returnTo = toSafeRedirectPath(query.get('redirect_url'), location.origin) ?? '/';
  const inWechat = useSelector(wechatLogin, (state) => state.matches('wechat'));
  const [tab, setTab] = useState('password');
  const signedIn = useSelector(useRuntime().app, isSignedIn);
  const [path] = useLocation();

  // Someone already signed in has nothing to do here: on to where they were going (once a login
  // on this page succeeds, the form itself goes there).
  if (signedIn && path === '/login') return <Redirect to={returnTo} replace />;

  return (
    <div className="flex flex-1 items-start justify-center px-4 py-12">
      <section className="w-full max-w-sm rounded-2xl border border-line bg-surface p-6 shadow-sm" aria-labelledby="login-title">
        <h1 id="login-title" className="mb-1 text-2xl font-semibold">
          {t('login.title')}
        </h1>
        {fromOperations && <p className="mb-4 text-sm text-muted">{t('login.fromOperations')}</p>}
        {inWechat ? (
          <WechatSignInPanel />
        ) : (
          <>
            <LoginTabs
              label={t('login.tabs.label')}
              selected={tab}
              onSelect={setTab}
              tabs={[
                { id: 'password', label: t('login.tabs.password'), panel: <PasswordLoginForm returnTo={returnTo} /> },
                { id: 'scan', label: t('login.tabs.scan'), panel: <ScanLoginPanel returnTo={returnTo} /> },
              ]}
            />
            <GoogleSignInButton returnTo={returnTo} />
          </>
        )}
      </section>
    </div>
  );
};

export default LoginScreen;
