import { assign, fromPromise, setup } from 'xstate';
import type { LoginResult } from '../contract/auth';
import type { ScanStatus, ScanTicket } from '../contract/wechat';
import type { Environment } from '../services/env';
import { scanLoginLink, type MiniProgram } from '../services/wechat-links';
import { statusOf } from './error-status';

export const SCAN_POLL_INTERVAL_MS = 1500;
/**
 * The server decides when a ticket expires (it answers `expired`); this is only the waiting
 * browser's own limit should the server stop answering, measured from when the ticket arrived so
 * a wrong clock on either side cannot cut it short.
 */
export const SCAN_DEADLINE_SLACK_MS = 10_000;
const MIN_TICKET_LIFETIME_MS = 30_000;
const MAX_TICKET_LIFETIME_MS = 10 * 60_000;

export type ScanLoginInput = {
  /** This browser's secret, sent when opening and polling the ticket. */
  fingerPrint: string;
  origin: string;
  environment: Environment;
  miniProgram: MiniProgram | null;
  /** Where to go once signed in (already checked as same-origin). */
  returnTo: string;
  pollIntervalMs?: number;
};

type ScanLoginContext = Required<ScanLoginInput> & {
  ticket: ScanTicket | null;
  /** What the QR code holds. */
  link: string | null;
  /** When the waiting browser gives up on its own (ms since epoch). */
  deadline: number;
  failure: string | null;
};

export type ScanLoginEvent = { type: 'refresh' };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Scan login on a desktop: open a ticket, show its QR code, poll it until someone signed in
 * elsewhere approves it (then sign in here and leave), declines it, or it expires (then offer a
 * fresh code).
 * Stopping the actor (the tab or dialog closes) stops the polling.
 */
export const scanLoginMachine = setup({
  types: {
    context: {} as ScanLoginContext,
    events: {} as ScanLoginEvent,
    input: {} as ScanLoginInput,
  },
  actors: {
    openTicket: fromPromise<ScanTicket, { fingerPrint: string }>(async () => {
      throw new Error('openTicket is provided where the app starts');
    }),
    checkTicket: fromPromise<ScanStatus, { id: string; fingerPrint: string }>(async () => {
      throw new Error('checkTicket is provided where the app starts');
    }),
  },
  actions: {
    signedIn: (_, _params: LoginResult) => undefined,
    leave: (_, _params: { to: string }) => undefined,
    setTicket: assign(({ context }, params: { ticket: ScanTicket }) => {
      const lifetime = Math.min(Math.max(Date.parse(params.ticket.expiresAt) - Date.now(), MIN_TICKET_LIFETIME_MS), MAX_TICKET_LIFETIME_MS);
      return {
        ticket: params.ticket,
        link: scanLoginLink({
          origin: context.origin,
          scanId: params.ticket.id,
          environment: context.environment,
          miniProgram: context.miniProgram,
        }),
        deadline: Date.now() + lifetime + SCAN_DEADLINE_SLACK_MS,
        failure: null,
      };
    }),
    setFailure: assign((_, params: { error: unknown }) => ({ failure: messageOf(params.error) })),
    forgetTicket: assign({ ticket: null, link: null }),
  },
  guards: {
    isConfirmed: (_, params: { status: ScanStatus }) =>
      params.status.status === 'confirmed' && Boolean(params.status.token) && Boolean(params.status.userInfo),
    isExpired: (_, params: { status: ScanStatus }) => params.status.status === 'expired',
    isDenied: (_, params: { status: ScanStatus }) => params.status.status === 'denied',
    /** The server no longer knows the ticket: it is as good as expired. */
    isGone: (_, params: { error: unknown }) => statusOf(params.error) === 404,
  },
  delays: {
    pollInterval: ({ context }) => context.pollIntervalMs,
    ticketDeadline: ({ context }) => Math.max(0, context.deadline - Date.now()),
  },
}).createMachine({
  id: 'scanLogin',
  context: ({ input }) => ({
    pollIntervalMs: SCAN_POLL_INTERVAL_MS,
    ...input,
    ticket: null,
    link: null,
    deadline: 0,
    failure: null,
  }),
  initial: 'opening',
  states: {
    opening: {
      entry: 'forgetTicket',
      invoke: {
        src: 'openTicket',
        input: ({ context }) => ({ fingerPrint: context.fingerPrint }),
        onDone: { target: 'showing', actions: { type: 'setTicket', params: ({ event }) => ({ ticket: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    showing: {
      after: { ticketDeadline: 'expired' },
      initial: 'waiting',
      states: {
        waiting: {
          after: { pollInterval: 'checking' },
        },
        checking: {
          invoke: {
            src: 'checkTicket',
            input: ({ context }) => ({ id: context.ticket!.id, fingerPrint: context.fingerPrint }),
            onDone: [
              {
                guard: { type: 'isConfirmed', params: ({ event }) => ({ status: event.output }) },
                target: '#scanLogin.signedIn',
                actions: {
                  type: 'signedIn',
                  params: ({ event }) => ({ token: event.output.token!, userInfo: event.output.userInfo! }),
                },
              },
              { guard: { type: 'isExpired', params: ({ event }) => ({ status: event.output }) }, target: '#scanLogin.expired' },
              { guard: { type: 'isDenied', params: ({ event }) => ({ status: event.output }) }, target: '#scanLogin.denied' },
              { target: 'waiting' },
            ],
            onError: [
              { guard: { type: 'isGone', params: ({ event }) => ({ error: event.error }) }, target: '#scanLogin.expired' },
              // a network hiccup: keep showing the code and ask again
              { target: 'waiting' },
            ],
          },
        },
      },
    },
    expired: {
      on: { refresh: 'opening' },
    },
    /** The person asked on the other device pressed Deny. */
    denied: {
      on: { refresh: 'opening' },
    },
    failed: {
      on: { refresh: 'opening' },
    },
    signedIn: {
      type: 'final',
      entry: { type: 'leave', params: ({ context }) => ({ to: context.returnTo }) },
    },
  },
});
