import { assign, fromPromise, setup } from 'xstate';
import type { Invitation, Organisation } from '../contract/admin';
import type { Role } from '../contract/users';
import { failureOf, type AdminFailure } from './admin-console.machine';

export type InvitationDraft = { companyId: string; role: Role; note: string };
export type InvitationStatus = 'open' | 'accepted' | 'revoked' | 'expired';
/** A new invitation's link path, shown once: the server keeps only a hash of its token. */
export type CreatedInvitation = { invitation: Invitation; path: string };

export type AdminInvitationsContext = {
  invitations: Invitation[];
  organisations: Organisation[];
  /** The form as typed: kept when the server refuses it. */
  draft: InvitationDraft;
  created: CreatedInvitation | null;
  /** The invitation being revoked, to show its row busy. */
  revokingId: string | null;
  /** Why the last load, creation or revocation failed. */
  failure: (AdminFailure & { during: 'load' | 'create' | 'revoke' }) | null;
};

export type AdminInvitationsEvent =
  | { type: 'draft.change'; draft: Partial<InvitationDraft> }
  | { type: 'create' }
  | { type: 'created.dismiss' }
  | { type: 'revoke'; id: string }
  | { type: 'retry' };

export const invitationStatus = (invitation: Invitation, now: Date): InvitationStatus => {
  if (invitation.revokedAt) return 'revoked';
  if (invitation.acceptedAt) return 'accepted';
  return Date.parse(invitation.expiresAt) <= now.getTime() ? 'expired' : 'open';
};

export const invitationRequestOf = ({ companyId, role, note }: InvitationDraft) => ({
  companyId,
  role,
  ...(note.trim() ? { note: note.trim() } : {}),
});

/**
 * Invitations into an organisation with a role: the list with each one's status, a form that
 * answers the new link once (it cannot be shown again), and revoking an unused one.
 */
export const adminInvitationsMachine = setup({
  types: { context: {} as AdminInvitationsContext, events: {} as AdminInvitationsEvent },
  actors: {
    loadInvitations: fromPromise<{ invitations: Invitation[]; organisations: Organisation[] }>(async () => {
      throw new Error('loadInvitations is provided where the app starts');
    }),
    createInvitation: fromPromise<CreatedInvitation, ReturnType<typeof invitationRequestOf>>(async () => {
      throw new Error('createInvitation is provided where the app starts');
    }),
    revokeInvitation: fromPromise<void, { id: string }>(async () => {
      throw new Error('revokeInvitation is provided where the app starts');
    }),
  },
  actions: {
    revoked: () => undefined,
    setLoaded: assign(({ context }, params: { invitations: Invitation[]; organisations: Organisation[] }) => ({
      invitations: params.invitations,
      organisations: params.organisations,
      // The first organisation is chosen until the admin picks another one that still exists.
      draft: params.organisations.some((organisation) => organisation.id === context.draft.companyId)
        ? context.draft
        : { ...context.draft, companyId: params.organisations[0]?.id ?? '' },
      failure: null,
    })),
    changeDraft: assign(({ context }, params: { draft: Partial<InvitationDraft> }) => ({ draft: { ...context.draft, ...params.draft } })),
    setCreated: assign(({ context }, params: CreatedInvitation) => ({
      created: params,
      invitations: [params.invitation, ...context.invitations],
      draft: { ...context.draft, note: '' },
      failure: null,
    })),
    dismissCreated: assign({ created: null }),
    setRevoking: assign((_, params: { id: string }) => ({ revokingId: params.id, failure: null })),
    clearRevoking: assign({ revokingId: null }),
    setFailure: assign((_, params: { error: unknown; during: 'load' | 'create' | 'revoke' }) => ({ failure: { ...failureOf(params.error), during: params.during } })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    hasOrganisation: ({ context }) => context.organisations.some((organisation) => organisation.id === context.draft.companyId),
    isUnused: ({ context }, params: { id: string }) =>
      context.invitations.some((invitation) => invitation.id === params.id && !invitation.acceptedAt && !invitation.revokedAt),
  },
}).createMachine({
  id: 'adminInvitations',
  context: {
    invitations: [],
    organisations: [],
    draft: { companyId: '', role: 'member', note: '' },
    created: null,
    revokingId: null,
    failure: null,
  },
  on: {
    'draft.change': { actions: { type: 'changeDraft', params: ({ event }) => event } },
    'created.dismiss': { actions: 'dismissCreated' },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadInvitations',
        onDone: { target: 'ready', actions: { type: 'setLoaded', params: ({ event }) => event.output } },
        onError: { target: 'loadFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'load' as const }) } },
      },
    },
    loadFailed: { on: { retry: { target: 'loading', actions: 'clearFailure' } } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            create: { guard: 'hasOrganisation', target: 'creating', actions: ['dismissCreated', 'clearFailure'] },
            revoke: {
              guard: { type: 'isUnused', params: ({ event }) => event },
              target: 'revoking',
              actions: { type: 'setRevoking', params: ({ event }) => event },
            },
          },
        },
        creating: {
          invoke: {
            src: 'createInvitation',
            input: ({ context }) => invitationRequestOf(context.draft),
            onDone: { target: 'idle', actions: { type: 'setCreated', params: ({ event }) => event.output } },
            onError: { target: 'idle', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'create' as const }) } },
          },
        },
        revoking: {
          invoke: {
            src: 'revokeInvitation',
            input: ({ context }) => ({ id: context.revokingId! }),
            // Read again: the list then says what the server holds.
            onDone: { target: '#adminInvitations.loading', actions: ['clearRevoking', 'revoked'] },
            onError: { target: 'idle', actions: ['clearRevoking', { type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'revoke' as const }) }] },
          },
        },
      },
    },
  },
});
