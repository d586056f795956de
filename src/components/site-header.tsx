import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
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

/**
 * One entry of the main navigation: in the header, named in full on a wide screen and an icon (with
 * its name for screen readers) on a phone; in a menu, icon and name.
 */
const NavLink = ({ href, icon, label, location, menu }: { href: string; icon: string; label: string; location: string; menu: boolean }) => {
  const current = isWithin(location, href);
  return (
    <Link href={href} aria-label={label} aria-current={current ? 'page' : undefined} className={`btn-ghost shrink-0 justify-start whitespace-nowrap ${current ? 'bg-raised font-semibold' : ''}`}>
      <span className={`${icon} text-lg ${menu ? 'text-muted' : 'sm:hidden'}`} aria-hidden="true" />
      <span className={menu ? '' : 'hidden sm:inline'}>{label}</span>
    </Link>
  );
};

type SiteHeaderProps = {
  /**
   * Laid out as a menu, for a screen whose own bar stands in for the header on a phone (the chat,
   * which marks that bar `data-replaces-site-header`: theme.css then hides the header): the logo,
   * the settings and account buttons and `children` on a line, the areas one a line below.
   */
  menu?: boolean;
  /**
   * Not shown on a phone (theme.css): the page's screen has a bar of its own there (the chat),
   * known from the address before that screen's code arrives, so the page does not jump up once
   * it does.
   */
  stepsAsideOnPhone?: boolean;
  children?: ReactNode;
};

export const SiteHeader = ({ menu = false, stepsAsideOnPhone = false, children }: SiteHeaderProps) => {
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
  const Bar = menu ? 'div' : 'header';
  // On a phone the header's links are icons (named by aria-label), so every language fits.
  const nav = (
    <nav aria-label={t('nav.main')} className={menu ? 'flex flex-col gap-0.5 border-b border-line p-2 text-sm' : 'flex min-w-0 flex-1 items-center gap-1 overflow-x-auto text-sm'}>
      <NavLink href="/chat" icon="i-lucide-messages-square" label={t('nav.chat')} location={location} menu={menu} />
      <NavLink href="/download" icon="i-lucide-download" label={t('nav.download')} location={location} menu={menu} />
      {offersOperations && <NavLink href="/kraken-operation" icon="i-lucide-megaphone" label={t('nav.operations')} location={location} menu={menu} />}
      {offersAdmin && <NavLink href="/admin" icon="i-lucide-shield" label={t('nav.admin')} location={location} menu={menu} />}
    </nav>
  );
  return (
    <>
      {/* In a menu the settings and account panels open under the whole line: the space left of their buttons is narrower than they are. */}
      <Bar data-steps-aside-on-phone={stepsAsideOnPhone || undefined} className={`flex items-center gap-2 border-b border-line bg-surface p-2 ${menu ? 'relative [&>div]:static' : 'site-header sm:gap-4 sm:px-4'}`}>
        <Link
          href="/"
          aria-label={t('app.name')}
          aria-current={location === '/' || location === '/home' ? 'page' : undefined}
          className="me-auto flex shrink-0 items-center gap-2 font-semibold text-fg no-underline"
        >
          <img src="/favicon.svg" alt="" width={24} height={24} />
          {/* On a phone the logo alone; the link keeps its name for screen readers. */}
          <span className={menu ? '' : 'hidden whitespace-nowrap sm:inline'}>{t('app.name')}</span>
        </Link>
        {!menu && nav}
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
        {children}
      </Bar>
      {menu && nav}
    </>
  );
};
