import { assign, setup } from 'xstate';
import { mayAdminister, type UserInfo } from '../contract/users';
import { statusOf, isUnreachable } from './error-status';

export const ADMIN_PANELS = ['users', 'organisations', 'invitations', 'connectors', 'models', 'reviews', 'usage', 'audit'] as const;
export type AdminPanel = (typeof ADMIN_PANELS)[number];

/** Who is at the console's door: nobody signed in (sent to log in), someone who is not an admin, or an admin. */
export type AdminAccess = 'visitor' | 'refused' | 'allowed';
export const adminAccess = (user: UserInfo | null): AdminAccess => (user === null ? 'visitor' : mayAdminister(user) ? 'allowed' : 'refused');

/** Where a visitor logs in to come back to the console. */
export const ADMIN_LOGIN_URL = `/login?redirect_url=${encodeURIComponent('/admin')}`;

/**
 * Why a call of the console failed: its HTTP status, none when nothing answered, and the
 * envelope's `reason` when the server gave one (`MODEL_IN_USE`, …). The screen words it.
 */
export type AdminFailure = { status: number | undefined; reason?: string };

/** The envelope's `reason`: on the error itself, or on the answer the HTTP client kept as its cause. */
const reasonOf = (error: unknown): string | undefined => {
  const read = (value: unknown): unknown => (typeof value === 'object' && value !== null && 'reason' in value ? (value as { reason?: unknown }).reason : undefined);
  const cause = typeof error === 'object' && error !== null && 'cause' in error ? (error as { cause?: unknown }).cause : undefined;
  const answer = typeof cause === 'object' && cause !== null && 'data' in cause ? (cause as { data?: unknown }).data : undefined;
  const reason = read(error) ?? read(answer);
  return typeof reason === 'string' ? reason : undefined;
};

export const failureOf = (error: unknown): AdminFailure => {
  if (isUnreachable(error)) return { status: undefined };
  const reason = reasonOf(error);
  return reason === undefined ? { status: statusOf(error) } : { status: statusOf(error), reason };
};

export const panelOf = (value: string | null | undefined): AdminPanel =>
  ADMIN_PANELS.includes(value as AdminPanel) ? (value as AdminPanel) : 'users';

/** Which panel of the console is open; the address keeps it (`?panel=`), so a reload shows the same one. */
export const adminConsoleMachine = setup({
  types: {
    context: {} as { panel: AdminPanel },
    events: {} as { type: 'open'; panel: AdminPanel },
    input: {} as { panel?: string | null },
  },
  actions: {
    openPanel: assign((_, params: { panel: AdminPanel }) => ({ panel: params.panel })),
    panelOpened: (_, _params: { panel: AdminPanel }) => undefined,
  },
  guards: {
    isAnotherPanel: ({ context }, params: { panel: AdminPanel }) => context.panel !== params.panel,
  },
}).createMachine({
  id: 'adminConsole',
  context: ({ input }) => ({ panel: panelOf(input.panel) }),
  on: {
    open: {
      guard: { type: 'isAnotherPanel', params: ({ event }) => ({ panel: event.panel }) },
      actions: [
        { type: 'openPanel', params: ({ event }) => ({ panel: event.panel }) },
        { type: 'panelOpened', params: ({ event }) => ({ panel: event.panel }) },
      ],
    },
  },
});
