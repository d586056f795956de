import { assign, fromPromise, setup } from 'xstate';
import type { ScanApproval } from '../contract/users';
import { statusOf } from './error-status';

/** The shortest time the page keeps the buttons when the clocks disagree; the server has the last word. */
const MIN_REVIEW_MS = 5_000;

export type ScanApprovalInput = {
  /** The `scanid` of the page address; null when the link had none. */
  scanId: string | null;
  /** Whether someone is signed in on this browser when the page opens. */
  signedIn: boolean;
};

type ScanApprovalContext = {
  scanId: string | null;
  signedIn: boolean;
  ticket: ScanApproval | null;
  /** Why the last approve or deny did not go through (shown beside the buttons). */
  failure: string | null;
};

export type ScanApprovalEvent = { type: 'approve' } | { type: 'deny' } | { type: 'retry' };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The page a scan link opens: it shows which browser asks to be signed in (device, address, when
 * it asked, until when) and approves or declines only when the person presses a button. Opening
 * the link decides nothing. A visitor is sent to log in first and comes back here.
 */
export const scanApprovalMachine = setup({
  types: {
    context: {} as ScanApprovalContext,
    events: {} as ScanApprovalEvent,
    input: {} as ScanApprovalInput,
  },
  actors: {
    fetchTicket: fromPromise<ScanApproval, { scanId: string }>(async () => {
      throw new Error('fetchTicket is provided where the app starts');
    }),
    approveTicket: fromPromise<void, { scanId: string }>(async () => {
      throw new Error('approveTicket is provided where the app starts');
    }),
    denyTicket: fromPromise<void, { scanId: string }>(async () => {
      throw new Error('denyTicket is provided where the app starts');
    }),
  },
  actions: {
    /** Sends a visitor to log in, coming back to this page. */
    askToLogIn: (_, _params: { scanId: string }) => undefined,
    setTicket: assign((_, params: { ticket: ScanApproval }) => ({ ticket: params.ticket, failure: null })),
    setFailure: assign((_, params: { error: unknown }) => ({ failure: messageOf(params.error) })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    hasNoScanId: ({ context }) => context.scanId === null,
    isVisitor: ({ context }) => !context.signedIn,
    isWaiting: (_, params: { ticket: ScanApproval }) => params.ticket.status === 'waiting',
    wasApproved: (_, params: { ticket: ScanApproval }) => params.ticket.status === 'approved',
    wasDenied: (_, params: { ticket: ScanApproval }) => params.ticket.status === 'denied',
    /** 404: the server does not know the code (mistyped, or long gone). */
    isUnknown: (_, params: { error: unknown }) => statusOf(params.error) === 404,
    /** 410: the code expired before the click. */
    isExpiredError: (_, params: { error: unknown }) => statusOf(params.error) === 410,
    /** 409: answered already, from another tab or device: read where it stands. */
    isAlreadyAnswered: (_, params: { error: unknown }) => statusOf(params.error) === 409,
  },
  delays: {
    ticketExpiry: ({ context }) => {
      if (!context.ticket) return MIN_REVIEW_MS;
      const left = Date.parse(context.ticket.expiresAt) - Date.now();
      const lifetime = Date.parse(context.ticket.expiresAt) - Date.parse(context.ticket.createdAt);
      return Math.max(MIN_REVIEW_MS, Math.min(left, lifetime));
    },
  },
}).createMachine({
  id: 'scanApproval',
  context: ({ input }) => ({ scanId: input.scanId, signedIn: input.signedIn, ticket: null, failure: null }),
  initial: 'opening',
  states: {
    opening: {
      always: [
        { guard: 'hasNoScanId', target: 'unknown' },
        { guard: 'isVisitor', target: 'signingIn' },
        { target: 'loading' },
      ],
    },
    loading: {
      invoke: {
        id: 'fetchTicket',
        src: 'fetchTicket',
        input: ({ context }) => ({ scanId: context.scanId! }),
        onDone: [
          {
            guard: { type: 'isWaiting', params: ({ event }) => ({ ticket: event.output }) },
            target: 'review',
            actions: { type: 'setTicket', params: ({ event }) => ({ ticket: event.output }) },
          },
          {
            guard: { type: 'wasApproved', params: ({ event }) => ({ ticket: event.output }) },
            target: 'approved',
            actions: { type: 'setTicket', params: ({ event }) => ({ ticket: event.output }) },
          },
          {
            guard: { type: 'wasDenied', params: ({ event }) => ({ ticket: event.output }) },
            target: 'denied',
            actions: { type: 'setTicket', params: ({ event }) => ({ ticket: event.output }) },
          },
          { target: 'expired', actions: { type: 'setTicket', params: ({ event }) => ({ ticket: event.output }) } },
        ],
        onError: [
          { guard: { type: 'isUnknown', params: ({ event }) => ({ error: event.error }) }, target: 'unknown' },
          { target: 'loadFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    loadFailed: {
      on: { retry: { target: 'loading', actions: 'clearFailure' } },
    },
    review: {
      after: { ticketExpiry: 'expired' },
      on: {
        approve: { target: 'approving', actions: 'clearFailure' },
        deny: { target: 'denying', actions: 'clearFailure' },
      },
    },
    approving: {
      invoke: {
        id: 'approveTicket',
        src: 'approveTicket',
        input: ({ context }) => ({ scanId: context.scanId! }),
        onDone: 'approved',
        onError: [
          { guard: { type: 'isExpiredError', params: ({ event }) => ({ error: event.error }) }, target: 'expired' },
          { guard: { type: 'isAlreadyAnswered', params: ({ event }) => ({ error: event.error }) }, target: 'loading' },
          { guard: { type: 'isUnknown', params: ({ event }) => ({ error: event.error }) }, target: 'unknown' },
          { target: 'review', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    denying: {
      invoke: {
        id: 'denyTicket',
        src: 'denyTicket',
        input: ({ context }) => ({ scanId: context.scanId! }),
        onDone: 'denied',
        onError: [
          { guard: { type: 'isExpiredError', params: ({ event }) => ({ error: event.error }) }, target: 'expired' },
          { guard: { type: 'isAlreadyAnswered', params: ({ event }) => ({ error: event.error }) }, target: 'loading' },
          { guard: { type: 'isUnknown', params: ({ event }) => ({ error: event.error }) }, target: 'unknown' },
          { target: 'review', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    approved: { type: 'final' },
    denied: { type: 'final' },
    expired: { type: 'final' },
    /** No code in the link, or one the server does not know. */
    unknown: { type: 'final' },
    signingIn: {
      type: 'final',
      entry: { type: 'askToLogIn', params: ({ context }) => ({ scanId: context.scanId! }) },
    },
  },
});
