import type { DownloadManifest } from '../../src/contract/app';

/** What the fake API answers for the desktop app unless a test says otherwise. */
export const sampleManifest: DownloadManifest = {
  platforms: [
    {
      platform: 'windows',
      version: '2.4.0',
      releasedAt: '2025-03-01T00:00:00.000Z',
      requirement: 'Windows 10 or later',
      files: [{ label: 'x64', url: '/downloads/kraken-ai-2.4.0-x64.exe', fileName: 'kraken-ai-2.4.0-x64.exe', size: 94_371_840 }],
    },
    {
      platform: 'macos',
      version: '2.4.0',
      releasedAt: '2025-03-01T00:00:00.000Z',
      requirement: 'macOS 12 or later',
      files: [
        { label: 'Apple silicon', url: '/downloads/kraken-ai-2.4.0-arm64.dmg', fileName: 'kraken-ai-2.4.0-arm64.dmg', size: 101_711_872 },
        { label: 'Intel', url: '/downloads/kraken-ai-2.4.0-x64.dmg', fileName: 'kraken-ai-2.4.0-x64.dmg', size: 104_857_600 },
      ],
    },
    {
      platform: 'linux',
      version: '2.3.1',
      releasedAt: '2025-02-10T00:00:00.000Z',
      files: [
        { label: 'AppImage', url: '/downloads/kraken-ai-2.3.1-x86_64.AppImage', fileName: 'kraken-ai-2.3.1-x86_64.AppImage', size: 110_100_480 },
        { label: 'deb', url: '/downloads/kraken-ai_2.3.1_amd64.deb', fileName: 'kraken-ai_2.3.1_amd64.deb' },
      ],
    },
  ],
  releasesPageUrl: 'https://github.com/kraken-ai/desktop/releases',
};
