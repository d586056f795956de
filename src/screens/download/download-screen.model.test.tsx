import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { endpoints } from '../../contract/endpoints';
import { downloadPageMachine } from '../../machines/download-page.machine';
import { sampleManifest } from '../../../tests/msw/download-manifest';
import { recordRequests, type SeenRequest } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { holdRequests, responseFor } from '../../../tests/spa/models/held-calls';
import { describeEvents, productionPaths, type ModelEvent } from '../../../tests/spa/models/production-paths';
import DownloadScreen from './download-screen';

/**
 * The download page on paths generated from the machine that ships: the manifest arrives or the
 * server fails, and the visitor tries again. Each path is played on the real page, the manifest
 * request held until the path says how the server answers.
 */
type Snapshot = SnapshotFrom<typeof downloadPageMachine>;

const FETCHED = 'xstate.done.actor.0.downloadPage.loading';
const FAILED = 'xstate.error.actor.0.downloadPage.loading';
const events: ModelEvent[] = [{ type: FETCHED, output: sampleManifest }, { type: FAILED, error: { status: 503 } }, { type: 'retry' }];
/** The page shows where it is; the server's words are never shown. */
const serializeState = (state: Snapshot) => JSON.stringify(state.value);
const input = { platform: 'linux' as const };
const { paths, transitionCount } = productionPaths(downloadPageMachine, { events, input, serializeState });

type World = { answer: ReturnType<typeof holdRequests>['answer']; requests: SeenRequest[]; retries: number; user: { click: (element: Element) => Promise<void> }; last: string };

/** Where the page must be after what last happened, from the product's rules. */
const EXPECTED_AFTER: Record<string, string> = {
  start: 'loading',
  'manifest arrives': 'ready',
  'server fails': 'failed',
  'click try again': 'loading',
};
const expectState = (world: World, state: string) => expect(EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(state);

/** The manifest is asked for once on opening and once per "Try again", never on its own. */
const askedOncePerTry = (world: World) => expect(world.requests).toHaveLength(world.retries + 1);

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    loading: async () => {
      expectState(world(), 'loading');
      expect(await screen.findByRole('status')).toHaveTextContent('Loading the downloads…');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByTestId('other-platforms')).toBeNull();
      askedOncePerTry(world());
    },
    ready: async () => {
      expectState(world(), 'ready');
      const recommended = await screen.findByTestId('recommended');
      expect(within(recommended).getByText('We detected Linux.')).toBeInTheDocument();
      expect(within(screen.getByTestId('other-platforms')).getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual(['Windows', 'macOS']);
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
      askedOncePerTry(world());
    },
    failed: async () => {
      expectState(world(), 'failed');
      const alert = await screen.findByRole('alert');
      // the visitor's language, not the server's words
      expect(alert).toHaveTextContent('The downloads could not be loaded.');
      expect(alert).not.toHaveTextContent('server said');
      expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(screen.queryByTestId('recommended')).toBeNull();
      askedOncePerTry(world());
    },
  },
  events: {
    [FETCHED]: async () => {
      world().last = 'manifest arrives';
      await world().answer('manifest', responseFor({ output: sampleManifest }));
    },
    [FAILED]: async () => {
      world().last = 'server fails';
      await world().answer('manifest', responseFor({ error: { status: 503 } }));
    },
    retry: async () => {
      world().last = 'click try again';
      world().retries += 1;
      await world().user.click(screen.getByRole('button', { name: 'Try again' }));
    },
  },
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the download page, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state and takes every transition', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    const declared = Object.keys(downloadPageMachine.root.states);
    expect([...reached].map((value) => JSON.parse(value) as string).sort()).toEqual(declared.sort());
    // loading: the manifest or a failure; failed: try again.
    expect(transitionCount).toBe(3);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describeEvents(path.events), path] as const))('%s', async (_name, path) => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0');
    const requests = recordRequests(endpoints.appDownloadManifest.path);
    const { answer } = holdRequests({ manifest: endpoints.appDownloadManifest });
    const view = await renderWithRuntime(<DownloadScreen />, { url: '/download' });
    world = { answer, requests, retries: 0, user: view.user, last: 'start' };
    await path.test(testParams);
  });
});
