import { assign, setup } from 'xstate';
import { mayAdminister, type UserInfo } from '../contract/users';
import { statusOf, isUnreachable } from './error-status';

export const ADMIN_PANELS = ['users', 'organisations', 'invitations', 'connectors', 'usage', 'audit'] as const;
export type AdminPanel = (typeof ADMIN_PANELS)[number];

/** Who is at the console's door: nobody signed in (sent to log in), someone who is not an admin, or an admin. */
export type AdminAccess = 'visitor' | 'refused' | 'allowed';
export const adminAccess = (user: UserInfo | null): AdminAccess => (user === null ? 'visitor' : mayAdminister(user) ? 'allowed' : 'refused');

/** Where a visitor logs in to come back to the console. */
export const ADMIN_LOGIN_URL = `/login?redirect_url=${encodeURIComponent('/admin')}`;

/** Why a call of the console failed: its HTTP status, none when nothing answered. The screen words it. */
export type AdminFailure = { status: number | undefined };
export const failureOf = (error: unknown): AdminFailure => ({ status: isUnreachable(error) ? undefined : statusOf(error) });

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
