import type { HttpHandler } from 'msw';
import type { AdminUser, AuditEntry, Connector, Invitation, Usage } from '../../src/contract/admin';
import type { EndpointName } from '../../src/contract/endpoints';
import type { Role } from '../../src/contract/users';
import { db, nextId, nextTimestamp, seedUser, type SeededUser } from './db';
import { FakeApiError, ok, page, route, type RequestOf } from './fake-api';
import { modelAdminHandlers } from './studio-handlers';

/**
 * The fake admin API of the console: the server's rules (admins only, 409 for an admin demoting
 * or disabling themselves or the last admin, links answered once) kept in memory beside the fake
 * database, whose accounts it reads and changes. Its store follows the fake database's resets.
 */
export type AdminEndpointName = Extract<EndpointName, `admin${string}`>;

type Store = {
  organisations: Map<string, { id: string; name: string }>;
  disabled: Set<string>;
  /** When each account was made, for "newest first" (accounts seeded elsewhere count as oldest). */
  createdAt: Map<string, string>;
  lastSeenAt: Map<string, string>;
  invitations: Map<string, Invitation>;
  /** LinkedIn connectors by organisation. */
  connectors: Map<string, Connector>;
  audit: AuditEntry[];
  /** What adminUsage answers; zeros for every day when unset. */
  usage: Usage | null;
};

const stores = new WeakMap<object, Store>();
/** The admin state of the current fake database (a fresh one after each test's reset). */
export const adminStore = (): Store => {
  let store = stores.get(db.users);
  if (!store) {
    store = { organisations: new Map(), disabled: new Set(), createdAt: new Map(), lastSeenAt: new Map(), invitations: new Map(), connectors: new Map(), audit: [], usage: null };
    stores.set(db.users, store);
  }
  return store;
};

/**
 * An admin route on the fake API's shared plumbing (which already answers 401 and 403): a disabled
 * admin's session no longer counts, as on the server.
 */
const adminRoute = <N extends AdminEndpointName>(name: N, resolve: (ctx: { input: RequestOf<N>; adminId: string }) => Response): HttpHandler =>
  route(name, ({ input, caller }) => {
    if (caller.kind !== 'user' || adminStore().disabled.has(caller.userId)) throw new FakeApiError(401, 'Your session has expired or was ended. Please log in again.');
    return resolve({ input, adminId: caller.userId });
  });

const EPOCH = '2025-01-01T00:00:00.000Z';
const nameOf = (userId: string) => db.users.get(userId)?.nickname ?? userId;

const adminUserOf = (id: string): AdminUser => {
  const user = db.users.get(id);
  if (!user) throw new FakeApiError(404, 'Account not found');
  const store = adminStore();
  const organisation = user.companyId ? store.organisations.get(user.companyId) : undefined;
  return {
    id,
    username: user.username,
    nickname: user.nickname,
    role: user.role ?? 'member',
    companyId: organisation?.id ?? null,
    companyName: organisation?.name ?? null,
    disabled: store.disabled.has(id),
    createdAt: store.createdAt.get(id) ?? EPOCH,
    lastSeenAt: store.lastSeenAt.get(id) ?? null,
  };
};

const record = (adminId: string, action: string, target: string | null, details: Record<string, string> = {}) => {
  adminStore().audit.unshift({ id: nextId('audit'), at: nextTimestamp(), actorId: adminId, actorName: nameOf(adminId), sessionId: null, action, target, details });
};

const signOutEverywhere = (userId: string): number => {
  let revoked = 0;
  for (const [token, owner] of db.sessions) {
    if (owner !== userId) continue;
    db.sessions.delete(token);
    db.sessionDetails.delete(token);
    revoked += 1;
  }
  return revoked;
};

const activeAdmins = (): string[] => [...db.users.values()].filter((user) => user.role === 'admin' && !adminStore().disabled.has(user.id)).map((user) => user.id);

/** The server's 409s: an admin may not change their own role nor disable themselves, and the last admin stays one. */
const checkAdminsRemain = (adminId: string, targetId: string, role: Role | undefined, disabled: boolean | undefined) => {
  const losesAdmin = (role !== undefined && role !== 'admin') || disabled === true;
  if (!losesAdmin || db.users.get(targetId)?.role !== 'admin') return;
  if (targetId === adminId) throw new FakeApiError(409, 'You cannot change your own role or disable your own account; ask another admin.');
  if (activeAdmins().length <= 1) throw new FakeApiError(409, 'The last administrator cannot be removed.');
};

const organisationOf = (companyId: string) => {
  const organisation = adminStore().organisations.get(companyId);
  if (!organisation) throw new FakeApiError(404, 'Organisation not found');
  return organisation;
};

const unsetConnector = (companyId: string): Connector => ({
  companyId,
  platform: 'linkedin',
  configured: false,
  source: 'none',
  authorUrn: null,
  updatedAt: null,
  updatedByName: null,
});

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export const adminHandlers = {
  adminUserList: adminRoute('adminUserList', ({ input }) => {
    const keyword = input.keyword?.toLowerCase() ?? '';
    const users = [...db.users.keys()]
      .map(adminUserOf)
      .filter((user) => !keyword || user.username.toLowerCase().includes(keyword) || user.nickname.toLowerCase().includes(keyword))
      .filter((user) => !input.companyId || user.companyId === input.companyId)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return ok('adminUserList', page(users, input.current, input.pageSize));
  }),
  adminUserUpdate: adminRoute('adminUserUpdate', ({ input, adminId }) => {
    const stored = db.users.get(input.id);
    if (!stored) throw new FakeApiError(404, 'Account not found');
    checkAdminsRemain(adminId, input.id, input.role, input.disabled);
    const organisation = input.companyId ? organisationOf(input.companyId) : null;
    const companyId = input.companyId === undefined ? stored.companyId : input.companyId;
    if ((input.role ?? stored.role) === 'operator' && !companyId) throw new FakeApiError(400, 'An operator works for an organisation: choose one.');
    if (input.companyId !== undefined) {
      stored.companyId = organisation?.id;
      stored.companyName = organisation?.name;
    }
    if (input.role !== undefined) stored.role = input.role;
    if (input.disabled === true) {
      adminStore().disabled.add(input.id);
      signOutEverywhere(input.id);
    } else if (input.disabled === false) adminStore().disabled.delete(input.id);
    const { id: _id, ...change } = input;
    record(adminId, 'user.update', input.id, Object.fromEntries(Object.entries(change).map(([key, value]) => [key, String(value)])));
    return ok('adminUserUpdate', adminUserOf(input.id));
  }),
  adminUserSignOut: adminRoute('adminUserSignOut', ({ input, adminId }) => {
    adminUserOf(input.id);
    const revoked = signOutEverywhere(input.id);
    record(adminId, 'user.signOut', input.id, { revoked: String(revoked) });
    return ok('adminUserSignOut', { revoked });
  }),
  adminUserResetLink: adminRoute('adminUserResetLink', ({ input, adminId }) => {
    adminUserOf(input.id);
    record(adminId, 'user.resetLink', input.id);
    return ok('adminUserResetLink', { path: `/reset-password?token=${nextId('reset')}-secret`, expiresAt: new Date(Date.now() + 3600_000).toISOString() });
  }),
  adminOrganisationList: adminRoute('adminOrganisationList', () => {
    const members = (id: string) => [...db.users.values()].filter((user) => user.companyId === id).length;
    return ok('adminOrganisationList', [...adminStore().organisations.values()].map((organisation) => ({ ...organisation, members: members(organisation.id) })));
  }),
  adminOrganisationCreate: adminRoute('adminOrganisationCreate', ({ input, adminId }) => {
    const organisation = seedOrganisation(input.name);
    record(adminId, 'organisation.create', organisation.id, { name: organisation.name });
    return ok('adminOrganisationCreate', { ...organisation, members: 0 });
  }),
  adminInvitationList: adminRoute('adminInvitationList', () => ok('adminInvitationList', [...adminStore().invitations.values()].reverse())),
  adminInvitationCreate: adminRoute('adminInvitationCreate', ({ input, adminId }) => {
    const organisation = organisationOf(input.companyId);
    const invitation: Invitation = {
      id: nextId('invitation'),
      companyId: organisation.id,
      companyName: organisation.name,
      role: input.role,
      note: input.note || null,
      createdByName: nameOf(adminId),
      createdAt: nextTimestamp(),
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      acceptedAt: null,
      revokedAt: null,
    };
    adminStore().invitations.set(invitation.id, invitation);
    record(adminId, 'invitation.create', invitation.id, { companyId: organisation.id, role: input.role });
    return ok('adminInvitationCreate', { invitation, path: `/login?invitation=${invitation.id}-secret` });
  }),
  adminInvitationRevoke: adminRoute('adminInvitationRevoke', ({ input, adminId }) => {
    const invitation = adminStore().invitations.get(input.id);
    if (!invitation) throw new FakeApiError(404, 'Invitation not found');
    if (invitation.acceptedAt || invitation.revokedAt) throw new FakeApiError(409, 'This invitation was already used or revoked.');
    invitation.revokedAt = new Date().toISOString();
    record(adminId, 'invitation.revoke', invitation.id);
    return ok('adminInvitationRevoke', null);
  }),
  adminConnectorList: adminRoute('adminConnectorList', ({ input }) => {
    organisationOf(input.companyId);
    return ok('adminConnectorList', [adminStore().connectors.get(input.companyId) ?? unsetConnector(input.companyId)]);
  }),
  adminConnectorSet: adminRoute('adminConnectorSet', ({ input, adminId }) => {
    organisationOf(input.companyId);
    const connector: Connector = {
      companyId: input.companyId,
      platform: input.platform,
      configured: true,
      source: 'console',
      authorUrn: input.authorUrn,
      updatedAt: nextTimestamp(),
      updatedByName: nameOf(adminId),
    };
    adminStore().connectors.set(input.companyId, connector);
    record(adminId, 'connector.set', input.companyId, { platform: input.platform });
    return ok('adminConnectorSet', connector);
  }),
  adminConnectorClear: adminRoute('adminConnectorClear', ({ input, adminId }) => {
    organisationOf(input.companyId);
    adminStore().connectors.delete(input.companyId);
    record(adminId, 'connector.clear', input.companyId, { platform: input.platform });
    return ok('adminConnectorClear', null);
  }),
  adminUsage: adminRoute('adminUsage', ({ input }) => {
    const stored = adminStore().usage;
    if (stored) return ok('adminUsage', { ...stored, days: stored.days.slice(-input.days) });
    const today = Date.now();
    const days = Array.from({ length: input.days }, (_, index) => ({ day: isoDay(new Date(today - (input.days - 1 - index) * 86_400_000)), questions: 0, tokens: 0 }));
    return ok('adminUsage', { days, users: [], agents: [] });
  }),
  adminAuditList: adminRoute('adminAuditList', ({ input }) => {
    const entries = adminStore().audit.filter((entry) => !input.action || entry.action === input.action);
    return ok('adminAuditList', page(entries, input.current, input.pageSize));
  }),
  ...modelAdminHandlers,
} satisfies Record<AdminEndpointName, HttpHandler>;

/** An organisation in the fake server (as the console or `npm run admin` would have made it). */
export const seedOrganisation = (name: string): { id: string; name: string } => {
  const organisation = { id: nextId('company'), name };
  adminStore().organisations.set(organisation.id, organisation);
  return organisation;
};

/** An account with a role, in an organisation or none, made at a later time than the ones before. */
export const seedMember = (partial: Parameters<typeof seedUser>[0] & { role: Role; organisation?: { id: string; name: string } }): SeededUser => {
  const { organisation, ...rest } = partial;
  const seeded = seedUser({ ...rest, ...(organisation ? { companyId: organisation.id, companyName: organisation.name } : {}) });
  adminStore().createdAt.set(seeded.user.id, nextTimestamp());
  return seeded;
};

/** An entry of the audit log, newest first like the server's. */
export const seedAuditEntry = (partial: Partial<AuditEntry> & Pick<AuditEntry, 'action'>): AuditEntry => {
  const entry: AuditEntry = { id: nextId('audit'), at: nextTimestamp(), actorId: null, actorName: 'scheduler', sessionId: null, target: null, details: {}, ...partial };
  adminStore().audit.unshift(entry);
  return entry;
};
