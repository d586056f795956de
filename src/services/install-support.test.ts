import { describe, expect, it } from 'vitest';
import { detectInstallBrowser, runsInstalled } from './install-support';

const mac = (browser: string) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) ${browser}`;

describe('how this browser installs a web app', () => {
  it.each([
    ['Safari on an iPhone', { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1' }, 'ios'],
    ['Chrome on an iPhone', { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1' }, 'ios'],
    ['an iPad asking for the desktop site', { userAgent: mac('Version/17.4 Safari/605.1.15'), maxTouchPoints: 5 }, 'ios'],
    ['Safari on a Mac', { userAgent: mac('Version/17.4 Safari/605.1.15'), maxTouchPoints: 0 }, 'macSafari'],
    ['Chrome on a Mac', { userAgent: mac('Chrome/131.0.0.0 Safari/537.36') }, 'other'],
    ['Edge on a Mac', { userAgent: mac('Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0') }, 'other'],
    ['Firefox on a Mac', { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:128.0) Gecko/20100101 Firefox/128.0' }, 'firefox'],
    ['Firefox on Linux', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' }, 'firefox'],
    ['Firefox on Android', { userAgent: 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0' }, 'firefoxAndroid'],
    ['Samsung Internet', { userAgent: 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36' }, 'other'],
    ['an unknown browser', {}, 'other'],
  ])('%s', (_name, hints, expected) => {
    expect(detectInstallBrowser(hints)).toBe(expected);
  });
});

describe('whether the app runs installed', () => {
  const windowWith = (standalone: boolean | undefined, displayMode: string) =>
    ({ navigator: { standalone }, matchMedia: (query: string) => ({ matches: query === `(display-mode: ${displayMode})` }) }) as unknown as Window;

  it('is installed in its own window, from the home screen (iOS says so itself) or the dock', () => {
    expect(runsInstalled(windowWith(undefined, 'standalone'))).toBe(true);
    expect(runsInstalled(windowWith(true, 'browser'))).toBe(true);
  });

  it('is not in a browser tab', () => {
    expect(runsInstalled(windowWith(undefined, 'browser'))).toBe(false);
    expect(runsInstalled(windowWith(false, 'browser'))).toBe(false);
  });
});
