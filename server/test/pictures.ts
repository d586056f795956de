import type { PictureSources } from '../media/provider-picture';

/**
 * Test-only picture sources for fake providers on loopback over http (`host:port` of each fake).
 * The real configuration (PROVIDER_PICTURE_SOURCES) is https to the providers' hosts only.
 */
export const loopbackPictureSources = (...origins: string[]): PictureSources => {
  const hosts = origins.map((origin) => new URL(origin).host);
  return { hosts: { wechat: hosts, google: hosts }, protocols: ['https:', 'http:'], allowNonPublicAddresses: true };
};
