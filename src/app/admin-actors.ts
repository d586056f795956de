import { fromPromise } from 'xstate';
import { i18n } from '../i18n';
import { adminAuditMachine } from '../machines/admin-audit.machine';
import { adminConnectorsMachine } from '../machines/admin-connectors.machine';
import { adminConsoleMachine, type AdminPanel } from '../machines/admin-console.machine';
import { adminInvitationsMachine } from '../machines/admin-invitations.machine';
import { adminModelsMachine } from '../machines/admin-models.machine';
import { adminReviewsMachine, type ReviewPage } from '../machines/admin-reviews.machine';
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
import {
  approveAgentVersion,
  deleteModel,
  deleteModelProvider,
  discoverModels,
  listAgentReviews,
  listModelProviders,
  readAgentDraft,
  rejectAgentVersion,
  saveModel,
  saveModelProvider,
  setDefaultModel,
} from '../services/api/admin-models';
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

export const adminModelsLogic = ({ toast }: Toast) =>
  adminModelsMachine.provide({
    actors: {
      listProviders: fromPromise(({ signal }) => listModelProviders({ ...silent, signal })),
      saveProvider: fromPromise(({ input }) => saveModelProvider(input, silent)),
      deleteProvider: fromPromise(async ({ input }) => {
        await deleteModelProvider(input.id, silent);
      }),
      discoverModels: fromPromise(({ input, signal }) => discoverModels(input.id, { ...silent, signal })),
      saveModel: fromPromise(({ input }) => saveModel(input, silent)),
      addDiscoveredModel: fromPromise(({ input }) => saveModel(input, silent)),
      deleteModel: fromPromise(async ({ input }) => {
        await deleteModel(input.id, silent);
      }),
      setDefault: fromPromise(({ input }) => setDefaultModel(input.id, silent)),
    },
    actions: { notify: (_, { kind, name }) => toast({ title: i18n.t(`admin.models.toasts.${kind}`, { name }), variant: 'success' }) },
  });

/**
 * A page of the queue with what the admin judges it by: the models' names (from the registry) and
 * each agent's organisation (from the agent, named from the organisations). Those two are read
 * beside the queue and only add to it: without them the queue still shows.
 */
const loadReviews = async (request: { current: number; pageSize: number }, signal: AbortSignal): Promise<ReviewPage> => {
  const options = { ...silent, signal };
  const page = await listAgentReviews(request, options);
  const agentIds = [...new Set(page.list.map((version) => version.agentId))];
  const [providers, organisations, agents] = await Promise.all([
    listModelProviders(options).catch(() => []),
    listOrganisations(options).catch(() => []),
    Promise.all(agentIds.map((agentId) => readAgentDraft(agentId, options).catch(() => null))),
  ]);
  const modelNames = Object.fromEntries(providers.flatMap((provider) => provider.models.map((model) => [model.id, model.name] as const)));
  const organisationNames = new Map(organisations.map((organisation) => [organisation.id, organisation.name]));
  const organisationOf = (companyId: string | null) => (companyId === null ? [null] : organisationNames.has(companyId) ? [organisationNames.get(companyId)!] : []);
  return {
    page,
    modelNames,
    organisations: Object.fromEntries(agents.flatMap((agent) => (agent ? organisationOf(agent.companyId).map((name) => [agent.agentId, name] as const) : []))),
  };
};

export const adminReviewsLogic = ({ toast }: Toast) =>
  adminReviewsMachine.provide({
    actors: {
      loadReviews: fromPromise(({ input, signal }) => loadReviews(input, signal)),
      approveVersion: fromPromise(({ input }) => approveAgentVersion(input.versionId, silent)),
      rejectVersion: fromPromise(({ input }) => rejectAgentVersion(input, silent)),
    },
    actions: { notify: (_, { kind, name }) => toast({ title: i18n.t(`admin.reviews.toasts.${kind}`, { name }), variant: 'success' }) },
  });
