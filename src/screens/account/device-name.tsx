import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { BrowserInfo } from '../../contract/users';

/** "Chrome 131 on Windows", or as much of it as the browser told. */
export const deviceName = (t: TFunction, device: BrowserInfo): string =>
  device.browser && device.os
    ? t('sessions.browserOnSystem', { browser: device.browser, os: device.os })
    : device.browser || device.os || t('sessions.unknownDevice');

export const DeviceName = ({ device }: { device: BrowserInfo }) => {
  const { t } = useTranslation();
  return <>{deviceName(t, device)}</>;
};
