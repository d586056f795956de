import { i18n } from '../i18n';
import type { Runtime } from './runtime';

/**
 * Registers the service worker that keeps the app shell for offline use, and offers a reload
 * when a new version has been deployed (the new worker waits until the reader agrees, so a page
 * never changes its code under someone typing). Loaded after the first page.
 */
export const watchForUpdates = async (toast: Runtime['toast']): Promise<void> => {
  if (!('serviceWorker' in navigator)) return;
  const { registerSW } = await import('virtual:pwa-register');
  const update = registerSW({
    onNeedRefresh: () =>
      toast({
        id: 'app-update',
        title: i18n.t('app.updateReady'),
        action: { label: i18n.t('app.reload'), altText: i18n.t('app.reloadForUpdate'), onAction: () => void update(true) },
      }),
  });
};
