import { assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import type { PublishMode } from '../contract/tasks';
import { isUnreachable, statusOf } from './error-status';

export type OperationsGuardInput = { pathname: string; search: string };
export type PublishModes = { xiaohongshu: PublishMode; linkedin: PublishMode };
export type OperationsGuardContext = OperationsGuardInput & { verifiedAs: string | null; publishing: PublishModes };
/** What the session check answers: who the operator is, and how each platform publishes. */
export type VerifiedSession = { userId: string; publishing?: PublishModes };
export type OperationsGuardEvent =
  /** The operator moved inside the area; the return address follows them. */
  | { type: 'location.changed'; pathname: string; search: string }
  /** No one is signed in any more: the operator signed out, or a call answered 401. */
  | { type: 'session.ended' }
  /** The app read the account again and its role no longer opens the area (an admin changed it). */
  | { type: 'access.withdrawn' }
  /** The operator asks to check again after the server could not be reached. */
  | { type: 'retry' };

/**
 * The operations area's door. It opens only with a stored token whose verification answers
 * success; otherwise, or when the session ends (a sign-out, any later 401), it sends the operator
 * to the login page with the exact place to come back to. A check that gets no answer (server
 * down, network gone) says nothing about the session: the operator stays signed in and can check
 * again. A check answered 403 knows the person and refuses them the area (they are not an
 * operator or admin of an organisation): logging in again would not change that, so the door
 * stays shut where they are and says whom to ask.
 */
export const operationsGuardMachine = setup({
  types: {
    context: {} as OperationsGuardContext,
    events: {} as OperationsGuardEvent,
    input: {} as OperationsGuardInput,
  },
  actors: {
    verifySession: fromPromise<VerifiedSession>(async () => {
      throw new Error('verifySession is provided where the app starts');
    }),
    /** Reports `session.ended` when the app's session ends; provided where the app starts. */
    watchSession: fromCallback<OperationsGuardEvent>(() => () => undefined),
  },
  actions: {
    /** Whom the server verified, and how each platform publishes (kept when it does not say). */
    setVerified: assign(({ context }, params: { session: VerifiedSession }) => ({
      verifiedAs: params.session.userId,
      publishing: params.session.publishing ?? context.publishing,
    })),
    followOperator: assign(({ event }) => {
      assertEvent(event, 'location.changed');
      return { pathname: event.pathname, search: event.search };
    }),
    redirectToLogin: (_, _params: { pathname: string; search: string }) => undefined,
    refreshIdentity: () => undefined,
  },
  guards: {
    hasToken: () => false,
    /** The check got no answer at all, so it did not refuse the session. */
    isServerUnreachable: (_, params: { error: unknown }) => isUnreachable(params.error),
    /** The server knows the person, and the area is not theirs. */
    isForbidden: (_, params: { error: unknown }) => statusOf(params.error) === 403,
  },
}).createMachine({
  id: 'operationsGuard',
  context: ({ input }) => ({ ...input, verifiedAs: null, publishing: { xiaohongshu: 'export', linkedin: 'export' } }),
  initial: 'entering',
  // The door follows the session for as long as the area is open, not only at the first check.
  invoke: { src: 'watchSession' },
  on: {
    'location.changed': { actions: 'followOperator' },
    // Whatever the door was doing (checking, waiting to check again, open), it was for someone signed in.
    'session.ended': { target: '.redirecting' },
  },
  states: {
    entering: {
      always: [{ guard: 'hasToken', target: 'verifying' }, { target: 'redirecting' }],
    },
    verifying: {
      invoke: {
        src: 'verifySession',
        onDone: {
          target: 'allowed',
          actions: { type: 'setVerified', params: ({ event }) => ({ session: event.output }) },
        },
        onError: [
          { guard: { type: 'isServerUnreachable', params: ({ event }) => ({ error: event.error }) }, target: 'unreachable' },
          { guard: { type: 'isForbidden', params: ({ event }) => ({ error: event.error }) }, target: 'forbidden' },
          { target: 'redirecting' },
        ],
      },
    },
    unreachable: {
      on: { retry: 'verifying' },
    },
    allowed: {
      on: { 'access.withdrawn': 'forbidden' },
    },
    // The role the app shows may be older than the server's answer: it reads the account again,
    // so the header stops offering the area too.
    forbidden: { entry: 'refreshIdentity' },
    redirecting: {
      type: 'final',
      entry: { type: 'redirectToLogin', params: ({ context }) => ({ pathname: context.pathname, search: context.search }) },
    },
  },
});
