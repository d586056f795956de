import { describe, expect, it } from 'vitest';
import { detectDesktopPlatform } from './platform';

const UA = {
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chromebook: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

describe('detectDesktopPlatform', () => {
  it.each([
    ['Windows', { userAgent: UA.windows, platform: 'Win32' }, 'windows'],
    ['macOS', { userAgent: UA.mac, platform: 'MacIntel', maxTouchPoints: 0 }, 'macos'],
    ['Linux', { userAgent: UA.linux, platform: 'Linux x86_64' }, 'linux'],
    ['the client hint first', { userAgentData: { platform: 'macOS', mobile: false }, userAgent: UA.windows }, 'macos'],
    ['the user agent when the hint is empty', { userAgentData: { platform: '', mobile: false }, userAgent: UA.windows, platform: 'Linux x86_64' }, 'windows'],
    ['the legacy platform last', { userAgent: 'SomeBrowser/1.0', platform: 'Win32' }, 'windows'],
    ['Android (a Linux that is a phone)', { userAgent: UA.android, platform: 'Linux armv8l' }, null],
    ['an iPhone', { userAgent: UA.iphone, platform: 'iPhone' }, null],
    ['an iPad asking for the desktop site', { userAgent: UA.mac, platform: 'MacIntel', maxTouchPoints: 5 }, null],
    ['a mobile client hint', { userAgentData: { platform: 'Android', mobile: true }, userAgent: UA.android }, null],
    ['a Chromebook', { userAgent: UA.chromebook, platform: 'Linux x86_64' }, null],
    ['nothing to go on', {}, null],
  ] as const)('%s', (_label, hints, expected) => {
    expect(detectDesktopPlatform(hints)).toBe(expected);
  });
});
