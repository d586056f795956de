import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { TOKEN_COOKIE } from '../../../src/contract/auth';
import { endpoints } from '../../../src/contract/endpoints';
import { isSignedIn } from '../../../src/machines/app.machine';
import { passwordLoginMachine } from '../../../src/machines/password-login.machine';
import LoginScreen from '../../../src/screens/login/login-screen';
import { db, seedUser } from '../../msw/db';
import { renderWithRuntime, type Screen } from '../harness';
import { actorAnswers, failResponse, holdCalls } from './held-calls';
import { productionPaths, type ModelEvent } from './production-paths';

/**
 * The password form's paths are generated from the machine that ships: every transition it can
 * take (typing, submitting too early, the server's refusals and its yes) is the last step of a
 * path played on the real login screen, with the fake API holding the login call until the path
 * answers it. Where the page must be is written below from the product's rules, not read from
 * the machine: a refused login shows an error and keeps what was typed; only a login with both
 * fields reaches the server; once in, the page goes to redirect_url only if it is on this site.
 */
type Snapshot = SnapshotFrom<typeof passwordLoginMachine>;

const ACCOUNT = 'ada@example.com';
const PASSWORD = 'correct horse battery';
const answers = actorAnswers(passwordLoginMachine);

type Typing = ModelEvent & { field: 'username' | 'password'; value: string };
const typing = (field: Typing['field'], value: string): Typing => ({ type: 'field.change', field, value });
const PERSON: ModelEvent[] = [typing('username', ACCOUNT), typing('password', PASSWORD), { type: 'submit' }];
const SERVER: ModelEvent[] = [
  answers.done('login', { token: 't', userInfo: { id: 'u', username: ACCOUNT, nickname: 'Ada', avatar: '' } }),
  answers.error('login', 401, 'Wrong account or password'),
  answers.error('login', 429, 'Too many attempts'),
];

/** What the person can tell apart: the step, which fields hold something, and what the form says. */
const serializeState = (state: Snapshot) =>
  `${JSON.stringify(state.value)}|${state.context.username ? 'account' : ''}+${state.context.password ? 'password' : ''}|${state.context.failure?.reason ?? ''}`;
const { paths, transitionCount, reachedStates } = productionPaths(passwordLoginMachine, { events: [...PERSON, ...SERVER], serializeState });
console.log(`Password login (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

type Alert = 'none' | 'missing' | 'wrong' | 'tooMany';
type World = {
  view: Screen;
  userId: string;
  login: ReturnType<typeof holdCalls<'login'>>;
  typed: { username: string; password: string };
  /** What the form must say now, by the product's rules. */
  alert: Alert;
  /** Submits made with both fields filled: the only ones that may reach the server. */
  sent: number;
  lands: string;
  last: string;
};

/** Where the page must be after what last happened. */
const EXPECTED_AFTER: Record<string, string> = {
  start: 'editing',
  'type account': 'editing',
  'type password': 'editing',
  'submit with both': 'submitting',
  'submit without account': 'editing',
  'submit without password': 'editing',
  'submit with neither': 'editing',
  'login ok': 'succeeded',
  'login 401': 'editing',
  'login 429': 'editing',
};
const expectState = (world: World, state: string) => expect(EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(state);

const accountField = () => screen.getByLabelText('Phone number or e-mail');
const passwordField = () => screen.getByLabelText('Password');
const tokenCookie = () =>
  document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${TOKEN_COOKIE}=`));

const expectStillOnLogin = (world: World) => {
  expect(world.view.url().startsWith('/login')).toBe(true);
  expect(isSignedIn(world.view.runtime.app.getSnapshot())).toBe(false);
  expect(tokenCookie()).toBeUndefined();
};

const ALERT_TEXT: Record<Exclude<Alert, 'none'>, string[]> = {
  missing: ['Enter your phone number or e-mail and your password'],
  // A wrong password says so; only the rate limit says to wait.
  wrong: ['Login failed', 'The account or password is wrong.'],
  tooMany: ['Login failed', 'Too many attempts. Please wait a minute and try again.'],
};

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    editing: async () => {
      const w = world();
      expectState(w, 'editing');
      // nothing typed is lost, whatever happened
      expect(accountField()).toHaveValue(w.typed.username);
      expect(passwordField()).toHaveValue(w.typed.password);
      await waitFor(() => expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled());
      const alert = screen.queryByRole('alert');
      if (w.alert === 'none') expect(alert).toBeNull();
      else for (const text of ALERT_TEXT[w.alert]) expect(alert).toHaveTextContent(text);
      if (w.alert === 'wrong') expect(alert).not.toHaveTextContent(/later|wait/i);
      expect(w.login.count('login')).toBe(w.sent);
      expectStillOnLogin(w);
    },
    submitting: async () => {
      const w = world();
      expectState(w, 'submitting');
      const request = await w.login.waiting('login');
      expect(await request.json()).toMatchObject({ username: ACCOUNT, password: PASSWORD });
      expect(screen.getByRole('button', { name: 'Logging in…' })).toBeDisabled();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(w.login.count('login')).toBe(w.sent);
      expectStillOnLogin(w);
    },
    succeeded: async () => {
      const w = world();
      expectState(w, 'succeeded');
      await waitFor(() => expect(w.view.url()).toBe(w.lands));
      expect(isSignedIn(w.view.runtime.app.getSnapshot())).toBe(true);
      expect(w.view.runtime.app.getSnapshot().context.user?.id).toBe(w.userId);
      expect(db.sessions.get(decodeURIComponent(tokenCookie()!.slice(TOKEN_COOKIE.length + 1)))).toBe(w.userId);
      expect(w.login.count('login')).toBe(w.sent);
    },
  },
  events: {
    'field.change': async ({ event }) => {
      const w = world();
      const { field, value } = event as Typing;
      const input = field === 'username' ? accountField() : passwordField();
      await w.view.user.clear(input);
      await w.view.user.type(input, value);
      w.typed[field] = value;
      w.last = field === 'username' ? 'type account' : 'type password';
    },
    submit: async () => {
      const w = world();
      const { username, password } = w.typed;
      if (username.trim() && password) {
        w.last = 'submit with both';
        w.sent += 1;
        w.alert = 'none';
      } else {
        w.last = username.trim() ? 'submit without password' : password ? 'submit without account' : 'submit with neither';
        w.alert = 'missing';
      }
      await w.view.user.click(screen.getByRole('button', { name: 'Log in' }));
    },
    ...Object.fromEntries(
      SERVER.map((event) => [
        event.type,
        async ({ event: step }: { event: ModelEvent }) => {
          const w = world();
          w.last = answers.describe(step)!;
          if (step.type.startsWith('xstate.error')) {
            const { status, msg } = step.error as { status: number; msg: string };
            w.alert = status === 429 ? 'tooMany' : 'wrong';
            await w.login.answer('login', failResponse(status, msg));
          } else {
            // the fake server's own answer to the right account and password
            await w.login.answer('login', undefined);
          }
        },
      ]),
    ),
  },
});

/** Where the login page was asked to return, and where it must really go: on this site only. */
const REDIRECTS = [
  { label: 'a safe operations path', redirectUrl: '/kraken-operation/task/edit/7?tab=images', lands: '/kraken-operation/task/edit/7?tab=images' },
  { label: 'a protocol-relative host', redirectUrl: '//evil.example/phish', lands: '/' },
  { label: 'a backslash host', redirectUrl: '/\\evil.example', lands: '/' },
  { label: 'a tab before the host', redirectUrl: '/\t/evil.example', lands: '/' },
  { label: 'another site', redirectUrl: 'https://evil.example/', lands: '/' },
  { label: 'no redirect_url', redirectUrl: null, lands: '/' },
];

const play = async (path: (typeof paths)[number], redirect: (typeof REDIRECTS)[number], holder: { world: World | null }) => {
  const { user } = seedUser({ username: ACCOUNT, password: PASSWORD });
  const login = holdCalls({ login: endpoints.login });
  const query = redirect.redirectUrl === null ? '' : `?source=kraken&redirect_url=${encodeURIComponent(redirect.redirectUrl)}`;
  const view = await renderWithRuntime(<LoginScreen />, { url: `/login${query}` });
  holder.world = { view, userId: user.id, login, typed: { username: '', password: '' }, alert: 'none', sent: 0, lands: redirect.lands, last: 'start' };
  await path.test(params(() => holder.world!));
};

const describePath = (path: (typeof paths)[number]) =>
  path.events.map((event) => answers.describe(event) ?? (event.type === 'field.change' ? `type ${(event as Typing).field}` : event.type)).join(', ');

describe('password login, paths generated from the production machine', () => {
  const holder: { world: World | null } = { world: null };

  it('reaches every state, asserts each, and takes every transition', () => {
    const declared = Object.keys(passwordLoginMachine.root.states);
    expect([...reachedStates].map((value) => JSON.parse(value) as string).sort()).toEqual(declared.sort());
    for (const state of declared) expect(params(() => holder.world!).states, `no assertion for ${state}`).toHaveProperty(state);
    // editing, by what is filled and what the form says (9 of them): type account, type password, submit;
    // submitting: the login's yes and two refusals.
    expect(transitionCount).toBe(30);
  });

  const signingIn = paths.filter((path) => path.state.matches('succeeded'));
  it.each(paths.filter((path) => !signingIn.includes(path)).map((path) => [describePath(path), path] as const))('%s', (_name, path) =>
    play(path, REDIRECTS[0]!, holder),
  );
  describe.each(REDIRECTS)('redirect_url: $label', (redirect) => {
    it.each(signingIn.map((path) => [describePath(path), path] as const))('%s', (_name, path) => play(path, redirect, holder));
  });
});
