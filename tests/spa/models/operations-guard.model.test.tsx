import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import type { SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { endpoints } from '../../../src/contract/endpoints';
import { isSignedIn } from '../../../src/machines/app.machine';
import { operationsGuardMachine } from '../../../src/machines/operations-guard.machine';
import OperationsArea from '../../../src/screens/operations/operations-area';
import { getConversation } from '../../../src/services/api/conversations';
import { listTasks } from '../../../src/services/api/tasks';
import { getToken } from '../../../src/services/cookies';
import { db, seedUser } from '../../msw/db';
import { failBody } from '../../msw/handlers';
import { renderWithRuntime, type Screen } from '../harness';
import { actorAnswers, failResponse, holdCalls } from './held-calls';
import { productionPaths, type ModelEvent } from './production-paths';

/**
 * The operations area's door, with paths generated from the guard that ships. Whether a token is
 * stored is the one thing the machine asks the browser (its `hasToken` guard), so the machine is
 * walked twice, once per answer; every other step is an event: the session check's answers (held
 * by the fake API until the path gives them), the operator moving inside the area, and the session
 * ending in the middle of a visit (a 401, or the operator signing out). The page is judged by the
 * spec's rule: without a token, or when the check does not answer success, or once the session
 * ends, the operator lands on the login page with the exact address (path and query) to come back
 * to; nothing of the area shows before the check says yes.
 * A check the server never answered refuses nothing: the operator stays signed in where they are,
 * is told the server cannot be reached, and can check again.
 * A check answered 403 knows the person and refuses them the area (they are not an operator or
 * admin of an organisation): logging in again would change nothing, so they stay signed in where
 * they are, are told whom to ask, and are offered the way home; nothing of the area shows.
 */
type Snapshot = SnapshotFrom<typeof operationsGuardMachine>;

const OVERVIEW = '/kraken-operation?status=draft';
const DEEP = '/kraken-operation/task/edit/42?tab=images&draft=1';
const XHS_TASK = '/kraken-operation/task/xiaohongshu';

const answers = actorAnswers(operationsGuardMachine);
const EVENTS: ModelEvent[] = [
  { type: 'location.changed', pathname: XHS_TASK, search: '' } as ModelEvent,
  // the session ends: a call answers 401, or the operator signs out
  { type: 'session.ended', how: 'expired' } as ModelEvent,
  { type: 'session.ended', how: 'signedOut' } as ModelEvent,
  answers.done('verifySession', { userId: 'operator' }),
  answers.error('verifySession', 401, 'Not signed in'),
  // a check that answers, but not success (code 1): the door stays shut
  answers.error('verifySession', 200, 'Account locked'),
  // the server knows the person, and the area is not theirs (a member)
  answers.error('verifySession', 403, 'Not an operator'),
  // no answer at all (the server is down): the session is not refused, the operator can check again
  { ...answers.error('verifySession', 0), error: { status: 0, unreachable: true } },
  { type: 'retry' },
  // an admin takes the role away during the visit: the next operations call answers 403
  { type: 'access.withdrawn' } as ModelEvent,
];
const serializeState = (state: Snapshot) => `${JSON.stringify(state.value)}@${state.context.pathname}?${state.context.search}`;

const withToken = productionPaths(operationsGuardMachine.provide({ guards: { hasToken: () => true } }), {
  events: EVENTS,
  input: { pathname: '/kraken-operation', search: 'status=draft' },
  serializeState,
});
const withoutToken = productionPaths(operationsGuardMachine.provide({ guards: { hasToken: () => false } }), {
  events: EVENTS,
  input: { pathname: '/kraken-operation/task/edit/42', search: 'tab=images&draft=1' },
  serializeState,
});
const PLAYS = [
  ...withToken.paths.map((path) => ({ token: true, path })),
  // No token: the door shuts at once and nothing more can happen, so the path is its start.
  { token: false, path: withoutToken.pathThrough([]) },
];
console.log(`Operations guard (production machine): ${withToken.transitionCount + withoutToken.transitionCount} transitions; running ${PLAYS.length} paths`);

type World = {
  view: Screen;
  check: ReturnType<typeof holdCalls<'verifySession'>>;
  /** Where the operator is now, so where login must bring them back. */
  at: string;
  last: string;
  /** How many session checks the page has asked for: one per visit, one more per "Try again". */
  checks: number;
};

/** Where the page must be after what last happened. */
const EXPECTED_AFTER: Record<string, string> = {
  'open with a token': 'verifying',
  'open without a token': 'redirecting',
  'verifySession ok': 'allowed',
  'verifySession 401': 'redirecting',
  'verifySession 200': 'redirecting',
  'verifySession 0': 'unreachable',
  'verifySession 403': 'forbidden',
  'role withdrawn': 'forbidden',
  'try again': 'verifying',
  'move while checking': 'verifying',
  'move while unreachable': 'unreachable',
  'move while refused': 'forbidden',
  'move inside the area': 'allowed',
  'session expires': 'redirecting',
  'sign out': 'redirecting',
};
const expectState = (world: World, state: string) => expect(EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(state);

const area = (
  <Switch>
    <Route path="/kraken-operation" component={OperationsArea} />
    <Route path="/kraken-operation/*" component={OperationsArea} />
    <Route path="/login">
      <p>the login page</p>
    </Route>
  </Switch>
);

const loginUrl = (back: string) => `/login?source=kraken&redirect_url=${encodeURIComponent(back)}`;
const newTaskLink = () => screen.queryByRole('link', { name: 'New Xiaohongshu task' });
const expectNothingOfTheArea = () => {
  expect(newTaskLink()).toBeNull();
  expect(screen.queryByRole('heading', { name: 'Xiaohongshu task' })).toBeNull();
};

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    verifying: async () => {
      const w = world();
      expectState(w, 'verifying');
      await w.check.waiting('verifySession');
      expect(screen.getByRole('status')).toHaveTextContent(/check/i);
      expectNothingOfTheArea();
      expect(w.view.url()).toBe(w.at);
      expect(w.check.count('verifySession')).toBe(w.checks);
    },
    unreachable: async () => {
      const w = world();
      expectState(w, 'unreachable');
      expect(await screen.findByRole('alert')).toHaveTextContent('The server cannot be reached, so your session could not be checked. You are still logged in.');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
      expectNothingOfTheArea();
      expect(screen.queryByText('the login page')).toBeNull();
      expect(w.view.url()).toBe(w.at);
      // not a refusal: the person stays signed in, with their token
      expect(isSignedIn(w.view.runtime.app.getSnapshot())).toBe(true);
      expect(getToken()).not.toBeNull();
      expect(document.body.textContent).not.toMatch(/Failed to fetch|<no response>|\[GET\]/);
      expect(w.check.count('verifySession')).toBe(w.checks);
    },
    forbidden: async () => {
      const w = world();
      expectState(w, 'forbidden');
      expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission for the operations area. Ask an admin of your organisation');
      expect(screen.getByRole('link', { name: 'Back to the home page' })).toHaveAttribute('href', '/');
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
      expectNothingOfTheArea();
      expect(screen.queryByText('the login page')).toBeNull();
      expect(w.view.url()).toBe(w.at);
      // refused the area, not the session: still signed in, with their token
      expect(isSignedIn(w.view.runtime.app.getSnapshot())).toBe(true);
      expect(getToken()).not.toBeNull();
      expect(w.check.count('verifySession')).toBe(w.checks);
      // the account was read again: what the app shows follows the role the server says now
      if (w.last === 'role withdrawn') await waitFor(() => expect(w.view.runtime.app.getSnapshot().context.user?.role).toBe('member'));
    },
    allowed: async () => {
      const w = world();
      expectState(w, 'allowed');
      if (w.at === XHS_TASK) expect(await screen.findByRole('heading', { name: 'Xiaohongshu task' })).toBeInTheDocument();
      else expect(await screen.findByRole('link', { name: 'New Xiaohongshu task' })).toBeInTheDocument();
      expect(w.view.url()).toBe(w.at);
      // moving inside the area is not a new visit: the door was checked once (again only when asked)
      expect(w.check.count('verifySession')).toBe(w.checks);
      expect(screen.queryByText('the login page')).toBeNull();
    },
    redirecting: async () => {
      const w = world();
      expectState(w, 'redirecting');
      await waitFor(() => expect(w.view.url()).toBe(loginUrl(w.at)));
      expect(await screen.findByText('the login page')).toBeInTheDocument();
      expectNothingOfTheArea();
      if (w.last !== 'verifySession 200') {
        // the token is gone with the session; a check that said no on its own keeps it for the login page to replace
        expect(isSignedIn(w.view.runtime.app.getSnapshot())).toBe(false);
        expect(getToken()).toBeNull();
      }
    },
  },
  events: {
    'location.changed': async () => {
      const w = world();
      w.last = ['open with a token', 'move while checking', 'try again'].includes(w.last)
        ? 'move while checking'
        : ['verifySession 0', 'move while unreachable'].includes(w.last)
          ? 'move while unreachable'
          : ['verifySession 403', 'move while refused', 'role withdrawn'].includes(w.last)
            ? 'move while refused'
            : 'move inside the area';
      const link = newTaskLink();
      // the link while the area shows; the browser's own navigation (back, a bookmark) otherwise
      if (link) await w.view.user.click(link);
      else navigate(XHS_TASK);
      w.at = XHS_TASK;
    },
    'access.withdrawn': async () => {
      const w = world();
      w.last = 'role withdrawn';
      const id = String(w.view.runtime.app.getSnapshot().context.user!.id);
      db.users.get(id)!.role = 'member';
      await listTasks({}).catch(() => undefined);
    },
    retry: async () => {
      const w = world();
      w.last = 'try again';
      w.checks += 1;
      await w.view.user.click(screen.getByRole('button', { name: 'Try again' }));
    },
    'session.ended': async ({ event }: { event: ModelEvent }) => {
      const w = world();
      if (event.how === 'signedOut') {
        w.last = 'sign out';
        // what the user menu's "Log out" sends
        w.view.runtime.app.send({ type: 'session.signOut' });
        return;
      }
      w.last = 'session expires';
      db.sessions.clear();
      await getConversation('conv-1').catch(() => undefined);
    },
    ...Object.fromEntries(
      EVENTS.filter((event) => answers.srcOf(event)).map((event) => [
        event.type,
        async ({ event: step }: { event: ModelEvent }) => {
          const w = world();
          w.last = answers.describe(step)!;
          if (!step.type.startsWith('xstate.error')) return w.check.answer('verifySession', undefined);
          const { status, msg } = step.error as { status: number; msg: string };
          if (status === 0) return w.check.answer('verifySession', HttpResponse.error());
          return w.check.answer('verifySession', status === 200 ? HttpResponse.json(failBody(msg)) : failResponse(status, msg));
        },
      ]),
    ),
  },
});

const describePath = ({ token, path }: (typeof PLAYS)[number]) =>
  [
    token ? 'with a token' : 'without a token',
    ...path.events.map((event) => answers.describe(event) ?? (event.type === 'session.ended' ? `session ended (${String(event.how)})` : event.type)),
  ].join(', ');

describe('operations guard, paths generated from the production machine', () => {
  const holder: { world: World | null } = { world: null };

  it('reaches every state, asserts each, and takes every transition', () => {
    const reached = new Set([...withToken.reachedStates, ...withoutToken.reachedStates].map((value) => JSON.parse(value) as string));
    const declared = Object.keys(operationsGuardMachine.root.states).filter((state) => state !== 'entering');
    expect([...reached].sort()).toEqual(declared.sort());
    for (const state of declared) expect(params(() => holder.world!).states, `no assertion for ${state}`).toHaveProperty(state);
    // Before and after a move, the session can end two ways (a 401, a sign-out) wherever the door
    // stands; besides, checking: a move and five answers each; in the area: a move each;
    // unreachable: a move and "Try again" each; refused: a move each; in the area, the role taken
    // away, each. Without a token the door is shut at once.
    expect(withToken.transitionCount).toBe(2 * 4 * 2 + 2 * 6 + 2 + 2 * 2 + 2 + 2);
    expect(withoutToken.transitionCount).toBe(0);
  });

  it.each(PLAYS.map((play) => [describePath(play), play] as const))('%s', async (_name, { token, path }) => {
    const { user } = seedUser();
    const check = holdCalls({ verifySession: endpoints.operationsSession });
    const at = token ? OVERVIEW : DEEP;
    const view = await renderWithRuntime(area, { url: at, ...(token ? { signedInAs: user } : {}) });
    holder.world = { view, check, at, last: token ? 'open with a token' : 'open without a token', checks: token ? 1 : 0 };
    await path.test(params(() => holder.world!));
  });
});
