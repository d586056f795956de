import { assign, fromPromise, setup } from 'xstate';
import type { Session } from '../contract/users';
import { statusOf } from './error-status';

type SessionsContext = {
  sessions: Session[];
  /** The session being signed out, to show its row busy. */
  pendingId: string | null;
  /** Why the last load or sign-out failed. */
  failure: string | null;
};

export type SessionsEvent = { type: 'revoke'; id: string } | { type: 'revokeOthers' } | { type: 'retry' };

export type SessionsNotice = { kind: 'revoked' } | { kind: 'revokedOthers'; count: number };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The account's signed-in browsers: load them, sign out one, or all but this one. After each
 * sign-out the list is read again, so what is shown is what the server holds. This browser's own
 * session is never signed out from here (the user menu's "Log out" does that).
 */
export const sessionsMachine = setup({
  types: { context: {} as SessionsContext, events: {} as SessionsEvent },
  actors: {
    listSessions: fromPromise<Session[]>(async () => {
      throw new Error('listSessions is provided where the app starts');
    }),
    revokeSession: fromPromise<void, { id: string }>(async () => {
      throw new Error('revokeSession is provided where the app starts');
    }),
    revokeOthers: fromPromise<{ revoked: number }>(async () => {
      throw new Error('revokeOthers is provided where the app starts');
    }),
  },
  actions: {
    notify: (_, _params: SessionsNotice) => undefined,
    setSessions: assign((_, params: { sessions: Session[] }) => ({ sessions: params.sessions, failure: null })),
    setPending: assign((_, params: { id: string }) => ({ pendingId: params.id, failure: null })),
    clearPending: assign({ pendingId: null }),
    setFailure: assign((_, params: { error: unknown }) => ({ failure: messageOf(params.error) })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    isAnotherSession: ({ context }, params: { id: string }) => context.sessions.some((session) => session.id === params.id && !session.current),
    hasOtherSessions: ({ context }) => context.sessions.some((session) => !session.current),
    /** Already signed out elsewhere: the list is simply out of date. */
    isGone: (_, params: { error: unknown }) => statusOf(params.error) === 404,
  },
}).createMachine({
  id: 'sessions',
  context: { sessions: [], pendingId: null, failure: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listSessions',
        src: 'listSessions',
        onDone: { target: 'ready', actions: { type: 'setSessions', params: ({ event }) => ({ sessions: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loadFailed: {
      on: { retry: { target: 'loading', actions: 'clearFailure' } },
    },
    ready: {
      on: {
        revoke: {
          guard: { type: 'isAnotherSession', params: ({ event }) => ({ id: event.id }) },
          target: 'revoking',
          actions: { type: 'setPending', params: ({ event }) => ({ id: event.id }) },
        },
        revokeOthers: { guard: 'hasOtherSessions', target: 'revokingOthers', actions: 'clearFailure' },
      },
    },
    revoking: {
      invoke: {
        id: 'revokeSession',
        src: 'revokeSession',
        input: ({ context }) => ({ id: context.pendingId! }),
        onDone: { target: 'loading', actions: ['clearPending', { type: 'notify', params: { kind: 'revoked' } }] },
        onError: [
          { guard: { type: 'isGone', params: ({ event }) => ({ error: event.error }) }, target: 'loading', actions: 'clearPending' },
          { target: 'ready', actions: ['clearPending', { type: 'setFailure', params: ({ event }) => ({ error: event.error }) }] },
        ],
      },
    },
    revokingOthers: {
      invoke: {
        id: 'revokeOthers',
        src: 'revokeOthers',
        onDone: {
          target: 'loading',
          actions: { type: 'notify', params: ({ event }) => ({ kind: 'revokedOthers', count: event.output.revoked }) },
        },
        onError: { target: 'ready', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
