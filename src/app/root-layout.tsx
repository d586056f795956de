import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { lazyPart } from '../components/lazy-part';
import { SiteHeader } from '../components/site-header';
import { usePageShown } from '../components/use-page-shown';

/** The chat's screens, which on a phone have a bar of their own instead of the site header. */
const hasOwnBarOnPhone = (path: string) => path === '/chat' || path.startsWith('/chat/');

/** Said only while the browser is offline: its code arrives after the first page, as the page's is kept by the service worker. */
const OfflineNotice = lazyPart(() => import('../components/offline-notice').then((module) => ({ default: module.OfflineNotice })));

/** The shortcuts' code arrives after the first page, with nothing to show until `?`. */
const KeyboardShortcuts = lazyPart(() => import('./keyboard-shortcuts'));

/** The layout wrapper at the root: header, the page, and a skip link for keyboard users. */
export const RootLayout = ({ children }: { children: ReactNode }) => {
  const { t } = useTranslation();
  usePageShown();
  const [location] = useLocation();
  return (
    <div className="flex h-full flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50 btn-primary">
        {t('app.skipToContent')}
      </a>
      <SiteHeader stepsAsideOnPhone={hasOwnBarOnPhone(location)} />
      <OfflineNotice />
      <main id="main" className="flex min-h-0 flex-1 flex-col">
        {children}
      </main>
      <KeyboardShortcuts />
    </div>
  );
};
