import { screen, waitFor } from '@testing-library/react';
import QRCode from 'qrcode';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { TOKEN_COOKIE } from '../../../src/contract/auth';
import { endpoints } from '../../../src/contract/endpoints';
import type { ScanTicket } from '../../../src/contract/wechat';
import { isSignedIn } from '../../../src/machines/app.machine';
import { SCAN_DEADLINE_SLACK_MS, scanLoginMachine, type ScanLoginInput } from '../../../src/machines/scan-login.machine';
import LoginScreen from '../../../src/screens/login/login-screen';
import { getScanFingerPrint } from '../../../src/services/scan-fingerprint';
import { db, seedUser, type ScanTicketState } from '../../msw/db';
import { renderWithRuntime, type Screen } from '../harness';
import { actorAnswers, failResponse, holdCalls } from './held-calls';
import { productionPaths, type ModelEvent } from './production-paths';

/**
 * Scan login's paths are generated from the machine that ships: opening a ticket, each answer of
 * the polling (waiting, confirmed elsewhere, expired, declined, forgotten by the server, a network
 * hiccup), the time between polls, and Refresh. Each path is played on the real Scan code panel
 * with the fake API holding every call until the path answers it. The waiting browser's own
 * deadline (minutes away) is played on the production machine as an actor with fake timers.
 * Where the page must be is written from the product: a code shows until someone confirms it
 * elsewhere (then this browser is signed in and goes on), it expires or is declined (then a fresh
 * code is offered); a failed poll keeps the code; nothing polls once the code is gone.
 */
type Snapshot = SnapshotFrom<typeof scanLoginMachine>;

const POLL_MS = 30;
const RETURN_TO = '/chat';
const answers = actorAnswers(scanLoginMachine);
const POLL = 'xstate.after.pollInterval.scanLogin.showing.waiting';
const DEADLINE = 'xstate.after.ticketDeadline.scanLogin.showing';
const ticketOutput: ScanTicket = { id: 'scan-model', expiresAt: new Date(Date.now() + 3 * 60_000).toISOString() };
const confirmed = { status: 'confirmed', token: 'token', userInfo: { id: 'u', username: 'phone', nickname: 'Phone user', avatar: '' } };

const EVENTS: ModelEvent[] = [
  answers.done('openTicket', ticketOutput),
  answers.error('openTicket', 429, 'Too many codes requested. Please wait a minute.'),
  answers.error('openTicket', 500, 'The server could not make a code.'),
  { type: POLL },
  ...(['waiting', 'expired', 'denied'] as const).map((status) => answers.done('checkTicket', { status })),
  answers.done('checkTicket', confirmed),
  answers.error('checkTicket', 404, 'Scan id not found'),
  answers.error('checkTicket', 500, 'Network hiccup'),
  { type: 'refresh' },
  { type: DEADLINE },
];
const serializeState = (state: Snapshot) => `${JSON.stringify(state.value)}${state.context.failure ? '+failure' : ''}`;
const input: ScanLoginInput = { fingerPrint: 'fp', origin: 'http://localhost', environment: 'local', miniProgram: null, returnTo: RETURN_TO, pollIntervalMs: POLL_MS };
const { paths, transitionCount, reachedStates, pathThrough } = productionPaths(scanLoginMachine, { events: EVENTS, input, serializeState });
const onDeadline = paths.filter((path) => path.events.at(-1)!.type === DEADLINE);
/** The panel cannot wait minutes: a step after the deadline starts from a code the server calls expired. */
const EXPIRED_BY_SERVER = [EVENTS[0]!, { type: POLL }, answers.done('checkTicket', { status: 'expired' })];
const onScreen = paths
  .filter((path) => !onDeadline.includes(path))
  .map((path) => {
    const deadline = path.events.findIndex((event) => event.type === DEADLINE);
    return deadline < 0 ? path : pathThrough([...EXPIRED_BY_SERVER, ...path.events.slice(deadline + 1)]);
  });
console.log(`Scan login (production machine): ${transitionCount} transitions; ${onScreen.length} paths on the panel, ${onDeadline.length} on the actor`);

/** "openTicket ok, checkTicket waiting": what happens, without the context. */
const happening = (event: ModelEvent) =>
  answers.describe(event, (output) => (output as { status?: string }).status ?? 'ok') ??
  ({ [POLL]: 'time to poll', [DEADLINE]: 'the code’s time runs out', refresh: 'click refresh' } as Record<string, string>)[event.type]!;

/** Where the panel must be after what last happened. */
const EXPECTED_AFTER: Record<string, string> = {
  'open the scan tab': 'opening',
  'openTicket ok': 'showing.waiting',
  'openTicket 429': 'failed',
  'openTicket 500': 'failed',
  'time to poll': 'showing.checking',
  'checkTicket waiting': 'showing.waiting',
  'checkTicket confirmed': 'signedIn',
  'checkTicket expired': 'expired',
  'checkTicket denied': 'denied',
  // the server no longer knows the code: as good as expired
  'checkTicket 404': 'expired',
  // a hiccup: the code stays and is asked about again
  'checkTicket 500': 'showing.waiting',
  'click refresh': 'opening',
  'the code’s time runs out': 'expired',
};
const nameOf = (state: Snapshot) =>
  typeof state.value === 'string' ? state.value : Object.entries(state.value).map(([parent, child]) => `${parent}.${String(child)}`)[0]!;

type World = {
  view: Screen;
  userId: string;
  calls: ReturnType<typeof holdCalls<'openTicket' | 'checkTicket'>>;
  /** Tickets asked for: each open of the tab or Refresh asks for one. */
  opened: number;
  /** Of those, the ones the server refused. */
  refused: number;
  last: string;
};

const latestTicket = (): ScanTicketState => [...db.scanTickets.values()].at(-1)!;
const qrImage = () => screen.queryByRole('img', { name: 'QR code for logging in' });
const expectLoggedOut = (world: World) => {
  expect(isSignedIn(world.view.runtime.app.getSnapshot())).toBe(false);
  expect(world.view.url().startsWith('/login')).toBe(true);
};
/** Nothing asks about the code any more: no poll over several intervals. */
const expectNotPolling = async (world: World) => {
  const before = world.calls.count('checkTicket');
  await new Promise((resolve) => setTimeout(resolve, POLL_MS * 5));
  expect(world.calls.count('checkTicket')).toBe(before);
  expect(world.calls.held.filter((call) => call.call === 'checkTicket')).toEqual([]);
};
const offersFreshCode = async (text: string) => {
  expect(await screen.findByText(text)).toBeVisible();
  expect(screen.getByRole('button', { name: 'Refresh code' })).toBeEnabled();
  expect(qrImage()).toBeNull();
};

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    opening: async (state) => {
      const w = world();
      expect(EXPECTED_AFTER[w.last], `after ${w.last}`).toBe(nameOf(state));
      expect(await screen.findByText('Getting a code…')).toBeInTheDocument();
      const request = await w.calls.waiting('openTicket');
      expect(new URL(request.url).searchParams.get('fingerPrint')).toBe(getScanFingerPrint());
      expect(w.calls.count('openTicket')).toBe(w.opened);
      expect(qrImage()).toBeNull();
      expectLoggedOut(w);
    },
    showing: async (state) => {
      const w = world();
      expect(EXPECTED_AFTER[w.last], `after ${w.last}`).toBe(nameOf(state));
      // the code of the ticket the server opened for this browser
      await waitFor(() => expect(db.scanTickets.size).toBe(w.opened - w.refused));
      const ticket = latestTicket();
      expect(ticket.fingerPrint).toBe(getScanFingerPrint());
      const link = `${location.origin}/?scanid=${ticket.id}`;
      expect(await screen.findByRole('link', { name: 'Open the login link' })).toHaveAttribute('href', link);
      // the picture is the library's drawing of exactly that link
      const svg = await QRCode.toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      await waitFor(() => expect(qrImage()).toHaveAttribute('src', `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`));
      expect(screen.queryByRole('alert')).toBeNull();
      if (state.matches({ showing: 'checking' })) {
        // asking about this ticket with this browser's secret
        const request = await w.calls.waiting('checkTicket');
        expect(await request.json()).toEqual({ id: ticket.id, fingerPrint: getScanFingerPrint() });
      }
      expectLoggedOut(w);
    },
    expired: async (state) => {
      const w = world();
      expect(EXPECTED_AFTER[w.last], `after ${w.last}`).toBe(nameOf(state));
      await offersFreshCode('This code has expired.');
      await expectNotPolling(w);
      expectLoggedOut(w);
    },
    denied: async (state) => {
      const w = world();
      expect(EXPECTED_AFTER[w.last], `after ${w.last}`).toBe(nameOf(state));
      await offersFreshCode('The login was declined on the other device.');
      await expectNotPolling(w);
      expectLoggedOut(w);
    },
    failed: async (state) => {
      const w = world();
      expect(EXPECTED_AFTER[w.last], `after ${w.last}`).toBe(nameOf(state));
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Could not get a code');
      expect(screen.getByRole('button', { name: 'Refresh code' })).toBeEnabled();
      expect(qrImage()).toBeNull();
      expect(w.calls.count('checkTicket')).toBe(0);
      expectLoggedOut(w);
    },
    signedIn: async (state) => {
      const w = world();
      expect(EXPECTED_AFTER[w.last], `after ${w.last}`).toBe(nameOf(state));
      await waitFor(() => expect(isSignedIn(w.view.runtime.app.getSnapshot())).toBe(true));
      expect(w.view.runtime.app.getSnapshot().context.user?.id).toBe(w.userId);
      expect(document.cookie).toContain(`${TOKEN_COOKIE}=`);
      await waitFor(() => expect(w.view.url()).toBe(RETURN_TO));
      expect(latestTicket().status).toBe('consumed');
      await expectNotPolling(w);
    },
  },
  events: Object.fromEntries(
    [...new Set(EVENTS.map((event) => event.type))].map((type) => [
      type,
      async ({ event }: { event: ModelEvent }) => {
        const w = world();
        w.last = happening(event);
        const src = answers.srcOf(event) as 'openTicket' | 'checkTicket' | null;
        if (event.type === POLL) {
          await w.calls.waiting('checkTicket');
        } else if (event.type === 'refresh') {
          w.opened += 1;
          await w.view.user.click(screen.getByRole('button', { name: 'Refresh code' }));
        } else if (src && event.type.startsWith('xstate.error')) {
          const { status, msg } = event.error as { status: number; msg: string };
          if (src === 'openTicket') w.refused += 1;
          await w.calls.answer(src, failResponse(status, msg));
        } else if (src === 'openTicket') {
          // the fake server opens the ticket for this browser
          await w.calls.answer('openTicket', undefined);
        } else if (src === 'checkTicket') {
          // what happened elsewhere, then the fake server's own answer about the ticket
          const ticket = latestTicket();
          const status = (event.output as { status: string }).status;
          if (status === 'confirmed') Object.assign(ticket, { status: 'confirmed', userId: w.userId });
          if (status === 'denied') ticket.status = 'denied';
          if (status === 'expired') ticket.expiresAt = new Date(Date.now() - 1000).toISOString();
          await w.calls.answer('checkTicket', undefined);
        }
      },
    ]),
  ),
});

describe('scan login, paths generated from the production machine', () => {
  const holder: { world: World | null } = { world: null };

  it('reaches every state, asserts each, and takes every transition', () => {
    const declared = Object.keys(scanLoginMachine.root.states);
    const topLevel = [...reachedStates].map((json) => {
      const value = JSON.parse(json) as string | Record<string, unknown>;
      return typeof value === 'string' ? value : Object.keys(value)[0]!;
    });
    expect([...new Set(topLevel)].sort()).toEqual(declared.sort());
    for (const state of declared) expect(params(() => holder.world!).states, `no assertion for ${state}`).toHaveProperty(state);
    expect(onScreen.length + onDeadline.length).toBe(paths.length);
    // a path moved off the deadline still takes its last transition from the same state
    for (const [index, path] of paths.filter((path) => !onDeadline.includes(path)).entries()) {
      expect(serializeState(onScreen[index]!.steps.at(-2)!.state)).toBe(serializeState(path.steps.at(-2)!.state));
    }
        // opening, fresh and after a failure: three answers each; waiting: the poll and the deadline;
    // checking: six answers and the deadline; expired, denied and failed: refresh.
    expect(transitionCount).toBe(18);
  });

  it.each(onScreen.map((path) => [path.events.map(happening).join(', '), path] as const))('%s', async (_name, path) => {
    const { user } = seedUser({ nickname: 'Phone user' });
    const calls = holdCalls({ openTicket: endpoints.wxRegisterLogin, checkTicket: endpoints.wxValidateLogin });
    const view = await renderWithRuntime(<LoginScreen />, {
      url: `/login?redirect_url=${encodeURIComponent(RETURN_TO)}`,
      wechat: { device: { mobile: false, wechat: false }, environment: 'local', scanPollIntervalMs: POLL_MS, miniProgram: null },
    });
    await view.user.click(screen.getByRole('tab', { name: 'Scan code' }));
    holder.world = { view, userId: user.id, calls, opened: 1, refused: 0, last: 'open the scan tab' };
    await path.test(params(() => holder.world!));
  });
});

describe('the waiting browser’s own deadline, on the production machine', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(onDeadline.map((path) => [path.events.map(happening).join(', '), path] as const))('%s', async (_name, path) => {
    vi.useFakeTimers();
    const pending: { src: string; resolve: (value: unknown) => void; reject: (error: unknown) => void }[] = [];
    const stub = (src: string) => fromPromise(() => new Promise((resolve, reject) => pending.push({ src, resolve, reject })));
    const signedIn = vi.fn();
    const leave = vi.fn();
    const actor = createActor(
      scanLoginMachine.provide({ actors: { openTicket: stub('openTicket') as never, checkTicket: stub('checkTicket') as never }, actions: { signedIn, leave } }),
      { input },
    ).start();
    let last = 'open the scan tab';
    for (const event of path.events) {
      last = happening(event);
      const src = answers.srcOf(event);
      if (src) {
        const call = pending.splice(pending.findIndex((entry) => entry.src === src), 1)[0]!;
        if (event.type.startsWith('xstate.error')) call.reject(Object.assign(new Error('refused'), event.error as object));
        else call.resolve(event.output);
        await vi.advanceTimersByTimeAsync(0);
      } else if (event.type === POLL) {
        await vi.advanceTimersByTimeAsync(POLL_MS);
      } else if (event.type === DEADLINE) {
        // minutes pass with nobody confirming: the polls stay unanswered (the server is gone)
        await vi.advanceTimersByTimeAsync(Date.parse(ticketOutput.expiresAt) - Date.now() + SCAN_DEADLINE_SLACK_MS);
      }
      expect(EXPECTED_AFTER[last], `after ${last}`).toBe(nameOf(actor.getSnapshot()));
    }
    expect(EXPECTED_AFTER[last]).toBe('expired');
    // the code is gone: nothing is asked about it any more, and nobody was signed in
    const asked = pending.length;
    await vi.advanceTimersByTimeAsync(POLL_MS * 10);
    expect(pending.length).toBe(asked);
    expect(signedIn).not.toHaveBeenCalled();
    expect(leave).not.toHaveBeenCalled();
    actor.stop();
  });
});
