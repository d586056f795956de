import { assign, fromPromise, setup } from 'xstate';
import { DESKTOP_PLATFORMS, type DesktopPlatform, type DownloadManifest, type PlatformRelease } from '../contract/app';

export type DownloadPageContext = {
  platform: DesktopPlatform | null;
  /** The visitor's own system, when the manifest has it. */
  recommended: PlatformRelease | null;
  /** Every other platform, in the usual order. */
  others: PlatformRelease[];
  releasesPageUrl: string | null;
  failure: string | null;
};

export type DownloadPageInput = { platform: DesktopPlatform | null };

const byUsualOrder = (a: PlatformRelease, b: PlatformRelease) => DESKTOP_PLATFORMS.indexOf(a.platform) - DESKTOP_PLATFORMS.indexOf(b.platform);

/** The visitor's platform first, the others below it. */
export const arrange = (manifest: DownloadManifest, platform: DesktopPlatform | null) => {
  const releases = [...manifest.platforms].sort(byUsualOrder);
  const recommended = releases.find((release) => release.platform === platform) ?? null;
  return { recommended, others: releases.filter((release) => release !== recommended), releasesPageUrl: manifest.releasesPageUrl ?? null };
};

/** The download page: fetch the manifest, recommend the visitor's system, retry after a failure. */
export const downloadPageMachine = setup({
  types: { context: {} as DownloadPageContext, events: {} as { type: 'retry' }, input: {} as DownloadPageInput },
  actors: {
    fetchManifest: fromPromise<DownloadManifest>(async () => {
      throw new Error('fetchManifest is provided where the page is used');
    }),
  },
  actions: {
    /** The visitor's own system first, the others after. */
    arrangeReleases: assign(({ context }, params: { manifest: DownloadManifest }) => ({ ...arrange(params.manifest, context.platform), failure: null })),
    showLoadError: assign((_, params: { message: string }) => ({ failure: params.message })),
  },
}).createMachine({
  id: 'downloadPage',
  context: ({ input }) => ({ platform: input.platform, recommended: null, others: [], releasesPageUrl: null, failure: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchManifest',
        onDone: { target: 'ready', actions: { type: 'arrangeReleases', params: ({ event }) => ({ manifest: event.output }) } },
        onError: {
          target: 'failed',
          actions: {
            type: 'showLoadError',
            params: ({ event }) => ({ message: event.error instanceof Error ? event.error.message : String(event.error) }),
          },
        },
      },
    },
    ready: {},
    failed: { on: { retry: 'loading' } },
  },
});
