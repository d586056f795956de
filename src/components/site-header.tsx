import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useRuntime } from '../app/runtime-context';
import { isSignedIn } from '../machines/app.machine';
import { PreferencesMenu } from './preferences-menu';
import { UserMenu } from './user-menu';

export const SiteHeader = () => {
  const { t } = useTranslation();
  const { app } = useRuntime();
  const signedIn = useSelector(app, isSignedIn);
  return (
    <header className="flex items-center gap-4 border-b border-line bg-surface px-4 py-2">
      <Link href="/" className="flex items-center gap-2 font-semibold text-fg no-underline">
        <img src="/favicon.svg" alt="" width={24} height={24} />
        <span>{t('app.name')}</span>
      </Link>
      <nav aria-label={t('nav.main')} className="flex flex-1 items-center gap-1 text-sm">
        <Link href="/chat" className="btn-ghost">
          {t('nav.chat')}
        </Link>
        <Link href="/download" className="btn-ghost">
          {t('nav.download')}
        </Link>
        {signedIn && (
          <Link href="/kraken-operation" className="btn-ghost">
            {t('nav.operations')}
          </Link>
        )}
      </nav>
      <PreferencesMenu />
      {signedIn ? (
        <UserMenu />
      ) : (
        <Link href="/login" className="btn-primary">
          {t('nav.login')}
        </Link>
      )}
    </header>
  );
};
