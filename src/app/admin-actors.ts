import { fromPromise } from 'xstate';
import { i18n } from '../i18n';
import { adminAuditMachine } from '../machines/admin-audit.machine';
import { adminConnectorsMachine } from '../machines/admin-connectors.machine';
import { adminConsoleMachine, type AdminPanel } from '../machines/admin-console.machine';
import { adminInvitationsMachine } from '../machines/admin-invitations.machine';
import { adminOrganisationsMachine } from '../machines/admin-organisations.machine';
import { adminUsageMachine } from '../machines/admin-usage.machine';
import { adminUsersMachine, type AdminUsersNotice } from '../machines/admin-users.machine';
import {
  clearConnector,
  createInvitation,
  createOrganisation,
  getUsage,
  issueResetLink,
  listAdminUsers,
  listAudit,
  listConnectors,
  listInvitations,
  listOrganisations,
  revokeInvitation,
  setConnector,
  signOutAdminUser,
  updateAdminUser,
} from '../services/api/admin';
import type { Navigate, Runtime } from './runtime';

/**
 * The real side effects of the admin console's machines, given here rather than in the screens.
 * Every call is silent: each panel says itself, in the admin's language, what was refused.
 */
const silent = { silent: true } as const;
type Toast = Pick<Runtime, 'toast'>;

export const adminConsoleLogic = ({ navigate }: { navigate: Navigate }) =>
  adminConsoleMachine.provide({
    actions: {
      panelOpened: (_, { panel }: { panel: AdminPanel }) => navigate(panel === 'users' ? '/admin' : `/admin?panel=${panel}`, { replace: true }),
    },
  });

const usersNoticeToast = (notice: AdminUsersNotice) =>
  notice.kind === 'updated'
    ? { title: i18n.t('admin.users.updatedToast', { name: notice.name }), variant: 'success' as const }
    : { title: i18n.t('admin.users.signedOutToast', { name: notice.name, count: notice.count }), variant: 'success' as const };

export const adminUsersLogic = ({ toast }: Toast) =>
  adminUsersMachine.provide({
    actors: {
      listUsers: fromPromise(({ input, signal }) => listAdminUsers(input, { ...silent, signal })),
      listOrganisations: fromPromise(() => listOrganisations(silent)),
      updateUser: fromPromise(({ input }) => updateAdminUser(input, silent)),
      signOutUser: fromPromise(({ input }) => signOutAdminUser(input.id, silent)),
      issueResetLink: fromPromise(({ input }) => issueResetLink(input.id, silent)),
    },
    actions: { notify: (_, notice) => toast(usersNoticeToast(notice)) },
  });

export const adminOrganisationsLogic = ({ toast }: Toast) =>
  adminOrganisationsMachine.provide({
    actors: {
      listOrganisations: fromPromise(() => listOrganisations(silent)),
      createOrganisation: fromPromise(({ input }) => createOrganisation(input.name, silent)),
    },
    actions: {
      created: (_, { organisation }) => toast({ title: i18n.t('admin.organisations.createdToast', { name: organisation.name }), variant: 'success' }),
    },
  });

export const adminInvitationsLogic = ({ toast }: Toast) =>
  adminInvitationsMachine.provide({
    actors: {
      loadInvitations: fromPromise(async () => {
        const [invitations, organisations] = await Promise.all([listInvitations(silent), listOrganisations(silent)]);
        return { invitations, organisations };
      }),
      createInvitation: fromPromise(({ input }) => createInvitation(input, silent)),
      revokeInvitation: fromPromise(async ({ input }) => {
        await revokeInvitation(input.id, silent);
      }),
    },
    actions: { revoked: () => toast({ title: i18n.t('admin.invitations.revokedToast'), variant: 'success' }) },
  });

export const adminConnectorsLogic = ({ toast }: Toast) =>
  adminConnectorsMachine.provide({
    actors: {
      listOrganisations: fromPromise(() => listOrganisations(silent)),
      listConnectors: fromPromise(({ input, signal }) => listConnectors(input.companyId, { ...silent, signal })),
      setConnector: fromPromise(({ input }) => setConnector(input, silent)),
      clearConnector: fromPromise(async ({ input }) => {
        await clearConnector(input, silent);
      }),
    },
    actions: { notify: (_, { kind }) => toast({ title: i18n.t(`admin.connectors.${kind}Toast`), variant: 'success' }) },
  });

export const adminUsageLogic = () =>
  adminUsageMachine.provide({
    actors: { loadUsage: fromPromise(({ input, signal }) => getUsage(input.days, { ...silent, signal })) },
  });

export const adminAuditLogic = () =>
  adminAuditMachine.provide({
    actors: { listAudit: fromPromise(({ input, signal }) => listAudit(input, { ...silent, signal })) },
  });
