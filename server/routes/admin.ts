import type { Hono } from 'hono';
import type { Services } from '../deps';
import type { Caller } from '../http/caller';
import { forbidden } from '../http/errors';
import { ADMIN_FORBIDDEN, defineRoute, type AppEnv } from '../http/route';
import { issueResetLink } from '../services/accounts';
import {
  clearConnector,
  createInvitation,
  createOrganisation,
  listConnectors,
  listInvitations,
  listOrganisations,
  listUsers,
  revokeInvitation,
  setConnector,
  signOutEverywhere,
  updateUserAsAdmin,
  usage,
} from '../services/admin';
import { actorOf, listAudit } from '../services/audit';

/** The admin console's calls; the routes' `admin` access rule has already checked the role. */
export const adminOf = (caller: Caller) => {
  if (caller.kind !== 'user' || caller.user.role !== 'admin') throw forbidden(ADMIN_FORBIDDEN);
  return actorOf(caller);
};

export function adminRoutes(app: Hono<AppEnv>, services: Services) {
  const { db, clock, env } = services;
  defineRoute(app, services, 'adminUserList', ({ input, caller }) => (adminOf(caller), listUsers(db, input)));
  defineRoute(app, services, 'adminUserUpdate', ({ input, caller }) => updateUserAsAdmin(services, adminOf(caller), input));
  defineRoute(app, services, 'adminUserSignOut', ({ input, caller }) => signOutEverywhere(services, adminOf(caller), input.id));
  defineRoute(app, services, 'adminUserResetLink', async ({ input, caller }) => {
    const { path, expiresAt } = await issueResetLink(services, input.id, adminOf(caller));
    return { path, expiresAt };
  });
  defineRoute(app, services, 'adminOrganisationList', ({ caller }) => (adminOf(caller), listOrganisations(db)));
  defineRoute(app, services, 'adminOrganisationCreate', ({ input, caller }) => createOrganisation(services, adminOf(caller), input.name));
  defineRoute(app, services, 'adminInvitationList', ({ caller }) => (adminOf(caller), listInvitations(db)));
  defineRoute(app, services, 'adminInvitationCreate', ({ input, caller }) => createInvitation(services, adminOf(caller), input));
  defineRoute(app, services, 'adminInvitationRevoke', async ({ input, caller }) => {
    await revokeInvitation(services, adminOf(caller), input.id);
    return null;
  });
  defineRoute(app, services, 'adminConnectorList', ({ input, caller }) => (adminOf(caller), listConnectors(db, env, input.companyId)));
  defineRoute(app, services, 'adminConnectorSet', ({ input, caller }) => setConnector(services, adminOf(caller), env, input));
  defineRoute(app, services, 'adminConnectorClear', async ({ input, caller }) => {
    await clearConnector(services, adminOf(caller), input);
    return null;
  });
  defineRoute(app, services, 'adminUsage', ({ input, caller }) => (adminOf(caller), usage(db, clock.now(), input.days)));
  defineRoute(app, services, 'adminAuditList', ({ input, caller }) => (adminOf(caller), listAudit(db, input)));
}
