import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { endpoints } from '../../contract/endpoints';
import type { Session } from '../../contract/users';
import { sessionsMachine } from '../../machines/sessions.machine';
import { seedUser } from '../../../tests/msw/db';
import { recordRequests, type SeenRequest } from '../../../tests/msw/server';
import { renderWithRuntime, type Screen } from '../../../tests/spa/harness';
import { holdRequests, invokeOf, responseFor } from '../../../tests/spa/models/held-calls';
import { describeEvents, productionPaths, type ModelEvent } from '../../../tests/spa/models/production-paths';
import { SessionsPanel } from './sessions-panel';

/**
 * The account's sessions on paths generated from the machine that ships: the lists the server can
 * give (this browser and two others, or this browser alone), its failures, and every sign-out
 * the person can ask for. Each path is played on the real panel with the fake API holding every
 * request until the path says how the server answers it. This browser is never signed out from
 * here, and nothing is signed out but by a click.
 */
type Snapshot = SnapshotFrom<typeof sessionsMachine>;

const at = '2025-05-01T10:00:00.000Z';
const session = (id: string, browser: string, os: string, current = false): Session => ({
  id, device: { browser, os }, address: '203.0.113.7', method: 'password', signedInAt: at, lastUsedAt: at, current,
});
const HERE = session('session-here', 'Firefox 133', 'Linux', true);
const PHONE = session('session-phone', 'Safari 17', 'iOS 17');
const TABLET = session('session-tablet', 'Chrome 131', 'Android 14');
const LISTS = { three: [HERE, PHONE, TABLET], alone: [HERE] } as const;
type ListName = keyof typeof LISTS;

const LIST = 'xstate.done.actor.listSessions';
const SERVER_ANSWERS: ModelEvent[] = [
  { type: LIST, output: LISTS.three },
  { type: LIST, output: LISTS.alone },
  { type: 'xstate.error.actor.listSessions', error: { status: 500 } },
  { type: 'xstate.done.actor.revokeSession' },
  { type: 'xstate.error.actor.revokeSession', error: { status: 404 } },
  { type: 'xstate.error.actor.revokeSession', error: { status: 503 } },
  { type: 'xstate.done.actor.revokeOthers', output: { revoked: 2 } },
  { type: 'xstate.error.actor.revokeOthers', error: { status: 503 } },
];
const PERSON: ModelEvent[] = [{ type: 'revoke', id: PHONE.id }, { type: 'revoke', id: HERE.id }, { type: 'revokeOthers' }, { type: 'retry' }];

const listName = (sessions: readonly Session[]) => (sessions.length === 0 ? 'none' : sessions.length === 1 ? 'alone' : 'three');
/** What the panel shows: where it is, which list, and whether a refused sign-out is said. */
const serializeState = (state: Snapshot) => `${JSON.stringify(state.value)} ${listName(state.context.sessions)}${state.context.failure ? ' +failure' : ''}`;
const { paths, transitionCount } = productionPaths(sessionsMachine, { events: [...SERVER_ANSWERS, ...PERSON], serializeState });

const CALLS = { listSessions: endpoints.sessionList, revokeSession: endpoints.sessionRevoke, revokeOthers: endpoints.sessionRevokeOthers };

type World = {
  view: Screen;
  answer: ReturnType<typeof holdRequests>['answer'];
  wire: { lists: SeenRequest[]; revokes: SeenRequest[]; revokeOthers: SeenRequest[] };
  /** What the person and the server have done so far. */
  count: { lists: number; revokeClicks: number; othersClicks: number };
  /** The list the server last gave, if any. */
  shown: ListName | null;
  last: string;
};

/** Where the panel must be after what last happened, from the product's rules. */
const EXPECTED_AFTER: Record<string, string> = {
  start: 'loading',
  'list three': 'ready',
  'list alone': 'ready',
  'list 500': 'loadFailed',
  'click try again': 'loading',
  'click sign out Safari 17 on iOS 17': 'revoking',
  'click sign out all others': 'revokingOthers',
  // after a sign-out the list is read again, so what is shown is what the server holds
  'revokeSession ok': 'loading',
  // already signed out elsewhere: the list was only out of date
  'revokeSession 404': 'loading',
  'revokeSession 503': 'ready',
  'revokeOthers ok': 'loading',
  'revokeOthers 503': 'ready',
};
const expectState = (world: World, state: string) => expect(EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(state);

const panel = () => screen.getByRole('region', { name: 'Where you are logged in' });
const rows = () => screen.queryAllByTestId('session-row');
const othersButton = () => screen.queryByRole('button', { name: 'Log out all other sessions' });
const phoneButton = () => screen.queryByRole('button', { name: 'Log out Safari 17 on iOS 17' });

/** The wire carries exactly the clicks, for the session clicked, and one list per reason to read it. */
const wireMatches = async (world: World) => {
  expect(world.wire.revokes).toHaveLength(world.count.revokeClicks);
  for (const request of world.wire.revokes) expect(JSON.parse(await request.text)).toEqual({ id: PHONE.id });
  expect(world.wire.revokeOthers).toHaveLength(world.count.othersClicks);
  await waitFor(() => expect(world.wire.lists).toHaveLength(world.count.lists));
};

const expectRows = (list: ListName) => {
  expect(rows()).toHaveLength(LISTS[list].length);
  // this browser is marked and has no sign-out of its own
  const here = rows().find((row) => within(row).queryByText('This device'))!;
  expect(within(here).queryByRole('button')).toBeNull();
};

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    loading: async () => {
      expectState(world(), 'loading');
      await wireMatches(world());
      if (world().shown) {
        // the list stays while it is read again
        expectRows(world().shown!);
        expect(rows()[0]!.closest('ul')).toHaveAttribute('aria-busy', 'true');
      } else {
        expect(within(panel()).getByRole('status')).toHaveTextContent('Loading your sessions…');
        expect(rows()).toHaveLength(0);
      }
      if (world().last === 'revokeSession ok') expect(await screen.findByText('Session logged out')).toBeInTheDocument();
      if (world().last === 'revokeOthers ok') expect(await screen.findByText('Logged out of 2 other sessions')).toBeInTheDocument();
      if (world().last === 'revokeSession 404') expect(screen.queryByText('Session logged out')).toBeNull();
    },
    loadFailed: async () => {
      expectState(world(), 'loadFailed');
      const alert = await within(panel()).findByRole('alert');
      expect(alert).toHaveTextContent('Your sessions could not be loaded.');
      expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(rows()).toHaveLength(0);
      await wireMatches(world());
    },
    ready: async () => {
      expectState(world(), 'ready');
      const list = world().shown!;
      await waitFor(() => expectRows(list));
      expect(within(panel()).queryByRole('status')).toBeNull();
      if (list === 'three') {
        expect(phoneButton()).toBeEnabled();
        expect(phoneButton()).not.toHaveAttribute('aria-busy');
        expect(othersButton()).toBeEnabled();
      } else {
        expect(othersButton()).toBeNull();
      }
      // a refused sign-out says so, in the person's language, and keeps the list
      const refused = world().last.endsWith(' 503');
      if (refused) expect(within(panel()).getByRole('alert')).toHaveTextContent('The session could not be logged out.');
      else expect(within(panel()).queryByRole('alert')).toBeNull();
      await wireMatches(world());
    },
    revoking: async () => {
      expectState(world(), 'revoking');
      await waitFor(() => expect(phoneButton()).toHaveAttribute('aria-busy', 'true'));
      expect(phoneButton()).toBeDisabled();
      // no second sign-out while one runs
      expect(othersButton()?.hasAttribute('disabled') ?? true).toBe(true);
      expect(within(panel()).queryByRole('alert')).toBeNull();
      await wireMatches(world());
    },
    revokingOthers: async () => {
      expectState(world(), 'revokingOthers');
      await waitFor(() => expect(othersButton()).toHaveAttribute('aria-busy', 'true'));
      expect(othersButton()).toBeDisabled();
      expect(phoneButton()).toBeDisabled();
      expect(within(panel()).queryByRole('alert')).toBeNull();
      await wireMatches(world());
    },
  },
  events: {
    ...Object.fromEntries(
      [...new Set(SERVER_ANSWERS.map((event) => event.type))].map((type) => [
        type,
        async ({ event }: { event: ModelEvent }) => {
          const call = invokeOf(event);
          if ('error' in event) {
            world().last = `${call} ${(event.error as { status: number }).status}`;
            await world().answer(call, responseFor({ error: event.error as { status: number } }));
            return;
          }
          if (call === 'listSessions') {
            world().shown = listName(event.output as Session[]) as ListName;
            world().last = `list ${world().shown}`;
          } else {
            world().last = `${call} ok`;
            // the list is read again after each sign-out the server did (or found already done)
          }
          await world().answer(call, responseFor({ output: event.output }));
        },
      ]),
    ),
    'xstate.error.actor.listSessions': async () => {
      world().last = 'list 500';
      await world().answer('listSessions', responseFor({ error: { status: 500 } }));
    },
    revoke: async ({ event }) => {
      const { id } = event as ModelEvent & { id: string };
      // the person can only click a sign-out that is offered: this browser has none
      expect(id).toBe(PHONE.id);
      world().count.revokeClicks += 1;
      world().last = 'click sign out Safari 17 on iOS 17';
      await world().view.user.click(phoneButton()!);
    },
    revokeOthers: async () => {
      world().count.othersClicks += 1;
      world().last = 'click sign out all others';
      await world().view.user.click(othersButton()!);
    },
    retry: async () => {
      world().last = 'click try again';
      await world().view.user.click(screen.getByRole('button', { name: 'Try again' }));
    },
  },
});

/** Each reason to read the list: opening, trying again, and each sign-out done. */
const LIST_READS = new Set(['click try again', 'revokeSession ok', 'revokeSession 404', 'revokeOthers ok']);

describe('the sessions panel, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);
  const counted = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
    states: testParams.states,
    events: Object.fromEntries(
      Object.entries(testParams.events!).map(([type, play]) => [
        type,
        async (step: Parameters<NonNullable<typeof play>>[0]) => {
          await (play as (step: unknown) => Promise<void>)(step);
          if (LIST_READS.has(world().last)) world().count.lists += 1;
        },
      ]),
    ),
  });

  it('reaches every state and takes every transition', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    const declared = Object.keys(sessionsMachine.root.states);
    expect([...reached].map((value) => JSON.parse(value) as string).sort()).toEqual(declared.sort());
    // loading: 3 answers (twice: on opening, and with a list shown); loadFailed: try again (twice); ready
    // with three sessions: sign out one or all others (and again after a refusal); revoking: 3
    // answers; revokingOthers: 2.
    expect(transitionCount).toBe(17);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describeEvents(path.events, (event) => (Array.isArray(event.output) ? listName(event.output as Session[]) : 'ok')), path] as const))(
    '%s',
    async (_name, path) => {
      const { user } = seedUser({ nickname: 'Ada' });
      const wire = {
        lists: recordRequests(endpoints.sessionList.path),
        revokes: recordRequests(endpoints.sessionRevoke.path),
        revokeOthers: recordRequests(endpoints.sessionRevokeOthers.path),
      };
      const { answer } = holdRequests(CALLS);
      const view = await renderWithRuntime(<SessionsPanel />, { url: '/account', signedInAs: user });
      world = { view, answer, wire, count: { lists: 1, revokeClicks: 0, othersClicks: 0 }, shown: null, last: 'start' };
      await path.test(counted(() => world!));
    },
  );
});
