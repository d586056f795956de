import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMachine, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestParam } from 'xstate/graph';
import { TOKEN_COOKIE } from '../../../src/contract/auth';
import { endpoints } from '../../../src/contract/endpoints';
import { isSignedIn } from '../../../src/machines/app.machine';
import LoginScreen from '../../../src/screens/login/login-screen';
import { db, seedUser } from '../../msw/db';
import { recordRequests, type SeenRequest } from '../../msw/server';
import { renderWithRuntime, type Screen } from '../harness';
import { coverageGaps, NO_GAPS, planPaths, transitionsOf } from './model-coverage';

/**
 * The password form as a person meets it: submit too early, type a wrong password, be told,
 * fix it, get in, and land where the login page was asked to send them (if that is on-site).
 */
const passwordLogin = createMachine({
  id: 'passwordLogin',
  types: {} as { events: { type: 'TYPE_RIGHT' } | { type: 'TYPE_WRONG' } | { type: 'SUBMIT' } },
  initial: 'blank',
  states: {
    blank: { on: { TYPE_RIGHT: 'filledRight', TYPE_WRONG: 'filledWrong', SUBMIT: 'missingFields' } },
    missingFields: { on: { TYPE_RIGHT: 'filledRight', TYPE_WRONG: 'filledWrong' } },
    filledWrong: { on: { SUBMIT: 'refused', TYPE_RIGHT: 'filledRight' } },
    refused: { on: { TYPE_RIGHT: 'filledRight' } },
    filledRight: { on: { SUBMIT: 'signedIn' } },
    signedIn: { type: 'final' },
  },
});

const model = createTestModel(passwordLogin);
const { paths, transitionCount } = planPaths('password login', model, ', once per redirect_url case');

const ACCOUNT = 'ada@example.com';
const WRONG = 'not-the-password';

/** Where the login page was asked to return, and where it must really go. */
const redirects = [
  { label: 'a safe operations path', redirectUrl: '/kraken-operation/task/edit/7?tab=images', lands: '/kraken-operation/task/edit/7?tab=images' },
  { label: 'a protocol-relative host', redirectUrl: '//evil.example/phish', lands: '/' },
  { label: 'no redirect_url', redirectUrl: null, lands: '/' },
];

type World = { view: Screen; password: string; userId: string; lands: string; logins: SeenRequest[]; submits: number; lastTyped: string };

const account = () => screen.getByLabelText('Phone number or e-mail');
const passwordField = () => screen.getByLabelText('Password');
const hasTokenCookie = () => document.cookie.split(';').some((part) => part.trim().startsWith(`${TOKEN_COOKIE}=`));

const expectStillOnLogin = (world: World) => {
  expect(world.view.url().startsWith('/login')).toBe(true);
  expect(isSignedIn(world.view.runtime.app.getSnapshot())).toBe(false);
  expect(hasTokenCookie()).toBe(false);
};

const typeCredentials = async (world: World, password: string) => {
  await world.view.user.clear(account());
  await world.view.user.type(account(), ACCOUNT);
  await world.view.user.clear(passwordField());
  await world.view.user.type(passwordField(), password);
  world.lastTyped = password;
};

const testParams = (world: () => World): TestParam<SnapshotFrom<typeof passwordLogin>, EventFromLogic<typeof passwordLogin>> => ({
  states: {
    blank: () => {
      expect(account()).toHaveValue('');
      expect(passwordField()).toHaveValue('');
      expect(screen.queryByRole('alert')).toBeNull();
      expectStillOnLogin(world());
    },
    missingFields: () => {
      expect(screen.getByRole('alert')).toHaveTextContent('Enter your phone number or e-mail and your password');
      expect(world().logins).toHaveLength(0);
      expectStillOnLogin(world());
    },
    filledWrong: () => {
      expect(account()).toHaveValue(ACCOUNT);
      expect(passwordField()).toHaveValue(WRONG);
      expectStillOnLogin(world());
    },
    filledRight: () => {
      expect(account()).toHaveValue(ACCOUNT);
      expect(passwordField()).toHaveValue(world().password);
      expectStillOnLogin(world());
    },
    refused: async () => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Login Failed');
      expect(alert).toHaveTextContent('Please try later');
      // nothing typed is lost
      expect(account()).toHaveValue(ACCOUNT);
      expect(passwordField()).toHaveValue(WRONG);
      expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
      expect(world().logins).toHaveLength(world().submits);
      expectStillOnLogin(world());
    },
    signedIn: async () => {
      await expect.poll(world().view.url).toBe(world().lands);
      expect(isSignedIn(world().view.runtime.app.getSnapshot())).toBe(true);
      expect(world().view.runtime.app.getSnapshot().context.user?.id).toBe(world().userId);
      const token = decodeURIComponent(
        document.cookie
          .split(';')
          .map((part) => part.trim())
          .find((part) => part.startsWith(`${TOKEN_COOKIE}=`))!
          .slice(TOKEN_COOKIE.length + 1),
      );
      expect(db.sessions.get(token)).toBe(world().userId);
      expect(world().logins).toHaveLength(world().submits);
    },
  },
  events: {
    TYPE_RIGHT: () => typeCredentials(world(), world().password),
    TYPE_WRONG: () => typeCredentials(world(), WRONG),
    SUBMIT: async () => {
      // the form only reaches the server with both fields filled
      if (world().lastTyped) world().submits += 1;
      await world().view.user.click(screen.getByRole('button', { name: 'Log in' }));
    },
  },
});

describe('password login, model-based', () => {
  let world: World | null = null;
  const params = testParams(() => world!);

  it('has an assertion for every reachable state and an executor for every event', () => {
    expect(coverageGaps(passwordLogin, model, params)).toEqual(NO_GAPS);
    expect(new Set(paths.flatMap(transitionsOf)).size).toBe(transitionCount);
  });

  describe.each(redirects)('with $label', ({ redirectUrl, lands }) => {
    it.each(paths.map((path) => [path.description, path]))('%s', async (_description, path) => {
      const { user, password } = seedUser({ username: ACCOUNT });
      const logins = recordRequests(endpoints.login.path);
      const query = redirectUrl === null ? '' : `?source=kraken&redirect_url=${encodeURIComponent(redirectUrl)}`;
      const view = await renderWithRuntime(<LoginScreen />, { url: `/login${query}` });
      world = { view, password, userId: user.id, lands, logins, submits: 0, lastTyped: '' };
      await path.test(params);
    });
  });
});
