import { screen, waitFor } from '@testing-library/react';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { createMachine, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestParam } from 'xstate/graph';
import { TOKEN_COOKIE } from '../../../src/contract/auth';
import { endpoints } from '../../../src/contract/endpoints';
import { isSignedIn } from '../../../src/machines/app.machine';
import LoginScreen from '../../../src/screens/login/login-screen';
import { getScanFingerPrint } from '../../../src/services/scan-fingerprint';
import { db, issueToken, seedUser, type ScanTicketState } from '../../msw/db';
import { recordRequests, type SeenRequest } from '../../msw/server';
import { renderWithRuntime, type Screen } from '../harness';
import { coverageGaps, NO_GAPS, planPaths, transitionsOf } from './model-coverage';

/**
 * Scan login on the login page as a person meets it: open the Scan code tab, see a QR code; it is
 * confirmed on another device (signed in here), or left until it expires (refresh for a new one),
 * or the tab is closed again (the polling stops).
 */
const scanLogin = createMachine({
  id: 'scanLogin',
  types: {} as {
    events: { type: 'OPEN_SCAN_TAB' } | { type: 'CLOSE_SCAN_TAB' } | { type: 'CONFIRM_ELSEWHERE' } | { type: 'LET_EXPIRE' } | { type: 'REFRESH' };
  },
  initial: 'passwordTab',
  states: {
    passwordTab: { on: { OPEN_SCAN_TAB: 'showingCode' } },
    showingCode: { on: { CONFIRM_ELSEWHERE: 'signedIn', LET_EXPIRE: 'expired', CLOSE_SCAN_TAB: 'closedAgain' } },
    expired: { on: { REFRESH: 'showingCode', CLOSE_SCAN_TAB: 'closedAgain' } },
    closedAgain: { on: { OPEN_SCAN_TAB: 'showingCode' } },
    signedIn: { type: 'final' },
  },
});

const model = createTestModel(scanLogin);
const { paths, transitionCount } = planPaths('scan login', model);

const POLL_MS = 40;
const RETURN_TO = '/chat';

type World = { view: Screen; userId: string; polls: SeenRequest[]; opened: number };

const tab = (name: 'Password' | 'Scan code') => screen.getByRole('tab', { name });
const latestTicket = (): ScanTicketState => [...db.scanTickets.values()].at(-1)!;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** No more polls over several intervals. */
const expectNotPolling = async (world: World) => {
  const before = world.polls.length;
  await pause(POLL_MS * 5);
  expect(world.polls.length).toBe(before);
};

const expectLoggedOut = (world: World) => {
  expect(isSignedIn(world.view.runtime.app.getSnapshot())).toBe(false);
  expect(world.view.url().startsWith('/login')).toBe(true);
};

const testParams = (world: () => World): TestParam<SnapshotFrom<typeof scanLogin>, EventFromLogic<typeof scanLogin>> => ({
  states: {
    passwordTab: () => {
      expect(tab('Password')).toHaveAttribute('aria-selected', 'true');
      expect(screen.getByLabelText('Phone number or e-mail')).toBeVisible();
      expect(world().polls).toHaveLength(0);
      expect(db.scanTickets.size).toBe(0);
      expectLoggedOut(world());
    },
    showingCode: async () => {
      expect(tab('Scan code')).toHaveAttribute('aria-selected', 'true');
      await screen.findByRole('img', { name: 'QR code for logging in' });
      await waitFor(() => expect(db.scanTickets.size).toBe(world().opened));
      const ticket = latestTicket();
      expect(ticket.fingerPrint).toBe(getScanFingerPrint());
      const link = screen.getByRole('link', { name: 'Open the login link' });
      expect(link).toHaveAttribute('href', `${location.origin}/?scanid=${ticket.id}`);
      // the picture is the library's drawing of exactly that link
      const svg = await QRCode.toString(`${location.origin}/?scanid=${ticket.id}`, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      await waitFor(() => expect(screen.getByRole('img', { name: 'QR code for logging in' })).toHaveAttribute('src', `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`));
      // polling this ticket with this browser's secret
      const before = world().polls.length;
      await waitFor(() => expect(world().polls.length).toBeGreaterThan(before + 1));
      expect(JSON.parse(await world().polls.at(-1)!.text)).toEqual({ id: ticket.id, fingerPrint: ticket.fingerPrint });
      expectLoggedOut(world());
    },
    expired: async () => {
      expect(await screen.findByText('This code has expired.')).toBeVisible();
      expect(screen.getByRole('button', { name: 'Refresh code' })).toBeEnabled();
      expect(screen.queryByRole('img', { name: 'QR code for logging in' })).toBeNull();
      await expectNotPolling(world());
      expectLoggedOut(world());
    },
    closedAgain: async () => {
      expect(tab('Password')).toHaveAttribute('aria-selected', 'true');
      expect(tab('Password')).toHaveFocus();
      expect(screen.queryByRole('img', { name: 'QR code for logging in' })).toBeNull();
      await expectNotPolling(world());
      expectLoggedOut(world());
    },
    signedIn: async () => {
      await waitFor(() => expect(isSignedIn(world().view.runtime.app.getSnapshot())).toBe(true));
      expect(world().view.runtime.app.getSnapshot().context.user?.id).toBe(world().userId);
      expect(document.cookie).toContain(`${TOKEN_COOKIE}=`);
      await waitFor(() => expect(world().view.url()).toBe(RETURN_TO));
      expect(latestTicket().status).toBe('consumed');
      await expectNotPolling(world());
    },
  },
  events: {
    OPEN_SCAN_TAB: async () => {
      world().opened += 1;
      await world().view.user.click(tab('Scan code'));
    },
    CLOSE_SCAN_TAB: async () => {
      // by keyboard: the tabs follow the arrow keys
      tab('Scan code').focus();
      await world().view.user.keyboard('{ArrowLeft}');
    },
    CONFIRM_ELSEWHERE: async () => {
      // another browser, signed in as the user, opens the QR link and approves it
      const response = await fetch(new URL(endpoints.userUpdateScanId.path, location.origin), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${issueToken(world().userId)}` },
        body: JSON.stringify({ scanid: latestTicket().id }),
      });
      expect(response.status).toBe(200);
    },
    LET_EXPIRE: () => {
      latestTicket().expiresAt = new Date(Date.now() - 1000).toISOString();
    },
    REFRESH: async () => {
      world().opened += 1;
      await world().view.user.click(screen.getByRole('button', { name: 'Refresh code' }));
    },
  },
});

describe('scan login, model-based', () => {
  let world: World | null = null;
  const params = testParams(() => world!);

  it('has an assertion for every reachable state and an executor for every event', () => {
    expect(coverageGaps(scanLogin, model, params)).toEqual(NO_GAPS);
    expect(new Set(paths.flatMap(transitionsOf)).size).toBe(transitionCount);
  });

  it.each(paths.map((path) => [path.description, path]))('%s', async (_description, path) => {
    const { user } = seedUser({ nickname: 'Phone user' });
    const polls = recordRequests(endpoints.wxValidateLogin.path);
    const view = await renderWithRuntime(<LoginScreen />, {
      url: `/login?redirect_url=${encodeURIComponent(RETURN_TO)}`,
      wechat: { device: { mobile: false, wechat: false }, environment: 'local', scanPollIntervalMs: POLL_MS, miniProgram: null },
    });
    world = { view, userId: user.id, polls, opened: 0 };
    await path.test(params);
  });
});
