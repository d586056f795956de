import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** Whether the browser says it is online, following it as it changes. */
export const useOnline = (): boolean => useSyncExternalStore(subscribe, () => navigator.onLine, () => true);

/** Says so while the browser is offline: the app still opens, answers need the network. */
export const OfflineNotice = () => {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <p role="status" className="m-0 flex items-center justify-center gap-2 bg-warn/15 px-3 py-1.5 text-center text-sm text-fg" data-offline="">
      <span className="i-lucide-wifi-off" aria-hidden="true" />
      {t('app.offline')}
    </p>
  );
};
