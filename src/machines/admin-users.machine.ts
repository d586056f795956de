import { assign, fromPromise, setup } from 'xstate';
import type { AdminUser, Organisation } from '../contract/admin';
import type { EndpointInput } from '../contract/endpoints';
import type { Page } from '../contract/paging';
import type { Role } from '../contract/users';
import { failureOf, type AdminFailure } from './admin-console.machine';

export type UserFilters = { keyword: string; companyId: string | null; current: number };
/** What the admin changes on one account: its role, its organisation (`null`: none), whether it is disabled. */
export type UserChange = { role?: Role; companyId?: string | null; disabled?: boolean };
export type UserAction = 'update' | 'signOut' | 'resetLink';
/** A reset link, shown once to the admin who asked for it. */
export type ResetLink = { userId: string; name: string; path: string; expiresAt: string };
export type AdminUsersNotice = { kind: 'updated'; name: string } | { kind: 'signedOut'; name: string; count: number };

export type AdminUsersContext = {
  filters: UserFilters;
  /** What is in the search box; searched when the admin submits it. */
  typed: string;
  pageSize: number;
  users: AdminUser[];
  total: number;
  organisations: Organisation[];
  /** The account being changed, to show its row busy. */
  pending: { id: string; action: UserAction; change?: UserChange } | null;
  /** Why the last load or change failed, and which it was. */
  failure: (AdminFailure & { during: 'load' | UserAction }) | null;
  resetLink: ResetLink | null;
};

export type AdminUsersEvent =
  | { type: 'search.typed'; keyword: string }
  | { type: 'search' }
  | { type: 'filter.organisation'; companyId: string | null }
  | { type: 'page'; current: number }
  | { type: 'user.update'; id: string; change: UserChange }
  | { type: 'user.signOut'; id: string }
  | { type: 'user.resetLink'; id: string }
  | { type: 'resetLink.dismiss' }
  | { type: 'retry' };

export const ADMIN_USERS_PAGE_SIZE = 20;
type ListRequest = EndpointInput<'adminUserList'>;

export const userListRequestOf = ({ filters, pageSize }: Pick<AdminUsersContext, 'filters' | 'pageSize'>): ListRequest => ({
  current: filters.current,
  pageSize,
  ...(filters.keyword ? { keyword: filters.keyword } : {}),
  ...(filters.companyId ? { companyId: filters.companyId } : {}),
});

const nameOf = (context: AdminUsersContext, id: string): string => {
  const user = context.users.find((candidate) => candidate.id === id);
  return user ? user.nickname || user.username : id;
};

/**
 * The accounts of the instance: searched, filtered by organisation and paged; for each, a change
 * of role, organisation or disabled, a sign-out everywhere, and a one-time reset link. A refused
 * change (the server's 409 for an admin demoting or disabling themselves, or the last admin) keeps
 * the list as the server holds it and says why.
 */
export const adminUsersMachine = setup({
  types: { context: {} as AdminUsersContext, events: {} as AdminUsersEvent },
  actors: {
    listUsers: fromPromise<Page<AdminUser>, ListRequest>(async () => {
      throw new Error('listUsers is provided where the app starts');
    }),
    listOrganisations: fromPromise<Organisation[]>(async () => {
      throw new Error('listOrganisations is provided where the app starts');
    }),
    updateUser: fromPromise<AdminUser, { id: string } & UserChange>(async () => {
      throw new Error('updateUser is provided where the app starts');
    }),
    signOutUser: fromPromise<{ revoked: number }, { id: string }>(async () => {
      throw new Error('signOutUser is provided where the app starts');
    }),
    issueResetLink: fromPromise<{ path: string; expiresAt: string }, { id: string }>(async () => {
      throw new Error('issueResetLink is provided where the app starts');
    }),
  },
  actions: {
    notify: (_, _params: AdminUsersNotice) => undefined,
    setPage: assign((_, params: { page: Page<AdminUser> }) => ({ users: params.page.list, total: params.page.total, failure: null })),
    setOrganisations: assign((_, params: { organisations: Organisation[] }) => ({ organisations: params.organisations })),
    setTyped: assign((_, params: { keyword: string }) => ({ typed: params.keyword })),
    applySearch: assign(({ context }) => ({ filters: { ...context.filters, keyword: context.typed.trim(), current: 1 } })),
    applyOrganisation: assign(({ context }, params: { companyId: string | null }) => ({ filters: { ...context.filters, companyId: params.companyId, current: 1 } })),
    applyPage: assign(({ context }, params: { current: number }) => ({ filters: { ...context.filters, current: params.current } })),
    setPending: assign((_, params: { id: string; action: UserAction; change?: UserChange }) => ({ pending: params, failure: null })),
    clearPending: assign({ pending: null }),
    replaceUser: assign(({ context }, params: { user: AdminUser }) => ({
      users: context.users.map((user) => (user.id === params.user.id ? params.user : user)),
    })),
    setResetLink: assign((_, params: ResetLink) => ({ resetLink: params })),
    dismissResetLink: assign({ resetLink: null }),
    setFailure: assign(({ context }, params: { error: unknown }) => ({ failure: { ...failureOf(params.error), during: context.pending?.action ?? 'load' } })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    isListed: ({ context }, params: { id: string }) => context.users.some((user) => user.id === params.id),
    isPageInRange: ({ context }, params: { current: number }) =>
      params.current >= 1 && params.current <= Math.max(1, Math.ceil(context.total / context.pageSize)) && params.current !== context.filters.current,
  },
}).createMachine({
  id: 'adminUsers',
  context: {
    filters: { keyword: '', companyId: null, current: 1 },
    typed: '',
    pageSize: ADMIN_USERS_PAGE_SIZE,
    users: [],
    total: 0,
    organisations: [],
    pending: null,
    failure: null,
    resetLink: null,
  },
  // The organisations, for the filter and each account's select; the list works without them
  // (refused or unreachable, the filter and the selects are left empty).
  invoke: {
    src: 'listOrganisations',
    onDone: { actions: { type: 'setOrganisations', params: ({ event }) => ({ organisations: event.output }) } },
    onError: {},
  },
  on: {
    'search.typed': { actions: { type: 'setTyped', params: ({ event }) => ({ keyword: event.keyword }) } },
    'resetLink.dismiss': { actions: 'dismissResetLink' },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'listUsers',
        input: ({ context }) => userListRequestOf(context),
        onDone: { target: 'ready', actions: { type: 'setPage', params: ({ event }) => ({ page: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loadFailed: {
      on: { retry: { target: 'loading', actions: 'clearFailure' } },
    },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            search: { target: '#adminUsers.loading', actions: 'applySearch' },
            'filter.organisation': { target: '#adminUsers.loading', actions: { type: 'applyOrganisation', params: ({ event }) => event } },
            page: {
              guard: { type: 'isPageInRange', params: ({ event }) => event },
              target: '#adminUsers.loading',
              actions: { type: 'applyPage', params: ({ event }) => event },
            },
            'user.update': {
              guard: { type: 'isListed', params: ({ event }) => event },
              target: 'updating',
              actions: { type: 'setPending', params: ({ event }) => ({ id: event.id, action: 'update' as const, change: event.change }) },
            },
            'user.signOut': {
              guard: { type: 'isListed', params: ({ event }) => event },
              target: 'signingOut',
              actions: { type: 'setPending', params: ({ event }) => ({ id: event.id, action: 'signOut' as const }) },
            },
            'user.resetLink': {
              guard: { type: 'isListed', params: ({ event }) => event },
              target: 'issuingLink',
              actions: ['dismissResetLink', { type: 'setPending', params: ({ event }) => ({ id: event.id, action: 'resetLink' as const }) }],
            },
          },
        },
        updating: {
          invoke: {
            src: 'updateUser',
            input: ({ context }) => ({ id: context.pending!.id, ...context.pending!.change }),
            onDone: {
              target: 'idle',
              actions: [
                'clearPending',
                { type: 'replaceUser', params: ({ event }) => ({ user: event.output }) },
                { type: 'notify', params: ({ event }) => ({ kind: 'updated', name: event.output.nickname || event.output.username }) },
              ],
            },
            onError: { target: 'idle', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error }) }, 'clearPending'] },
          },
        },
        signingOut: {
          invoke: {
            src: 'signOutUser',
            input: ({ context }) => ({ id: context.pending!.id }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'notify', params: ({ context, event }) => ({ kind: 'signedOut', name: nameOf(context, context.pending!.id), count: event.output.revoked }) },
                'clearPending',
              ],
            },
            onError: { target: 'idle', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error }) }, 'clearPending'] },
          },
        },
        issuingLink: {
          invoke: {
            src: 'issueResetLink',
            input: ({ context }) => ({ id: context.pending!.id }),
            onDone: {
              target: 'idle',
              actions: [{ type: 'setResetLink', params: ({ context, event }) => ({ userId: context.pending!.id, name: nameOf(context, context.pending!.id), ...event.output }) }, 'clearPending'],
            },
            onError: { target: 'idle', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error }) }, 'clearPending'] },
          },
        },
      },
    },
  },
});
