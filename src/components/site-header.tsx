import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { useRuntime } from '../app/runtime-context';
import { mayAdminister, mayOperate } from '../contract/roles';
import { isCheckingSession, isSignedIn } from '../machines/app.machine';
import { loginReturningTo } from '../services/redirect';
import { lazyPart } from './lazy-part';

/** The menus are their own chunks: their buttons appear a moment after the page, in a reserved place. */
const PreferencesMenu = lazyPart(() => import('./preferences-menu').then((module) => ({ default: module.PreferencesMenu })), () => <MenuPlaceholder />);
const UserMenu = lazyPart(() => import('./user-menu').then((module) => ({ default: module.UserMenu })), () => <MenuPlaceholder />);
const MenuPlaceholder = () => <span className="inline-block h-9 w-9 shrink-0" aria-hidden="true" />;

/** The part of the product an address belongs to, so the header can say where the person is. */
const isWithin = (location: string, section: string) => location === section || location.startsWith(`${section}/`);

/** One entry of the main navigation: named in full on a wide screen, an icon (with its name for screen readers) on a phone. */
const NavLink = ({ href, icon, label, location }: { href: string; icon: string; label: string; location: string }) => {
  const current = isWithin(location, href);
  return (
    <Link href={href} aria-label={label} aria-current={current ? 'page' : undefined} className={`btn-ghost shrink-0 whitespace-nowrap ${current ? 'bg-raised font-semibold' : ''}`}>
      <span className={`${icon} text-lg sm:hidden`} aria-hidden="true" />
      <span className="hidden sm:inline">{label}</span>
    </Link>
  );
};

export const SiteHeader = () => {
  const { t } = useTranslation();
  const { app } = useRuntime();
  const signedIn = useSelector(app, isSignedIn);
  // What the header offers follows the person's role; each area's door still asks the server.
  const offersOperations = useSelector(app, (state) => isSignedIn(state) && state.context.user !== null && mayOperate(state.context.user));
  const offersAdmin = useSelector(app, (state) => isSignedIn(state) && state.context.user !== null && mayAdminister(state.context.user));
  // While a stored session is checked, neither "Log in" nor the user menu: the place stays reserved.
  const checkingSession = useSelector(app, isCheckingSession);
  const [location] = useLocation();
  const search = useSearch();
  return (
    <header className="flex items-center gap-2 border-b border-line bg-surface px-2 py-2 sm:gap-4 sm:px-4">
      <Link
        href="/"
        aria-label={t('app.name')}
        aria-current={location === '/' || location === '/home' ? 'page' : undefined}
        className="flex shrink-0 items-center gap-2 font-semibold text-fg no-underline"
      >
        <img src="/favicon.svg" alt="" width={24} height={24} />
        {/* On a phone the logo alone; the link keeps its name for screen readers. */}
        <span className="hidden whitespace-nowrap sm:inline">{t('app.name')}</span>
      </Link>
      {/* On a phone the links are icons (named by aria-label), so every language fits. */}
      <nav aria-label={t('nav.main')} className="flex min-w-0 flex-1 items-center gap-1 overflow-x-auto text-sm">
        <NavLink href="/chat" icon="i-lucide-messages-square" label={t('nav.chat')} location={location} />
        <NavLink href="/download" icon="i-lucide-download" label={t('nav.download')} location={location} />
        {offersOperations && <NavLink href="/kraken-operation" icon="i-lucide-megaphone" label={t('nav.operations')} location={location} />}
        {offersAdmin && <NavLink href="/admin" icon="i-lucide-shield" label={t('nav.admin')} location={location} />}
      </nav>
      <PreferencesMenu />
      {checkingSession ? (
        <MenuPlaceholder />
      ) : signedIn ? (
        <UserMenu />
      ) : (
        <Link href={loginReturningTo(location, search ? `?${search}` : '')} className="btn-primary shrink-0 whitespace-nowrap">
          {t('nav.login')}
        </Link>
      )}
    </header>
  );
};
