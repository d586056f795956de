import { assign, fromPromise, setup } from 'xstate';
import type { InvitationPreview } from '../contract/accounts';
import type { LoginOptions } from '../contract/auth';
import type { UserInfo } from '../contract/users';
import { refusalKey } from '../i18n/refusal';
import { statusOf } from './error-status';

/** What the login page shows: the ways to log in, the sign-up form, or the request for a reset link. */
export type LoginMode = 'login' | 'signup' | 'forgot';

type LoginPageContext = {
  /** The token of the invitation link the page was opened with (`?invitation=`). */
  invitation: string | null;
  options: LoginOptions;
  preview: InvitationPreview | null;
  /** Why the invitation cannot be used, as a translation key. */
  invitationFailure: string | null;
  mode: LoginMode;
};

export type LoginPageEvent = { type: 'mode.login' } | { type: 'mode.signup' } | { type: 'mode.forgot' } | { type: 'accept' };

/** A link that no longer works (410), or never did (404, or not even a link's shape: 400), in the reader's words. */
export const linkFailureKey = (error: unknown): string => {
  const status = statusOf(error);
  if (status === 410) return 'login.links.gone';
  if (status === 404 || status === 400) return 'login.links.unknown';
  return refusalKey({ status });
};

/**
 * The login page around its forms. It asks the server what it offers (sign-up open, by
 * invitation or closed; reset links by mail) and, opened from an invitation link, what the
 * invitation is (organisation, role). Sign-up is offered when it is open, or by invitation with
 * a valid one in hand (then it is shown first). Someone already signed in accepts the invitation
 * with their account instead.
 */
export const loginPageMachine = setup({
  types: {
    context: {} as LoginPageContext,
    events: {} as LoginPageEvent,
    input: {} as { invitation: string | null },
  },
  actors: {
    loadOptions: fromPromise<LoginOptions>(async () => {
      throw new Error('loadOptions is provided where the screen starts');
    }),
    previewInvitation: fromPromise<InvitationPreview, { token: string }>(async () => {
      throw new Error('previewInvitation is provided where the screen starts');
    }),
    acceptInvitation: fromPromise<UserInfo, { token: string }>(async () => {
      throw new Error('acceptInvitation is provided where the screen starts');
    }),
  },
  actions: {
    setOptions: assign((_, options: LoginOptions) => ({ options })),
    setPreview: assign((_, preview: InvitationPreview) => ({ preview })),
    failInvitation: assign((_, params: { error: unknown }) => ({ invitationFailure: linkFailureKey(params.error) })),
    show: assign((_, params: { mode: LoginMode }) => ({ mode: params.mode })),
    /** The account joined the organisation: the app shows its new role, and the person goes on. */
    joined: (_, _params: { user: UserInfo; companyName: string }) => undefined,
  },
  guards: {
    hasInvitation: ({ context }) => context.invitation !== null,
    offersSignup: ({ context }) =>
      context.options.signup === 'open' || (context.options.signup === 'invite' && context.preview !== null),
    offersResetByMail: ({ context }) => context.options.resetByMail === true,
    hasValidInvitation: ({ context }) => context.preview !== null,
  },
}).createMachine({
  id: 'loginPage',
  context: ({ input }) => ({ invitation: input.invitation, options: { google: false }, preview: null, invitationFailure: null, mode: 'login' }),
  initial: 'loadingOptions',
  states: {
    loadingOptions: {
      invoke: {
        src: 'loadOptions',
        onDone: { target: 'deciding', actions: { type: 'setOptions', params: ({ event }) => event.output } },
        // A backend without the call offers only the password login.
        onError: 'deciding',
      },
    },
    deciding: {
      always: [{ guard: 'hasInvitation', target: 'previewing' }, { target: 'ready' }],
    },
    previewing: {
      invoke: {
        src: 'previewInvitation',
        input: ({ context }) => ({ token: context.invitation! }),
        onDone: { target: 'invited', actions: { type: 'setPreview', params: ({ event }) => event.output } },
        onError: { target: 'ready', actions: { type: 'failInvitation', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    invited: {
      always: [{ guard: 'offersSignup', target: 'ready', actions: { type: 'show', params: { mode: 'signup' } } }, { target: 'ready' }],
    },
    ready: {
      on: {
        'mode.login': { actions: { type: 'show', params: { mode: 'login' } } },
        'mode.signup': { guard: 'offersSignup', actions: { type: 'show', params: { mode: 'signup' } } },
        'mode.forgot': { guard: 'offersResetByMail', actions: { type: 'show', params: { mode: 'forgot' } } },
        accept: { guard: 'hasValidInvitation', target: 'accepting' },
      },
    },
    accepting: {
      invoke: {
        src: 'acceptInvitation',
        input: ({ context }) => ({ token: context.invitation! }),
        onDone: {
          target: 'accepted',
          actions: { type: 'joined', params: ({ context, event }) => ({ user: event.output, companyName: context.preview!.companyName }) },
        },
        onError: { target: 'ready', actions: { type: 'failInvitation', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    accepted: { type: 'final' },
  },
});
