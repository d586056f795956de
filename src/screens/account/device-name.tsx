import { useTranslation } from 'react-i18next';
import type { BrowserInfo } from '../../contract/users';

/** "Chrome 131 on Windows", or as much of it as the browser told. */
export const DeviceName = ({ device }: { device: BrowserInfo }) => {
  const { t } = useTranslation();
  if (device.browser && device.os) return <>{t('sessions.browserOnSystem', { browser: device.browser, os: device.os })}</>;
  return <>{device.browser || device.os || t('sessions.unknownDevice')}</>;
};
