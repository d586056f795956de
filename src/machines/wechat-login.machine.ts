import { and, assign, fromPromise, setup } from 'xstate';
import type { LoginResult } from '../contract/auth';
import type { WxConfig } from '../contract/wechat';
import type { Device } from '../services/env';
import { authorizationUrl } from '../services/wechat-links';
import { SCAN_APPROVAL_PATH } from '../services/redirect';

/** Redirects to WeChat's authorisation in a row before giving up (a code that keeps failing must not loop). */
export const MAX_WECHAT_ATTEMPTS = 3;

export type WechatLoginInput = {
  device: Device;
  /** The page address at start: its `code`, `state` and `scanid` decide the flow. */
  href: string;
  /** The `state` this browser sent to WeChat last time, if any. */
  savedState: string | null;
  /** A fresh random value for the next `state`. */
  nonce: string;
};

export type Notice = { kind: 'wechatFailed'; msg: string };

type WechatLoginContext = WechatLoginInput & {
  code: string | null;
  returnedState: string | null;
  scanId: string | null;
  /** Redirects already made in this run of attempts (read back from `state`). */
  attempt: number;
  config: WxConfig | null;
  failure: string | null;
};

export type WechatLoginEvent =
  /** The app's session check found nobody signed in. */
  | { type: 'session.visitor' }
  /** The app has a signed-in user (at start, or after any login). */
  | { type: 'session.signedIn' }
  | { type: 'retry' };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `state` is `<attempt>.<nonce>`: the nonce proves the return is ours, the attempt stops loops. */
export const stateFor = (attempt: number, nonce: string) => `${attempt}.${nonce}`;
export const attemptOf = (state: string | null): number => {
  const attempt = Number(state?.split('.')[0]);
  return Number.isInteger(attempt) && attempt > 0 ? Math.min(attempt, MAX_WECHAT_ATTEMPTS) : 0;
};

/**
 * The login state of section 4 beyond the session check: inside WeChat's in-app browser, a
 * visitor is signed in through WeChat's authorisation (config, then the code exchange, or a
 * redirect to get a code); elsewhere a visitor stays logged out. A `scanid` in the address opens
 * the approval page (once signed in, in WeChat), where only a click approves: a link never does.
 */
export const wechatLoginMachine = setup({
  types: {
    context: {} as WechatLoginContext,
    events: {} as WechatLoginEvent,
    input: {} as WechatLoginInput,
  },
  actors: {
    fetchConfig: fromPromise<WxConfig, { href: string }>(async () => {
      throw new Error('fetchConfig is provided where the app starts');
    }),
    exchangeCode: fromPromise<LoginResult, { code: string }>(async () => {
      throw new Error('exchangeCode is provided where the app starts');
    }),
  },
  actions: {
    /** Hands the session to the app (which stores the token in the cookie). */
    signedIn: (_, _params: LoginResult) => undefined,
    /** Leaves the page for WeChat's authorisation. */
    redirect: (_, _params: { url: string }) => undefined,
    /** Keeps the `state` sent to WeChat, to recognise the return. */
    rememberState: (_, _params: { state: string }) => undefined,
    /** The kept `state` has done its one job: a later return must bring the one of a new redirect. */
    forgetState: () => undefined,
    /** The address once signed in: without the used code (and off the login page). */
    leaveSignInAddress: (_, _params: { href: string }) => undefined,
    /** Opens the page that asks whether to approve the scan login (it sends a visitor to log in first). */
    openApproval: (_, _params: { scanId: string }) => undefined,
    notify: (_, _params: Notice) => undefined,
    setConfig: assign((_, params: { config: WxConfig }) => ({ config: params.config })),
    setFailure: assign((_, params: { error: unknown }) => ({ failure: messageOf(params.error) })),
    countAttempt: assign(({ context }) => ({ attempt: context.attempt + 1 })),
    startAttemptsOver: assign({ attempt: 0, failure: null, code: null, returnedState: null }),
    forgetCode: assign({ code: null, returnedState: null }),
    forgetScanId: assign({ scanId: null }),
  },
  guards: {
    inWechat: ({ context }) => context.device.wechat,
    hasCode: ({ context }) => context.code !== null,
    stateIsOurs: ({ context }) => context.savedState !== null && context.returnedState === context.savedState,
    hasScanId: ({ context }) => context.scanId !== null,
    mayRetry: ({ context }) => context.attempt < MAX_WECHAT_ATTEMPTS,
  },
}).createMachine({
  id: 'wechatLogin',
  context: ({ input }) => {
    const query = new URL(input.href).searchParams;
    const returnedState = query.get('state');
    return {
      ...input,
      code: query.get('code') || null,
      returnedState,
      scanId: new URL(input.href).pathname === SCAN_APPROVAL_PATH ? null : query.get('scanid') || null,
      attempt: attemptOf(returnedState),
      config: null,
      failure: null,
    };
  },
  initial: 'awaitingSession',
  states: {
    awaitingSession: {
      on: { 'session.signedIn': 'signedIn', 'session.visitor': 'visitor' },
    },
    visitor: {
      always: [
        { guard: 'inWechat', target: 'wechat' },
        {
          guard: 'hasScanId',
          target: 'loggedOut',
          actions: [{ type: 'openApproval', params: ({ context }) => ({ scanId: context.scanId! }) }, 'forgetScanId'],
        },
        { target: 'loggedOut' },
      ],
    },
    loggedOut: {
      on: { 'session.signedIn': 'signedIn' },
    },
    wechat: {
      initial: 'configuring',
      states: {
        configuring: {
          invoke: {
            src: 'fetchConfig',
            input: ({ context }) => ({ href: context.href }),
            onDone: { target: 'checkingCode', actions: { type: 'setConfig', params: ({ event }) => ({ config: event.output }) } },
            onError: {
              target: 'failed',
              actions: [
                { type: 'setFailure', params: ({ event }) => ({ error: event.error }) },
                { type: 'notify', params: ({ event }) => ({ kind: 'wechatFailed', msg: messageOf(event.error) }) },
              ],
            },
          },
        },
        checkingCode: {
          entry: 'forgetState',
          always: [
            { guard: and(['hasCode', 'stateIsOurs']), target: 'exchanging' },
            // no code of ours: none yet, one we did not ask for (an old or shared link), or WeChat
            // came back without one. Get our own while attempts are left: a return from the last
            // attempt without a code stops there instead of sending the reader round again.
            { target: 'retrying', actions: 'forgetCode' },
          ],
        },
        exchanging: {
          invoke: {
            src: 'exchangeCode',
            input: ({ context }) => ({ code: context.code! }),
            onDone: {
              target: '#wechatLogin.signedIn',
              actions: [
                { type: 'signedIn', params: ({ event }) => event.output },
                { type: 'leaveSignInAddress', params: ({ context }) => ({ href: context.href }) },
              ],
            },
            onError: {
              target: 'retrying',
              actions: [
                'forgetCode',
                { type: 'setFailure', params: ({ event }) => ({ error: event.error }) },
                { type: 'notify', params: ({ event }) => ({ kind: 'wechatFailed', msg: messageOf(event.error) }) },
              ],
            },
          },
        },
        retrying: {
          always: [{ guard: 'mayRetry', target: 'redirecting' }, { target: 'failed' }],
        },
        redirecting: {
          entry: [
            'countAttempt',
            { type: 'rememberState', params: ({ context }) => ({ state: stateFor(context.attempt, context.nonce) }) },
            {
              type: 'redirect',
              params: ({ context }) => ({
                url: authorizationUrl({
                  appId: context.config!.appId,
                  authorizeUrl: context.config!.authorizeUrl,
                  href: context.href,
                  state: stateFor(context.attempt, context.nonce),
                }),
              }),
            },
          ],
        },
        failed: {
          on: { retry: { target: '#wechatLogin.wechat', actions: 'startAttemptsOver' } },
        },
      },
    },
    signedIn: {
      always: [
        {
          guard: 'hasScanId',
          target: 'idle',
          actions: [{ type: 'openApproval', params: ({ context }) => ({ scanId: context.scanId! }) }, 'forgetScanId'],
        },
        { target: 'idle' },
      ],
    },
    idle: {},
  },
});
