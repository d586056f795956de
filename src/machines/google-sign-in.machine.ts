import { and, assign, fromPromise, setup } from 'xstate';
import type { GoogleAuthorization, GoogleLoginRequest, LoginOptions, LoginResult } from '../contract/auth';
import { statusOf } from './error-status';

/** What this tab keeps while the person is on Google's page: the state to expect back, and where to go after. */
export type GoogleAttempt = { state: string; returnTo: string };

export type GoogleSignInInput =
  /** The login page: offer "Continue with Google" if the server has it. */
  | { mode: 'offer'; returnTo: string }
  /** The redirect URI (`/login/google`): Google's answer in `href`, and the attempt this tab started. */
  | { mode: 'return'; href: string; attempt: GoogleAttempt | null };

/** Why the sign-in stopped: Google was left without consent, the answer is not this tab's, or the server said no. */
export type GoogleFailure =
  | { reason: 'cancelled' }
  | { reason: 'foreign' }
  | { reason: 'rejected'; status: number | undefined; msg: string };

type GoogleSignInContext = {
  mode: GoogleSignInInput['mode'];
  returnTo: string;
  code: string | null;
  returnedState: string | null;
  googleError: string | null;
  attempt: GoogleAttempt | null;
  failure: GoogleFailure | null;
};

export type GoogleSignInEvent =
  /** "Continue with Google" (or "Try again" after a failure). */
  | { type: 'start' }
  /** The page came back from the browser's back-forward cache while it was leaving for Google. */
  | { type: 'page.restored' };

const rejected = (error: unknown): GoogleFailure => ({
  reason: 'rejected',
  status: statusOf(error),
  msg: error instanceof Error ? error.message : '',
});

/**
 * Google sign-in, both halves. On the login page: ask the server whether it offers Google, then
 * on "Continue with Google" get Google's page and a one-time state from the server, remember it
 * in this tab and leave for Google. On the redirect URI: exchange the code only if it came back
 * with the state this tab sent (else nothing is sent), then hand the session to the app and go
 * where the person was going. Any failure can start over.
 */
export const googleSignInMachine = setup({
  types: {
    context: {} as GoogleSignInContext,
    events: {} as GoogleSignInEvent,
    input: {} as GoogleSignInInput,
    /** `offered`: the button is on the page; `busy`: on the way to Google's page. */
    tags: {} as 'offered' | 'busy',
  },
  actors: {
    loadOptions: fromPromise<LoginOptions>(async () => {
      throw new Error('loadOptions is provided where the screen starts');
    }),
    authorize: fromPromise<GoogleAuthorization>(async () => {
      throw new Error('authorize is provided where the screen starts');
    }),
    login: fromPromise<LoginResult, GoogleLoginRequest>(async () => {
      throw new Error('login is provided where the screen starts');
    }),
  },
  actions: {
    /** Keeps the attempt in this tab (session storage) for the return. */
    rememberAttempt: (_, _params: GoogleAttempt) => undefined,
    forgetAttempt: () => undefined,
    /** Leaves the page for Google's consent page. */
    leaveForGoogle: (_, _params: { url: string }) => undefined,
    /** Hands the session to the app (which stores the token). */
    signedIn: (_, _params: LoginResult) => undefined,
    /** Goes where the person was going (a same-origin path). */
    leave: (_, _params: { to: string }) => undefined,
    fail: assign((_, failure: GoogleFailure) => ({ failure })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    /** The server says it offers Google sign-in. */
    offersGoogle: (_, params: { google: boolean }) => params.google,
    isReturn: ({ context }) => context.mode === 'return',
    googleRefused: ({ context }) => context.googleError !== null,
    stateIsOurs: ({ context }) =>
      context.attempt !== null && context.returnedState !== null && context.returnedState === context.attempt.state,
    hasCode: ({ context }) => context.code !== null,
  },
}).createMachine({
  id: 'googleSignIn',
  context: ({ input }) => {
    if (input.mode === 'offer') {
      return { mode: 'offer', returnTo: input.returnTo, code: null, returnedState: null, googleError: null, attempt: null, failure: null };
    }
    const query = new URL(input.href).searchParams;
    return {
      mode: 'return',
      returnTo: input.attempt?.returnTo ?? '/',
      code: query.get('code') || null,
      returnedState: query.get('state') || null,
      googleError: query.get('error') || null,
      attempt: input.attempt,
      failure: null,
    };
  },
  initial: 'deciding',
  states: {
    deciding: {
      always: [{ guard: 'isReturn', target: 'returned' }, { target: 'checking' }],
    },
    checking: {
      invoke: {
        src: 'loadOptions',
        onDone: [{ guard: { type: 'offersGoogle', params: ({ event }) => ({ google: event.output.google }) }, target: 'ready' }, { target: 'unavailable' }],
        // A backend without the call offers no Google sign-in.
        onError: 'unavailable',
      },
    },
    unavailable: {},
    ready: {
      tags: ['offered'],
      on: { start: { target: 'starting', actions: 'clearFailure' } },
    },
    starting: {
      tags: ['offered', 'busy'],
      invoke: {
        src: 'authorize',
        onDone: {
          target: 'leaving',
          actions: [
            { type: 'rememberAttempt', params: ({ context, event }) => ({ state: event.output.state, returnTo: context.returnTo }) },
            { type: 'leaveForGoogle', params: ({ event }) => ({ url: event.output.url }) },
          ],
        },
        onError: [
          { guard: 'isReturn', target: 'failed', actions: { type: 'fail', params: ({ event }) => rejected(event.error) } },
          { target: 'ready', actions: { type: 'fail', params: ({ event }) => rejected(event.error) } },
        ],
      },
    },
    leaving: {
      tags: ['offered', 'busy'],
      on: {
        'page.restored': [
          { guard: 'isReturn', target: 'failed', actions: { type: 'fail', params: { reason: 'cancelled' } } },
          { target: 'ready' },
        ],
      },
    },
    returned: {
      always: [
        { guard: 'googleRefused', target: 'failed', actions: ['forgetAttempt', { type: 'fail', params: { reason: 'cancelled' } }] },
        { guard: and(['stateIsOurs', 'hasCode']), target: 'exchanging' },
        // not the state this tab sent (or no code with it): never exchanged
        { target: 'failed', actions: ['forgetAttempt', { type: 'fail', params: { reason: 'foreign' } }] },
      ],
    },
    exchanging: {
      invoke: {
        src: 'login',
        input: ({ context }) => ({ code: context.code!, state: context.returnedState! }),
        onDone: {
          target: 'signedIn',
          actions: [
            'forgetAttempt',
            { type: 'signedIn', params: ({ event }) => event.output },
            { type: 'leave', params: ({ context }) => ({ to: context.returnTo }) },
          ],
        },
        onError: { target: 'failed', actions: ['forgetAttempt', { type: 'fail', params: ({ event }) => rejected(event.error) }] },
      },
    },
    failed: {
      on: { start: { target: 'starting', actions: 'clearFailure' } },
    },
    signedIn: { type: 'final' },
  },
});
