import { assign, fromCallback, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { UserInfo } from '../contract/users';
import type { KeptConversation } from '../services/offline-library';
import { toastMachine } from './toast.machine';
import { isUnreachable, statusOf } from './error-status';

/**
 * Who is at this browser, as the app last settled it: the account's id (null for a visitor), and
 * whether it is the same person as before (their drafts and chat stay) or someone else (what the
 * one before left on screen goes).
 */
export type Presence = { account: string | null; samePerson: boolean };

export type AppContext = {
  /** The signed-in account, with its organisation and role; null for a visitor. */
  user: UserInfo | null;
  error: string | null;
  presence: Presence | null;
  /** The account last signed in here, whose things may still be on screen. */
  lastAccount: string | null;
  /** That account chose to sign out (its session did not merely run out). */
  signedOut: boolean;
  /** Only while started offline (`offline`): the conversations kept on this device, to read meanwhile. */
  kept: KeptConversation[] | null;
};

/**
 * Who is here now. The same person goes on after a session ran out (they sign in again, and a
 * question refused meanwhile stays in the box) and when a visitor signs in (the server hands the
 * account what they started); someone else is here after a sign-out, or when another account
 * signs in than the one before.
 */
export function nextPresence(context: AppContext): Pick<AppContext, 'presence' | 'lastAccount' | 'signedOut'> {
  const account = context.user ? String(context.user.id) : null;
  if (context.presence && context.presence.account === account) return { presence: context.presence, lastAccount: context.lastAccount, signedOut: context.signedOut };
  const samePerson = !context.signedOut && (account === null || context.lastAccount === null || account === context.lastAccount);
  return {
    presence: { account, samePerson },
    lastAccount: account !== null || !samePerson ? account : context.lastAccount,
    signedOut: false,
  };
}

export type AppEvent =
  | { type: 'retry' }
  | { type: 'session.signedIn'; token: string; user: UserInfo }
  | { type: 'session.refresh' }
  /** The user's own details changed (the account page saved them): show the new ones everywhere. */
  | { type: 'session.updated'; user: UserInfo }
  | { type: 'session.signOut' }
  /** The server refused the token (a 401 anywhere). */
  | { type: 'session.expired' };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Said before the user is forgotten, with whose session it was. */
const sayWhoSignedOut = { type: 'signedOut', params: ({ context }: { context: AppContext }) => ({ userId: String(context.user?.id) }) } as const;

/**
 * App start and the session: loading (the interface language) → session check (only when a
 * token is stored) → loaded as a visitor or signed in, or errored with a retry. The toast queue
 * lives under it with the system id `toasts`, so any actor or service can reach it.
 */
export const appMachine = setup({
  types: { context: {} as AppContext, events: {} as AppEvent },
  actors: {
    prepare: fromPromise<void>(async () => undefined),
    fetchUser: fromPromise<UserInfo>(async () => {
      throw new Error('fetchUser is provided where the app starts');
    }),
    revokeSession: fromPromise<void>(async () => undefined),
    /** The offline library of the account last signed in here (services/offline-library.ts). */
    readLibrary: fromPromise<KeptConversation[]>(async () => []),
    /** Sends `retry` when the device's network comes back (the browser's `online`); provided where the app starts. */
    networkReturns: fromCallback<AppEvent>(() => undefined),
    toasts: toastMachine,
  },
  actions: {
    storeToken: (_, _params: { token: string }) => undefined,
    clearToken: () => undefined,
    /** The person chose to sign out (not a session that ran out): what they leave behind is theirs to take away. */
    signedOut: (_, _params: { userId: string }) => undefined,
    setUser: assign((_, params: { user: UserInfo }) => ({ user: params.user, error: null })),
    forgetUser: assign({ user: null }),
    notePresence: assign(({ context }) => nextPresence(context)),
    markSignedOut: assign({ signedOut: true }),
    setError: assign((_, params: { error: unknown }) => ({ error: messageOf(params.error) })),
    showKept: assign((_, params: { conversations: KeptConversation[] }) => ({ kept: params.conversations })),
    forgetKept: assign({ kept: null }),
  },
  guards: {
    hasToken: () => false,
    isUnauthorized: (_, params: { error: unknown }) => statusOf(params.error) === 401,
    /** The server could not be reached at all (offline, or a gateway with nothing behind it). */
    isUnreachable: (_, params: { error: unknown }) => isUnreachable(params.error),
    hasKeptConversations: (_, params: { conversations: KeptConversation[] }) => params.conversations.length > 0,
    /** An update that arrives after a switch of account must not overwrite the new one. */
    isSameUser: ({ context }, params: { user: UserInfo }) => context.user?.id === params.user.id,
  },
}).createMachine({
  id: 'app',
  context: { user: null, error: null, presence: null, lastAccount: null, signedOut: false, kept: null },
  invoke: { src: 'toasts', id: 'toasts', systemId: 'toasts' },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'prepare',
        onDone: [{ guard: 'hasToken', target: 'checkingSession' }, { target: 'loaded.visitor' }],
        onError: { target: 'errored', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    checkingSession: {
      invoke: {
        src: 'fetchUser',
        onDone: { target: 'loaded.signedIn', actions: { type: 'setUser', params: ({ event }) => ({ user: event.output }) } },
        onError: [
          {
            guard: { type: 'isUnauthorized', params: ({ event }) => ({ error: event.error }) },
            target: 'loaded.visitor',
            actions: ['clearToken', 'forgetUser'],
          },
          // Without the network the person may still read what they read lately, if this device kept it.
          {
            guard: { type: 'isUnreachable', params: ({ event }) => ({ error: event.error }) },
            target: 'readingLibrary',
            actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'errored', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    readingLibrary: {
      invoke: {
        src: 'readLibrary',
        onDone: [
          {
            guard: { type: 'hasKeptConversations', params: ({ event }) => ({ conversations: event.output }) },
            target: 'offline',
            actions: { type: 'showKept', params: ({ event }) => ({ conversations: event.output }) },
          },
          { target: 'errored' },
        ],
        onError: 'errored',
      },
    },
    /**
     * Started without the network, with conversations kept on this device: they can be read (the
     * one the address names), nothing sent; the app starts as usual once the network is back, or
     * on Try again, at the same address.
     */
    offline: {
      invoke: { src: 'networkReturns' },
      exit: 'forgetKept',
      on: { retry: 'loading' },
    },
    loaded: {
      initial: 'visitor',
      on: {
        'session.signedIn': {
          target: '.signedIn',
          actions: [
            { type: 'storeToken', params: ({ event }) => ({ token: event.token }) },
            { type: 'setUser', params: ({ event }) => ({ user: event.user }) },
            // Another account signing in over this one stays in signedIn: noted here too.
            'notePresence',
          ],
        },
      },
      states: {
        visitor: { entry: 'notePresence' },
        signedIn: {
          entry: 'notePresence',
          on: {
            'session.updated': {
              guard: { type: 'isSameUser', params: ({ event }) => ({ user: event.user }) },
              actions: { type: 'setUser', params: ({ event }) => ({ user: event.user }) },
            },
            'session.refresh': 'refreshing',
            'session.signOut': 'signingOut',
            'session.expired': { target: 'visitor', actions: ['clearToken', 'forgetUser'] },
          },
        },
        refreshing: {
          invoke: {
            src: 'fetchUser',
            onDone: { target: 'signedIn', actions: { type: 'setUser', params: ({ event }) => ({ user: event.output }) } },
            onError: [
              {
                guard: { type: 'isUnauthorized', params: ({ event }) => ({ error: event.error }) },
                target: 'visitor',
                actions: ['clearToken', 'forgetUser'],
              },
              { target: 'signedIn' },
            ],
          },
        },
        signingOut: {
          // The token is forgotten whatever the server answers: logging out always works here.
          invoke: {
            src: 'revokeSession',
            onDone: { target: 'visitor', actions: [sayWhoSignedOut, 'markSignedOut', 'clearToken', 'forgetUser'] },
            onError: { target: 'visitor', actions: [sayWhoSignedOut, 'markSignedOut', 'clearToken', 'forgetUser'] },
          },
        },
      },
    },
    errored: {
      // A start that failed offline starts again by itself once the network is back.
      invoke: { src: 'networkReturns' },
      on: { retry: 'loading' },
    },
  },
});

export const isSignedIn = (state: SnapshotFrom<typeof appMachine>): boolean =>
  state.matches({ loaded: 'signedIn' }) || state.matches({ loaded: 'refreshing' }) || state.matches({ loaded: 'signingOut' });


/** Whether the app knows yet if the person is signed in (their stored token is still being checked). */
export const isCheckingSession = (state: SnapshotFrom<typeof appMachine>): boolean => state.matches('checkingSession') || state.matches('readingLibrary');
