import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createMachine, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestParam } from 'xstate/graph';
import { endpoints } from '../../../src/contract/endpoints';
import { isSignedIn } from '../../../src/machines/app.machine';
import GoogleReturnScreen from '../../../src/screens/login/google-return-screen';
import LoginScreen from '../../../src/screens/login/login-screen';
import { readGoogleAttempt } from '../../../src/services/google-attempt';
import { db, seedGoogleCode, seedUser } from '../../msw/db';
import { recordRequests, type SeenRequest } from '../../msw/server';
import { renderWithRuntime, type Screen } from '../harness';
import { coverageGaps, NO_GAPS, planPaths, transitionsOf } from './model-coverage';

/**
 * Google sign-in as a person meets it, across the two pages it spans: continue on the login page,
 * then on Google's page consent, cancel, or arrive with a code planted by someone else; after a
 * failure, try again.
 */
const googleSignIn = createMachine({
  id: 'googleSignIn',
  types: {} as { events: { type: 'CONTINUE' } | { type: 'CONSENT' } | { type: 'CANCEL' } | { type: 'PLANTED' } | { type: 'RETRY' } },
  initial: 'offered',
  states: {
    offered: { on: { CONTINUE: 'onGoogle' } },
    onGoogle: { on: { CONSENT: 'signedIn', CANCEL: 'cancelled', PLANTED: 'refusedForeign' } },
    cancelled: { on: { RETRY: 'onGoogle' } },
    refusedForeign: { on: { RETRY: 'onGoogle' } },
    signedIn: { type: 'final' },
  },
});

const model = createTestModel(googleSignIn);
const { paths, transitionCount } = planPaths('Google sign-in', model);

const RETURN_TO = '/kraken-operation?tab=tasks';

type World = {
  view: Screen;
  userId: string;
  leavePage: ReturnType<typeof vi.fn<(url: string) => void>>;
  logins: SeenRequest[];
  /** The state carried by the last Google page the app left for. */
  state: string;
  leaves: number;
};

/** Google's page sends the person back: a fresh page load of /login/google. */
const comeBack = async (world: World, query: string) => {
  cleanup();
  world.view.runtime.stop();
  world.view = await renderWithRuntime(<GoogleReturnScreen />, { url: `/login/google?${query}`, leavePage: world.leavePage });
};

const left = async (world: World) => {
  await expect.poll(() => world.leavePage.mock.calls.length).toBe(world.leaves + 1);
  world.leaves += 1;
  const url = new URL(world.leavePage.mock.calls.at(-1)![0]);
  world.state = url.searchParams.get('state')!;
};

const testParams = (world: () => World): TestParam<SnapshotFrom<typeof googleSignIn>, EventFromLogic<typeof googleSignIn>> => ({
  states: {
    offered: async () => {
      expect(await screen.findByRole('button', { name: 'Continue with Google' })).toBeEnabled();
      expect(world().leavePage).not.toHaveBeenCalled();
    },
    onGoogle: () => {
      expect(world().leaves).toBeGreaterThan(0);
      expect(readGoogleAttempt(location.origin)).toEqual({ state: world().state, returnTo: RETURN_TO });
      expect(db.google.states.has(world().state)).toBe(true);
    },
    cancelled: async () => {
      expect(await screen.findByRole('alert')).toHaveTextContent('You left Google’s page without signing in.');
      expect(world().logins).toHaveLength(0);
      expect(isSignedIn(world().view.runtime.app.getSnapshot())).toBe(false);
    },
    refusedForeign: async () => {
      expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in was not started in this tab');
      expect(world().logins).toHaveLength(0);
      expect(isSignedIn(world().view.runtime.app.getSnapshot())).toBe(false);
    },
    signedIn: async () => {
      await expect.poll(world().view.url).toBe(RETURN_TO);
      expect(world().view.runtime.app.getSnapshot().context.user?.id).toBe(world().userId);
      expect(world().logins).toHaveLength(1);
      expect(readGoogleAttempt(location.origin)).toBeNull();
    },
  },
  events: {
    CONTINUE: async () => {
      await world().view.user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
      await left(world());
    },
    CONSENT: async () => {
      seedGoogleCode('4/consented', world().userId);
      await comeBack(world(), `code=4%2Fconsented&state=${world().state}`);
    },
    CANCEL: () => comeBack(world(), `error=access_denied&state=${world().state}`),
    PLANTED: () => comeBack(world(), 'code=4%2Fplanted&state=someone-elses'),
    RETRY: async () => {
      await world().view.user.click(screen.getByRole('button', { name: 'Try again with Google' }));
      await left(world());
    },
  },
});

describe('Google sign-in, model-based', () => {
  let world: World | null = null;
  const params = testParams(() => world!);

  it('has an assertion for every reachable state and an executor for every event', () => {
    expect(coverageGaps(googleSignIn, model, params)).toEqual(NO_GAPS);
    expect(new Set(paths.flatMap(transitionsOf)).size).toBe(transitionCount);
  });

  it.each(paths.map((path) => [path.description, path]))('%s', async (_description, path) => {
    db.google.enabled = true;
    const { user } = seedUser({ nickname: 'Ada' });
    const leavePage = vi.fn<(url: string) => void>();
    const logins = recordRequests(endpoints.login.path);
    const view = await renderWithRuntime(<LoginScreen />, { url: `/login?redirect_url=${encodeURIComponent(RETURN_TO)}`, leavePage });
    world = { view, userId: user.id, leavePage, logins, state: '', leaves: 0 };
    await path.test(params);
  });
});
