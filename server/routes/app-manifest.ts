import type { DownloadManifest } from '../../src/contract/app';

export const DOWNLOADS_PREFIX = '/downloads/';

const VERSION = '1.0.0';
const RELEASED_AT = '2026-01-15T00:00:00.000Z';

const file = (label: string, fileName: string) => ({ label, fileName, url: `${DOWNLOADS_PREFIX}${fileName}` });

/** What the server announces when no DOWNLOAD_MANIFEST is configured: installers on this server. */
export const builtInManifest = (): DownloadManifest => ({
  platforms: [
    {
      platform: 'windows',
      version: VERSION,
      releasedAt: RELEASED_AT,
      requirement: 'Windows 10 or later',
      minimumSystems: ['Windows 10'],
      files: [file('x64', `kraken-ai-${VERSION}-x64.exe`), file('arm64', `kraken-ai-${VERSION}-arm64.exe`)],
    },
    {
      platform: 'macos',
      version: VERSION,
      releasedAt: RELEASED_AT,
      requirement: 'macOS 12 or later',
      minimumSystems: ['macOS 12'],
      files: [file('Apple silicon', `kraken-ai-${VERSION}-arm64.dmg`), file('Intel', `kraken-ai-${VERSION}-x64.dmg`)],
    },
    {
      platform: 'linux',
      version: VERSION,
      releasedAt: RELEASED_AT,
      requirement: 'Ubuntu 22.04, Debian 12, Fedora 39 or later',
      minimumSystems: ['Ubuntu 22.04', 'Debian 12', 'Fedora 39'],
      files: [file('AppImage', `kraken-ai-${VERSION}-x86_64.AppImage`), file('deb', `kraken-ai_${VERSION}_amd64.deb`)],
    },
  ],
});
