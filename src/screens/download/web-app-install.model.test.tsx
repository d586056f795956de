import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { webAppInstallMachine } from '../../machines/web-app-install.machine';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { describeEvents, productionPaths, type ModelEvent } from '../../../tests/spa/models/production-paths';
import DownloadScreen from './download-screen';

/**
 * Installing the web app on paths generated from the machine that ships: the browser makes its
 * offer, the person installs or says not now, the dialog fails, the app gets installed from the
 * browser's own menu. Each path is played on the real page with Chromium's events.
 */
type Snapshot = SnapshotFrom<typeof webAppInstallMachine>;

const ACCEPTED = { type: 'xstate.done.actor.promptInstall', output: 'accepted' };
const DISMISSED = { type: 'xstate.done.actor.promptInstall', output: 'dismissed' };
const FAILED = { type: 'xstate.error.actor.promptInstall', error: new Error('the offer was spent') };
const events: ModelEvent[] = [{ type: 'prompt.available' }, { type: 'install' }, ACCEPTED, DISMISSED, FAILED, { type: 'app.installed' }];
const serializeState = (state: Snapshot) => JSON.stringify(state.value);
/** What the page detects in Chrome on Windows, in a browser tab. */
const input = { runsInstalled: false, browser: 'other' as const };
const { paths, transitionCount, reachedStates } = productionPaths(webAppInstallMachine, { events, input, serializeState });

type Settle<T> = { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void };
const held = <T,>(): Settle<T> => {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
};

/** Chromium's offer, its dialog held until the path says what the person chose. */
const makeOffer = () => {
  const shown = held<void>();
  const choice = held<{ outcome: 'accepted' | 'dismissed' }>();
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), { prompt: vi.fn(() => shown.promise), userChoice: choice.promise });
  return { event, shown, choice };
};

type World = { offer: ReturnType<typeof makeOffer> | null; prompts: number; user: { click: (element: Element) => Promise<void> }; last: string };

/** Where the page must be after what last happened, from the product's rules. */
const EXPECTED_AFTER: Record<string, string> = {
  start: 'steps',
  'the browser offers': 'offered',
  'click install': 'prompting',
  'person installs': 'installed',
  'person says not now': 'dismissed',
  'the dialog fails': 'steps',
  'installed from the browser': 'installed',
};
const expectState = (world: World, state: string) => expect(EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(state);
const webApp = () => screen.getByRole('region', { name: 'Web app' });
const installButton = () => within(webApp()).queryByRole('button', { name: 'Install the web app' });
const STEPS = 'Open your browser’s menu and choose “Install app” or “Add to Home screen”.';
const INSTALLED = 'Installed. Open Kraken AI from your home screen, Dock or app list.';

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    'offering.steps': async () => {
      expectState(world(), 'steps');
      expect(await within(webApp()).findByTestId('web-app-steps')).toHaveTextContent(STEPS);
      expect(installButton()).toBeNull();
    },
    'offering.offered': async () => {
      expectState(world(), 'offered');
      expect(await within(webApp()).findByRole('button', { name: 'Install the web app' })).toBeEnabled();
      expect(within(webApp()).queryByTestId('web-app-steps')).toBeNull();
    },
    'offering.prompting': async () => {
      expectState(world(), 'prompting');
      // The browser's dialog is up: one dialog per click, and no second one while it is.
      expect(installButton()).toBeDisabled();
      expect(world().prompts).toBe(1);
      expect(world().offer?.event.prompt).toHaveBeenCalledTimes(1);
    },
    'offering.dismissed': async () => {
      expectState(world(), 'dismissed');
      expect(await within(webApp()).findByText('Not installed. You can install it whenever you like:')).toBeInTheDocument();
      expect(within(webApp()).getByTestId('web-app-steps')).toHaveTextContent(STEPS);
      expect(installButton()).toBeNull();
    },
    'offering.installed': async () => {
      expectState(world(), 'installed');
      expect(await within(webApp()).findByText(INSTALLED)).toBeInTheDocument();
      expect(installButton()).toBeNull();
      expect(within(webApp()).queryByTestId('web-app-steps')).toBeNull();
    },
  },
  events: {
    'prompt.available': async () => {
      world().last = 'the browser offers';
      world().offer = makeOffer();
      world().prompts = 0;
      act(() => {
        window.dispatchEvent(world().offer!.event);
      });
    },
    install: async () => {
      world().last = 'click install';
      world().prompts += 1;
      await world().user.click(installButton()!);
    },
    [ACCEPTED.type]: async ({ event }) => {
      const { offer } = world();
      const { output } = event as ModelEvent;
      world().last = output === 'accepted' ? 'person installs' : 'person says not now';
      await act(async () => {
        offer!.shown.resolve();
        offer!.choice.resolve({ outcome: output as 'accepted' | 'dismissed' });
      });
    },
    [FAILED.type]: async () => {
      world().last = 'the dialog fails';
      await act(async () => world().offer!.shown.reject(new Error('the offer was spent')));
    },
    'app.installed': async () => {
      world().last = 'installed from the browser';
      act(() => {
        window.dispatchEvent(new Event('appinstalled'));
      });
    },
  },
});

afterEach(() => {
  vi.restoreAllMocks();
  // An offer a test left unanswered would be kept for the next page: the app installed, it is gone.
  cleanup();
  window.dispatchEvent(new Event('appinstalled'));
});

describe('installing the web app, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state a browser tab can be in and takes every transition', () => {
    const leaves = Object.keys(webAppInstallMachine.root.states.offering!.states).map((leaf) => `offering.${leaf}`);
    const reached = [...reachedStates].map((value) => JSON.parse(value) as { offering: string }).map((value) => `offering.${value.offering}`);
    // runningInstalled is decided at the start (the screen test opens the page as the installed app).
    expect(reached.sort()).toEqual(leaves.sort());
    // steps: offer; offered: install; prompting: installed, not now, failed; dismissed: offer;
    // and from each of the five, installed from the browser's own menu.
    expect(transitionCount).toBe(11);
    for (const state of leaves) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describeEvents(path.events, (event) => String(event.output)), path] as const))('%s', async (_name, path) => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36');
    const view = await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    world = { offer: null, prompts: 0, user: view.user, last: 'start' };
    await path.test(testParams);
  });
});

describe('opened as the installed app, paths generated from the production machine', () => {
  // From the home screen or the dock there is nothing to install: no offer, click or dialog moves it.
  const installed = productionPaths(webAppInstallMachine, { events, input: { ...input, runsInstalled: true }, serializeState });
  const standalone = (query: string) =>
    ({ matches: query === '(display-mode: standalone)', media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList;

  it('stays where the installed app runs, whatever the browser does', () => {
    expect([...installed.reachedStates]).toEqual([JSON.stringify('runningInstalled')]);
    expect(installed.transitionCount).toBe(0);
  });

  it('says so on the page and offers nothing to install', async () => {
    vi.stubGlobal('matchMedia', standalone);
    try {
      await renderWithRuntime(<DownloadScreen />, { url: '/download' });
      expect(await within(webApp()).findByText('You are using the installed web app.')).toBeInTheDocument();
      expect(installButton()).toBeNull();
      expect(within(webApp()).queryByTestId('web-app-steps')).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
