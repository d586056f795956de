import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DownloadManifest } from '../../contract/app';
import { endpoints } from '../../contract/endpoints';
import { initI18n } from '../../i18n';
import { keepInstallPrompt } from '../../services/install-prompt';
import { failBody } from '../../../tests/msw/handlers';
import { sampleManifest } from '../../../tests/msw/download-manifest';
import { server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import DownloadScreen from './download-screen';

const AGENTS = {
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  macos: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0',
  windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
};

const browseWith = (userAgent: string) => vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);

afterEach(async () => {
  vi.restoreAllMocks();
  // An offer a test left unanswered would be kept for the next page: the app installed, it is gone.
  cleanup();
  window.dispatchEvent(new Event('appinstalled'));
  vi.unstubAllGlobals();
  await initI18n('en-US');
});

const okBody = (data: DownloadManifest) => ({ code: 0, msg: 'ok', data, success: true });

describe('download page', () => {
  it.each([
    ['windows', 'Windows', ['macOS', 'Linux']],
    ['macos', 'macOS', ['Windows', 'Linux']],
    ['linux', 'Linux', ['Windows', 'macOS']],
  ] as const)('recommends %s to its visitors and lists the others below', async (platform, name, others) => {
    browseWith(AGENTS[platform]);
    await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading the downloads…');

    const recommended = await screen.findByTestId('recommended');
    expect(within(recommended).getByText(`We detected ${name}.`)).toBeInTheDocument();
    expect(within(recommended).getByRole('heading', { level: 3 })).toHaveTextContent(name);
    expect(within(recommended).getAllByTestId('download-link')[0]).toHaveTextContent(`Download for ${name}`);

    const rest = screen.getByTestId('other-platforms');
    expect(within(rest).getByRole('heading', { name: 'Other platforms' })).toBeInTheDocument();
    expect(within(rest).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(others);
  });

  it('shows version, release date, sizes and links from the manifest', async () => {
    browseWith(AGENTS.macos);
    await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    const recommended = await screen.findByTestId('recommended');
    expect(recommended).toHaveTextContent('Version 2.4.0');
    expect(recommended).toHaveTextContent('Released March 1, 2025');
    expect(recommended).toHaveTextContent('macOS 12 or later');
    const [appleSilicon, intel] = within(recommended).getAllByTestId('download-link');
    expect(appleSilicon).toHaveAttribute('href', '/downloads/kraken-ai-2.4.0-arm64.dmg');
    expect(appleSilicon).toHaveTextContent('Apple silicon');
    expect(appleSilicon).toHaveTextContent('97 MB');
    expect(intel).toHaveAccessibleName('Download macOS Intel, kraken-ai-2.4.0-x64.dmg, 100 MB');

    const linuxDeb = within(screen.getByTestId('other-platforms')).getByRole('link', { name: /deb/ });
    expect(linuxDeb).toHaveAttribute('href', '/downloads/kraken-ai_2.3.1_amd64.deb');
    const releases = screen.getByRole('link', { name: 'All releases and release notes' });
    expect(releases).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('recommends nothing on a phone and lists every platform', async () => {
    browseWith(AGENTS.iphone);
    await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    expect(await screen.findByText('Pick the version for your computer below.')).toBeInTheDocument();
    expect(screen.queryByTestId('recommended')).toBeNull();
    expect(within(screen.getByTestId('other-platforms')).getAllByRole('heading', { level: 3 })).toHaveLength(3);
  });

  it('offers no button for installers that are not on the server, and says so', async () => {
    browseWith(AGENTS.windows);
    const missing = { ...sampleManifest, status: 'partial' as const };
    missing.platforms = sampleManifest.platforms.map((release) => ({
      ...release,
      files: release.files.map((file) => ({ ...file, available: release.platform === 'linux' && file.label === 'deb' })),
    }));
    server.use(http.get(endpoints.appDownloadManifest.path, () => HttpResponse.json(okBody(missing))));
    await renderWithRuntime(<DownloadScreen />, { url: '/download' });

    const recommended = await screen.findByTestId('recommended');
    expect(within(recommended).queryByTestId('download-link')).toBeNull();
    expect(recommended).toHaveTextContent('The Windows installers are not available here yet.');
    const others = screen.getByTestId('other-platforms');
    expect(within(others).getAllByTestId('download-link').map((link) => link.getAttribute('href'))).toEqual(['/downloads/kraken-ai_2.3.1_amd64.deb']);
    expect(screen.queryByTestId('downloads-unavailable')).toBeNull();
  });

  it('says the desktop app cannot be downloaded yet when no installer is there', async () => {
    browseWith(AGENTS.linux);
    const none = {
      ...sampleManifest,
      status: 'unavailable' as const,
      platforms: sampleManifest.platforms.map((release) => ({ ...release, files: release.files.map((file) => ({ ...file, available: false })) })),
    };
    server.use(http.get(endpoints.appDownloadManifest.path, () => HttpResponse.json(okBody(none))));
    await renderWithRuntime(<DownloadScreen />, { url: '/download' });

    expect(await screen.findByTestId('downloads-unavailable')).toHaveTextContent('The desktop app cannot be downloaded here yet.');
    expect(screen.queryAllByTestId('download-link')).toEqual([]);
    expect(screen.getAllByTestId('platform-unavailable')).toHaveLength(3);
  });

  it('says which systems it needs in the reader’s language', async () => {
    browseWith(AGENTS.linux);
    const withSystems = {
      ...sampleManifest,
      platforms: sampleManifest.platforms.map((release) =>
        release.platform === 'linux' ? { ...release, requirement: 'Ubuntu 22.04 or later', minimumSystems: ['Ubuntu 22.04', 'Debian 12'] } : release,
      ),
    };
    server.use(http.get(endpoints.appDownloadManifest.path, () => HttpResponse.json(okBody(withSystems))));
    await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    expect(await screen.findByTestId('recommended')).toHaveTextContent('Ubuntu 22.04, Debian 12 or later');
    await act(() => initI18n('ja'));
    expect(await screen.findByText('Ubuntu 22.04、Debian 12 以降')).toBeInTheDocument();
  });

  it('says the manifest could not be loaded, and loads it on retry', async () => {
    browseWith(AGENTS.windows);
    server.use(
      http.get(endpoints.appDownloadManifest.path, () => HttpResponse.json(failBody('The desktop downloads are not available right now.'), { status: 503 }), {
        once: true,
      }),
    );
    const view = await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The downloads could not be loaded.');
    await view.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('recommended')).toHaveTextContent('Windows');
  });
});

/** Chromium's install offer, as the page receives it: the dialog's answer is the person's choice. */
const installOffer = (outcome: 'accepted' | 'dismissed') =>
  Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => undefined),
    userChoice: Promise.resolve({ outcome }),
  });

/** A window opened from the home screen or the dock, as `matchMedia` describes it. */
const standaloneWindow = (query: string) =>
  ({ matches: query === '(display-mode: standalone)', media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList;

describe('installing the web app from the download page', () => {
  it('offers the browser’s install dialog when it has one, and says the app is installed', async () => {
    browseWith(AGENTS.windows);
    // The offer comes soon after the app loads, before anyone opens this page: it is kept.
    keepInstallPrompt();
    const offer = installOffer('accepted');
    window.dispatchEvent(offer);
    const view = await renderWithRuntime(<DownloadScreen />, { url: '/download' });

    const webApp = screen.getByRole('region', { name: 'Web app' });
    expect(within(webApp).queryByTestId('web-app-steps')).toBeNull();
    await view.user.click(within(webApp).getByRole('button', { name: 'Install the web app' }));
    expect(offer.prompt).toHaveBeenCalledTimes(1);
    expect(await within(webApp).findByText('Installed. Open Kraken AI from your home screen, Dock or app list.')).toHaveFocus();
    expect(within(webApp).queryByRole('button')).toBeNull();
    // the desktop installers are still offered below
    expect(await screen.findByTestId('recommended')).toHaveTextContent('Windows');
  });

  it('offers the dialog when the browser makes its offer on this page, and after “not now” says how to install later', async () => {
    browseWith(AGENTS.windowsChrome);
    const view = await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    const webApp = screen.getByRole('region', { name: 'Web app' });
    expect(within(webApp).queryByRole('button')).toBeNull();

    const offer = installOffer('dismissed');
    act(() => {
      window.dispatchEvent(offer);
    });
    await view.user.click(within(webApp).getByRole('button', { name: 'Install the web app' }));
    expect(offer.prompt).toHaveBeenCalledTimes(1);
    expect(await within(webApp).findByText('Not installed. You can install it whenever you like:')).toBeInTheDocument();
    expect(within(webApp).getByTestId('web-app-steps')).toHaveTextContent('Open your browser’s menu and choose “Install app”');
    expect(within(webApp).queryByRole('button')).toBeNull();

    // the browser installed it all the same (from its own menu)
    act(() => {
      fireEvent(window, new Event('appinstalled'));
    });
    expect(within(webApp).getByText('Installed. Open Kraken AI from your home screen, Dock or app list.')).toBeInTheDocument();
  });

  it.each([
    ['iphone', 'ios', 'Tap the Share button, then “Add to Home Screen”.'],
    ['macos', 'macSafari', 'In Safari 17 or later, choose File › “Add to Dock”.'],
    ['linux', 'firefox', 'Firefox cannot install web apps on a computer. To install Kraken AI, open this page in Chrome, Edge or Safari'],
    ['androidFirefox', 'firefoxAndroid', 'Open Firefox’s menu (⋮), then “Add to Home screen”.'],
    ['windowsChrome', 'other', 'Open your browser’s menu and choose “Install app” or “Add to Home screen”.'],
  ] as const)('on %s, which offers no install dialog, says how to install it there', async (agent, browser, steps) => {
    browseWith(AGENTS[agent]);
    await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    const webApp = screen.getByRole('region', { name: 'Web app' });
    expect(within(webApp).getByTestId('web-app-steps')).toHaveAttribute('data-browser', browser);
    expect(within(webApp).getByTestId('web-app-steps')).toHaveTextContent(steps);
    expect(within(webApp).queryByRole('button')).toBeNull();
    expect(within(webApp).getByTestId('web-app-outcome')).toBeEmptyDOMElement();
  });

  it.each([
    ['on a computer', () => vi.stubGlobal('matchMedia', standaloneWindow)],
    ['on an iPhone', () => vi.spyOn(navigator, 'standalone' as never, 'get' as never).mockReturnValue(true as never)],
  ])('says the app is installed when it runs from the home screen or the dock (%s)', async (_where, openInstalled) => {
    browseWith(AGENTS.iphone);
    if (!('standalone' in navigator)) Object.defineProperty(navigator, 'standalone', { configurable: true, get: () => undefined });
    openInstalled();
    await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    const webApp = screen.getByRole('region', { name: 'Web app' });
    expect(within(webApp).getByText('You are using the installed web app.')).toBeInTheDocument();
    expect(within(webApp).queryByTestId('web-app-steps')).toBeNull();
    expect(within(webApp).queryByRole('button')).toBeNull();
  });
});
