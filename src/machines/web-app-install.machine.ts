import { fromCallback, fromPromise, setup } from 'xstate';
import type { InstallBrowser } from '../services/install-support';
import type { InstallNews, InstallOutcome } from '../services/install-prompt';

export type WebAppInstallInput = { runsInstalled: boolean; browser: InstallBrowser };
export type WebAppInstallContext = WebAppInstallInput;
export type WebAppInstallEvent = { type: 'install' } | InstallNews;

/**
 * Installing the web app from the download page: with the browser's own install dialog where it
 * offers one, else the steps for this browser; nothing to do where the app already runs installed.
 */
export const webAppInstallMachine = setup({
  types: { context: {} as WebAppInstallContext, events: {} as WebAppInstallEvent, input: {} as WebAppInstallInput },
  actors: {
    /** Whether the browser offers an install, and when the app gets installed. */
    installNews: fromCallback<WebAppInstallEvent>(() => {
      throw new Error('installNews is provided where the page is used');
    }),
    promptInstall: fromPromise<InstallOutcome>(async () => {
      throw new Error('promptInstall is provided where the page is used');
    }),
  },
  guards: {
    runsInstalled: ({ context }) => context.runsInstalled,
    accepted: (_, params: { outcome: InstallOutcome }) => params.outcome === 'accepted',
  },
}).createMachine({
  id: 'webAppInstall',
  context: ({ input }) => ({ ...input }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'runsInstalled', target: 'runningInstalled' }, { target: 'offering' }],
    },
    /** Opened from the home screen or the dock: there is nothing to install. */
    runningInstalled: {},
    offering: {
      invoke: { src: 'installNews' },
      on: { 'app.installed': '.installed' },
      initial: 'steps',
      states: {
        /** The browser offers no install dialog (not yet, or never): the steps for this browser. */
        steps: { on: { 'prompt.available': 'offered' } },
        offered: { on: { install: 'prompting' } },
        prompting: {
          invoke: {
            id: 'promptInstall',
            src: 'promptInstall',
            onDone: [{ guard: { type: 'accepted', params: ({ event }) => ({ outcome: event.output }) }, target: 'installed' }, { target: 'dismissed' }],
            // The offer was spent or refused by the browser: the steps still work.
            onError: 'steps',
          },
        },
        /** Not now: the browser may offer again; until then the steps say how. */
        dismissed: { on: { 'prompt.available': 'offered' } },
        installed: {},
      },
    },
  },
});
