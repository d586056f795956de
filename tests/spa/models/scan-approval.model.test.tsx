import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { endpoints } from '../../../src/contract/endpoints';
import type { ScanApproval, ScanDecision } from '../../../src/contract/users';
import { scanApprovalMachine } from '../../../src/machines/scan-approval.machine';
import ScanApprovalScreen from '../../../src/screens/scan-approval/scan-approval-screen';
import { seedUser } from '../../msw/db';
import { failBody } from '../../msw/handlers';
import { recordRequests, server, type SeenRequest } from '../../msw/server';
import { renderWithRuntime, type Screen } from '../harness';
import { describeEvents, productionPaths } from './production-paths';

/**
 * The approval page's paths are generated from the machine that ships (not from a model of it):
 * every answer the server can give to each of its three calls is an event of the traversal, and
 * each path is then played on the real screen, with the fake API holding every request until the
 * path says how the server answers it. The states are checked on screen and on the wire: above
 * all, no approval is ever sent but by a click on Approve.
 */
type Snapshot = SnapshotFrom<typeof scanApprovalMachine>;
type AnyEvent = EventObject & { output?: unknown; error?: unknown };

const SCAN_ID = 'scan-model-0001';
const ticket = (status: ScanDecision): ScanApproval => ({
  status,
  device: { browser: 'Firefox 133', os: 'Linux' },
  address: '203.0.113.7',
  createdAt: new Date(Date.now() - 20_000).toISOString(),
  expiresAt: new Date(Date.now() + 160_000).toISOString(),
});
const httpError = (status: number) => ({ status });

/** What the server may answer, as the events the machine receives. */
const SERVER_ANSWERS: AnyEvent[] = [
  ...(['waiting', 'approved', 'denied', 'expired'] as const).map((status) => ({ type: 'xstate.done.actor.fetchTicket', output: ticket(status) })),
  { type: 'xstate.error.actor.fetchTicket', error: httpError(404) },
  { type: 'xstate.error.actor.fetchTicket', error: httpError(500) },
  ...(['approveTicket', 'denyTicket'] as const).flatMap((id): AnyEvent[] => [
    { type: `xstate.done.actor.${id}` },
    ...[410, 409, 404, 500].map((status) => ({ type: `xstate.error.actor.${id}`, error: httpError(status) })),
  ]),
];
const PERSON: AnyEvent[] = [{ type: 'approve' }, { type: 'deny' }, { type: 'retry' }];

const input = { scanId: SCAN_ID, signedIn: true };
/** One string per state the person can tell apart: where the page is, and whether a failure is shown. */
const serializeState = (state: Snapshot) => `${JSON.stringify(state.value)}${state.context.failure ? '+failure' : ''}`;
const { paths, transitionCount } = productionPaths(scanApprovalMachine, { events: [...SERVER_ANSWERS, ...PERSON], input, serializeState });
console.log(`Scan approval (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

/** "fetchTicket → waiting, approve, approveTicket → 500": what happens, without the context. */
const describePath = (path: (typeof paths)[number]) => describeEvents(path.events, (event) => (event.output as ScanApproval | undefined)?.status ?? 'ok');

const CALLS = {
  fetchTicket: endpoints.userScanTicket,
  approveTicket: endpoints.userUpdateScanId,
  denyTicket: endpoints.userDenyScanId,
} as const;
type CallName = keyof typeof CALLS;

type World = {
  view: Screen;
  held: { call: CallName; answer: (response: Response) => void }[];
  approvals: SeenRequest[];
  denials: SeenRequest[];
  clicks: { approve: number; deny: number };
  /** The last thing that happened: a click, or the server's answer to a call. */
  last: string;
};

/**
 * Where the page must be after what last happened, written from the product's rules and not read
 * from the machine, so a machine that goes wrong cannot make its own paths pass.
 */
const EXPECTED_AFTER: Record<string, string> = {
  start: 'loading',
  'fetchTicket waiting': 'review',
  'fetchTicket approved': 'approved',
  'fetchTicket denied': 'denied',
  'fetchTicket expired': 'expired',
  'fetchTicket 404': 'unknown',
  'fetchTicket 500': 'loadFailed',
  'click approve': 'approving',
  'click deny': 'denying',
  'click retry': 'loading',
  'approveTicket ok': 'approved',
  'denyTicket ok': 'denied',
  'approveTicket 410': 'expired',
  'denyTicket 410': 'expired',
  'approveTicket 409': 'loading',
  'denyTicket 409': 'loading',
  'approveTicket 404': 'unknown',
  'denyTicket 404': 'unknown',
  'approveTicket 500': 'review',
  'denyTicket 500': 'review',
};
const expectState = (world: World, state: string) => expect(EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(state);

/** Every call of the page waits here until the path says what the server answers. */
const holdCalls = (world: Pick<World, 'held'>) => {
  server.use(
    ...(Object.entries(CALLS) as [CallName, (typeof CALLS)[CallName]][]).map(([call, endpoint]) =>
      (endpoint.method === 'GET' ? http.get : http.post)(endpoint.path, () => new Promise<Response>((answer) => world.held.push({ call, answer }))),
    ),
  );
};

const answer = async (world: World, call: CallName, response: Response) => {
  await waitFor(() => expect(world.held.map((held) => held.call)).toContain(call));
  const index = world.held.findIndex((held) => held.call === call);
  world.held.splice(index, 1)[0]!.answer(response);
};

const asResponse = (event: AnyEvent): Response => {
  if (event.type.startsWith('xstate.error')) {
    const { status } = event.error as { status: number };
    return HttpResponse.json(failBody(`server said ${status}`), { status });
  }
  return HttpResponse.json({ code: 0, msg: 'ok', data: event.output ?? null, success: true });
};

const callOf = (event: AnyEvent) => event.type.replace(/^xstate\.(done|error)\.actor\./, '') as CallName;

const buttons = () => ({ approve: screen.queryByRole('button', { name: 'Approve' }), deny: screen.queryByRole('button', { name: 'Deny' }) });

/** Nothing was approved or denied without its click: the wire carries exactly the clicks. */
const onlyClicksDecided = (world: World) => {
  expect(world.approvals).toHaveLength(world.clicks.approve);
  expect(world.denials).toHaveLength(world.clicks.deny);
};

const outcome = async (title: string) => {
  const status = await screen.findByText(title);
  expect(status.closest('[role="status"]')).not.toBeNull();
  expect(buttons().approve).toBeNull();
  expect(buttons().deny).toBeNull();
};

const reviewing = async (world: World) => {
  const details = await screen.findByTestId('scan-ticket');
  expect(within(details).getByText('Firefox 133 on Linux')).toBeInTheDocument();
  expect(within(details).getByText('203.0.113.7')).toBeInTheDocument();
  await waitFor(() => expect(buttons().approve).toBeEnabled());
  expect(buttons().deny).toBeEnabled();
  onlyClicksDecided(world);
};

const params = (world: () => World): TestParam<Snapshot, AnyEvent> => ({
  states: {
    loading: async () => {
      expectState(world(), 'loading');
      expect(await screen.findByText('Looking up the login request…')).toBeInTheDocument();
      expect(buttons().approve).toBeNull();
      onlyClicksDecided(world());
    },
    loadFailed: async () => {
      expectState(world(), 'loadFailed');
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('The login request could not be loaded.');
      expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(buttons().approve).toBeNull();
      onlyClicksDecided(world());
    },
    review: async () => {
      expectState(world(), 'review');
      await reviewing(world());
      // A refused approve or deny says so and keeps the buttons; a fresh look at the code says nothing.
      const alert = screen.queryByRole('alert');
      if (world().last.endsWith(' 500')) expect(alert).toHaveTextContent('Your answer could not be sent.');
      else expect(alert).toBeNull();
    },
    approving: async () => {
      expectState(world(), 'approving');
      await waitFor(() => expect(buttons().approve).toHaveAttribute('aria-busy', 'true'));
      expect(buttons().deny).toBeDisabled();
      onlyClicksDecided(world());
    },
    denying: async () => {
      expectState(world(), 'denying');
      await waitFor(() => expect(buttons().deny).toHaveAttribute('aria-busy', 'true'));
      expect(buttons().approve).toBeDisabled();
      onlyClicksDecided(world());
    },
    approved: async () => {
      expectState(world(), 'approved');
      await outcome('Login approved');
      onlyClicksDecided(world());
    },
    denied: async () => {
      expectState(world(), 'denied');
      await outcome('Login denied');
      onlyClicksDecided(world());
    },
    expired: async () => {
      expectState(world(), 'expired');
      await outcome('This login code has expired');
      onlyClicksDecided(world());
    },
    unknown: async () => {
      expectState(world(), 'unknown');
      await outcome('Unknown login code');
      onlyClicksDecided(world());
    },
  },
  events: Object.fromEntries([
    ...[...new Set(SERVER_ANSWERS.map((event) => event.type))].map((type) => [
      type,
      async ({ event }: { event: AnyEvent }) => {
        const call = callOf(event);
        const outcome = event.type.startsWith('xstate.error')
          ? String((event.error as { status: number }).status)
          : ((event.output as ScanApproval | undefined)?.status ?? 'ok');
        world().last = `${call} ${outcome}`;
        await answer(world(), call, asResponse(event));
      },
    ]),
    [
      'approve',
      async () => {
        world().clicks.approve += 1;
        world().last = 'click approve';
        await world().view.user.click(buttons().approve!);
      },
    ],
    [
      'deny',
      async () => {
        world().clicks.deny += 1;
        world().last = 'click deny';
        await world().view.user.click(buttons().deny!);
      },
    ],
    [
      'retry',
      async () => {
        world().last = 'click retry';
        await world().view.user.click(screen.getByRole('button', { name: 'Try again' }));
      },
    ],
  ]),
});

describe('scan approval, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state a signed-in person can meet, and takes every transition', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    const declared = Object.keys(scanApprovalMachine.root.states).filter((state) => state !== 'opening' && state !== 'signingIn');
    expect([...reached].map((value) => JSON.parse(value) as string).sort()).toEqual(declared.sort());
    // loading: 6 answers; loadFailed: retry; review, with and without a failure shown: approve, deny;
    // approving and denying: 5 answers each.
    expect(transitionCount).toBe(21);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_description, path) => {
    const { user } = seedUser({ nickname: 'Mei' });
    const held: World['held'] = [];
    holdCalls({ held });
    const approvals = recordRequests(endpoints.userUpdateScanId.path);
    const denials = recordRequests(endpoints.userDenyScanId.path);
    const view = await renderWithRuntime(<ScanApprovalScreen />, { url: `/scan-approval?scanid=${SCAN_ID}`, signedInAs: user });
    world = { view, held, approvals, denials, clicks: { approve: 0, deny: 0 }, last: 'start' };
    await path.test(testParams);
  });
});
