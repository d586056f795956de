import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { endpoints } from '../../../src/contract/endpoints';
import { isSignedIn } from '../../../src/machines/app.machine';
import { googleSignInMachine, type GoogleSignInInput } from '../../../src/machines/google-sign-in.machine';
import GoogleReturnScreen from '../../../src/screens/login/google-return-screen';
import LoginScreen from '../../../src/screens/login/login-screen';
import { readGoogleAttempt, writeGoogleAttempt } from '../../../src/services/google-attempt';
import { db, seedGoogleCode, seedUser } from '../../msw/db';
import { renderWithRuntime, type Screen } from '../harness';
import { actorAnswers, failResponse, holdCalls, okResponse } from './held-calls';
import { productionPaths, type ModelEvent } from './production-paths';

/**
 * Google sign-in's paths are generated from the machine that ships, once per way a page can
 * open: the login page (which asks the server whether it offers Google), and Google's return to
 * `/login/google` with a code and this tab's state, with the person's refusal, with someone
 * else's state, or with a stored destination that leaves the site. Every call is held by the fake
 * API until the path answers it. Where the page must be is written from the product's rules: a
 * code is exchanged only with the state this tab sent; after sign-in the page goes to the
 * destination kept from the login page, on this site only; each failure says why (too many
 * attempts says wait) and offers to start again.
 */
type Snapshot = SnapshotFrom<typeof googleSignInMachine>;

const RETURN_TO = '/kraken-operation?tab=tasks';
const OUR_STATE = 'gstate-ours';
const CODE = '4/consented';
const answers = actorAnswers(googleSignInMachine);

const EVENTS: ModelEvent[] = [
  answers.done('loadOptions', { google: true }),
  answers.done('loadOptions', { google: false }),
  answers.error('loadOptions', 404, 'Not found'),
  { type: 'start' },
  answers.done('authorize', { url: 'https://accounts.google.com/o/oauth2/v2/auth?state=s', state: 's' }),
  answers.error('authorize', 429, 'Too many attempts'),
  answers.error('authorize', 503, 'Google login is not configured on this server.'),
  { type: 'page.restored' },
  answers.done('login', { token: 't', userInfo: { id: 'u', username: 'ada', nickname: 'Ada', avatar: '' } }),
  answers.error('login', 400, 'This Google sign-in has expired or was already used.'),
  answers.error('login', 429, 'Too many attempts'),
];

type Opening = { name: string; page: 'login' | 'return'; query: string; attempt: { state: string; returnTo: string } | null; lands: string };
const OPENINGS: Opening[] = [
  { name: 'the login page', page: 'login', query: `?redirect_url=${encodeURIComponent(RETURN_TO)}`, attempt: null, lands: RETURN_TO },
  { name: 'back with a code and this tab’s state', page: 'return', query: `?code=${encodeURIComponent(CODE)}&state=${OUR_STATE}`, attempt: { state: OUR_STATE, returnTo: RETURN_TO }, lands: RETURN_TO },
  { name: 'back after the person said no', page: 'return', query: `?error=access_denied&state=${OUR_STATE}`, attempt: { state: OUR_STATE, returnTo: RETURN_TO }, lands: RETURN_TO },
  { name: 'back with someone else’s state', page: 'return', query: `?code=${encodeURIComponent(CODE)}&state=someone-elses`, attempt: { state: OUR_STATE, returnTo: RETURN_TO }, lands: RETURN_TO },
  // a destination tampered with in session storage still only leads to a path on this site
  { name: 'back with a destination off the site', page: 'return', query: `?code=${encodeURIComponent(CODE)}&state=${OUR_STATE}`, attempt: { state: OUR_STATE, returnTo: '//evil.example/phish' }, lands: '/' },
];

const serializeState = (state: Snapshot) => {
  const failure = state.context.failure;
  return `${JSON.stringify(state.value)}|${failure ? `${failure.reason}${failure.reason === 'rejected' ? failure.status : ''}` : ''}`;
};
const inputOf = (opening: Opening): GoogleSignInInput =>
  opening.page === 'login'
    ? { mode: 'offer', returnTo: RETURN_TO }
    : { mode: 'return', href: `http://localhost/login/google${opening.query}`, attempt: { state: opening.attempt!.state, returnTo: opening.lands } };
const walks = OPENINGS.map((opening) => ({ opening, ...productionPaths(googleSignInMachine, { events: EVENTS, input: inputOf(opening), serializeState }) }));
const PLAYS = walks.flatMap(({ opening, paths }) =>
  paths
    // the destination off the site only matters once signed in: its other paths are the ones above
    .filter((path) => !opening.name.includes('off the site') || path.state.matches('signedIn'))
    .map((path) => ({ opening, path })),
);
const transitionCount = walks.reduce((sum, walk) => sum + walk.transitionCount, 0);
console.log(`Google sign-in (production machine): ${transitionCount} transitions over ${OPENINGS.length} openings; running ${PLAYS.length} paths`);

type World = {
  view: Screen;
  opening: Opening;
  userId: string;
  calls: ReturnType<typeof holdCalls<'loadOptions' | 'authorize' | 'login'>>;
  leavePage: ReturnType<typeof vi.fn<(url: string) => void>>;
  /** What the page must say, by the product's rules (title and reason), or nothing. */
  alert: [string, string] | null;
  /** Google's pages the server gave: each is left for at once. */
  leaves: number;
  /** Codes sent to the server to exchange: only this tab's, once. */
  exchanges: number;
  last: string;
};

/** Where the page must be after what last happened. */
const EXPECTED_AFTER: Record<string, string> = {
  'open the login page': 'checking',
  'loadOptions google': 'ready',
  'loadOptions none': 'unavailable',
  'loadOptions 404': 'unavailable',
  'open back with a code and this tab’s state': 'exchanging',
  'open back with a destination off the site': 'exchanging',
  'open back after the person said no': 'failed',
  'open back with someone else’s state': 'failed',
  'click start': 'starting',
  'authorize ok': 'leaving',
  'login page: authorize 429': 'ready',
  'login page: authorize 503': 'ready',
  'return page: authorize 429': 'failed',
  'return page: authorize 503': 'failed',
  'login page: back from Google by the browser': 'ready',
  'return page: back from Google by the browser': 'failed',
  'login ok': 'signedIn',
  'login 400': 'failed',
  'login 429': 'failed',
};
const expectState = (world: World, state: string) => expect(EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(state);

/** What each failure says, in the person's language. */
const REASON: Record<string, string> = {
  cancelled: 'You left Google’s page without logging in.',
  foreign: 'This login was not started in this tab, or it has expired. Please start again.',
  400: 'This login has expired or was already used. Please start again.',
  429: 'Too many attempts. Please wait a minute and try again.',
  503: 'This server does not offer Google login.',
};
const START_FAILED = 'Google login could not start.';
const DID_NOT_FINISH = 'Google login did not finish';

const continueButton = () => screen.queryByRole('button', { name: /Continue with Google|Opening Google…/ });
const expectAlert = (world: World) => {
  const alert = screen.queryByRole('alert');
  if (!world.alert) return expect(alert).toBeNull();
  expect(alert).toHaveTextContent(world.alert[0]);
  expect(alert).toHaveTextContent(world.alert[1]);
};
const expectNotSignedIn = (world: World) => {
  expect(isSignedIn(world.view.runtime.app.getSnapshot())).toBe(false);
  expect(world.calls.count('login')).toBe(world.exchanges);
};

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    checking: async () => {
      const w = world();
      expectState(w, 'checking');
      await w.calls.waiting('loadOptions');
      expect(continueButton()).toBeNull();
    },
    unavailable: async () => {
      const w = world();
      expectState(w, 'unavailable');
      await waitFor(() => expect(w.calls.held).toEqual([]));
      expect(continueButton()).toBeNull();
      // the password form is still there
      expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
      expect(w.calls.count('authorize')).toBe(0);
    },
    ready: async () => {
      const w = world();
      expectState(w, 'ready');
      await waitFor(() => expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeEnabled());
      expectAlert(w);
      expectNotSignedIn(w);
    },
    starting: async () => {
      const w = world();
      expectState(w, 'starting');
      await w.calls.waiting('authorize');
      if (w.opening.page === 'login') expect(screen.getByRole('button', { name: 'Opening Google…' })).toBeDisabled();
      else expect(screen.getByRole('status')).toHaveTextContent('Opening Google…');
      expect(screen.queryByRole('alert')).toBeNull();
      expectNotSignedIn(w);
    },
    leaving: async () => {
      const w = world();
      expectState(w, 'leaving');
      await waitFor(() => expect(w.leavePage).toHaveBeenCalledTimes(w.leaves));
      const url = new URL(w.leavePage.mock.calls.at(-1)![0]);
      const state = url.searchParams.get('state')!;
      expect(db.google.states.has(state)).toBe(true);
      // the tab keeps the state to expect back, and where to go after: on this site
      expect(readGoogleAttempt(location.origin)).toEqual({ state, returnTo: w.opening.lands });
      expectNotSignedIn(w);
    },
    exchanging: async () => {
      const w = world();
      expectState(w, 'exchanging');
      const request = await w.calls.waiting('login');
      expect(await request.json()).toEqual({ loginType: 'google-oauth', code: CODE, state: OUR_STATE });
      expect(screen.getByRole('status')).toHaveTextContent('Signing you in with Google…');
    },
    failed: async () => {
      const w = world();
      expectState(w, 'failed');
      expect(await screen.findByRole('alert')).toBeInTheDocument();
      expectAlert(w);
      expect(screen.getByRole('button', { name: 'Try again with Google' })).toBeEnabled();
      expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute(
        'href',
        w.opening.lands === '/' ? '/login' : `/login?redirect_url=${encodeURIComponent(w.opening.lands)}`,
      );
      // a refusal, someone else's state: nothing was exchanged, and the attempt is forgotten
      expectNotSignedIn(w);
      if (!w.last.includes('authorize') && !w.last.includes('by the browser')) expect(readGoogleAttempt(location.origin)).toBeNull();
    },
    signedIn: async () => {
      const w = world();
      expectState(w, 'signedIn');
      await waitFor(() => expect(w.view.url()).toBe(w.opening.lands));
      expect(isSignedIn(w.view.runtime.app.getSnapshot())).toBe(true);
      expect(w.view.runtime.app.getSnapshot().context.user?.id).toBe(w.userId);
      expect(w.calls.count('login')).toBe(1);
      expect(readGoogleAttempt(location.origin)).toBeNull();
    },
  },
  events: Object.fromEntries(
    [...new Set(EVENTS.map((event) => event.type))].map((type) => [
      type,
      async ({ event }: { event: ModelEvent }) => {
        const w = world();
        const src = answers.srcOf(event) as 'loadOptions' | 'authorize' | 'login' | null;
        const page = `${w.opening.page} page`;
        if (event.type === 'start') {
          w.last = 'click start';
          w.alert = null;
          await w.view.user.click(screen.getByRole('button', { name: /Continue with Google|Try again with Google/ }));
        } else if (event.type === 'page.restored') {
          w.last = `${page}: back from Google by the browser`;
          w.alert = w.opening.page === 'login' ? null : [DID_NOT_FINISH, REASON.cancelled!];
          window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
        } else if (src === 'loadOptions') {
          const google = (event.output as { google?: boolean } | undefined)?.google;
          w.last = event.type.startsWith('xstate.error') ? 'loadOptions 404' : `loadOptions ${google ? 'google' : 'none'}`;
          await w.calls.answer('loadOptions', event.type.startsWith('xstate.error') ? failResponse(404) : okResponse({ google }));
        } else if (src && event.type.startsWith('xstate.error')) {
          const { status, msg } = event.error as { status: number; msg: string };
          w.last = src === 'authorize' ? `${page}: authorize ${status}` : `login ${status}`;
          w.alert = [src === 'authorize' && w.opening.page === 'login' ? START_FAILED : DID_NOT_FINISH, REASON[status]!];
          if (src === 'login') w.exchanges += 1;
          await w.calls.answer(src, failResponse(status, msg));
        } else if (src) {
          // the fake server's own answer: a fresh state for Google's page, or the exchange of this tab's code
          w.last = `${src} ok`;
          if (src === 'authorize') w.leaves += 1;
          if (src === 'login') w.exchanges += 1;
          await w.calls.answer(src, undefined);
        }
      },
    ]),
  ),
});

describe('Google sign-in, paths generated from the production machine', () => {
  const holder: { world: World | null } = { world: null };

  it('reaches every state, asserts each, and takes every transition', () => {
    const reached = new Set(walks.flatMap((walk) => [...walk.reachedStates].map((value) => JSON.parse(value) as string)));
    // deciding and returned only choose the way on: no page ever rests there
    const declared = Object.keys(googleSignInMachine.root.states).filter((state) => state !== 'deciding' && state !== 'returned');
    expect([...reached].sort()).toEqual(declared.sort());
    for (const state of declared) expect(params(() => holder.world!).states, `no assertion for ${state}`).toHaveProperty(state);
        // login page: three answers to the question, start (with and without a refusal shown), three answers
    // to start, the back button; Google's return: the exchange's three answers, then start again from
    // each failure shown, and start's answers as above.
    expect(walks.map((walk) => walk.transitionCount)).toEqual([10, 11, 7, 8, 11]);
  });

  it.each(PLAYS.map((play) => [`${play.opening.name}: ${play.path.events.map((event) => answers.describe(event) ?? event.type).join(', ')}`, play] as const))(
    '%s',
    async (_name, { opening, path }) => {
      db.google.enabled = true;
      const { user } = seedUser({ nickname: 'Ada' });
      db.google.states.add(OUR_STATE);
      seedGoogleCode(CODE, user.id);
      if (opening.attempt) writeGoogleAttempt(opening.attempt);
      const calls = holdCalls({ loadOptions: endpoints.loginOptions, authorize: endpoints.googleAuthorize, login: endpoints.login });
      const leavePage = vi.fn<(url: string) => void>();
      const url = `${opening.page === 'login' ? '/login' : '/login/google'}${opening.query}`;
      const view = await renderWithRuntime(opening.page === 'login' ? <LoginScreen /> : <GoogleReturnScreen />, { url, leavePage });
      holder.world = { view, opening, userId: user.id, calls, leavePage, alert: null, leaves: 0, exchanges: 0, last: `open ${opening.name}` };
      if (opening.name.includes('said no')) holder.world.alert = [DID_NOT_FINISH, REASON.cancelled!];
      if (opening.name.includes('someone else')) holder.world.alert = [DID_NOT_FINISH, REASON.foreign!];
      await path.test(params(() => holder.world!));
    },
  );
});
