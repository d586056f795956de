import { HttpResponse, type HttpHandler } from 'msw';
import type { AdminUser, AuditEntry, Connector, Invitation, Usage } from '../../src/contract/admin';
import type { EndpointName } from '../../src/contract/endpoints';
import { ENV_MODEL_ID, ENV_PROVIDER_ID, MODEL_ERRORS, OFFLINE_MODEL_ID, OFFLINE_PROVIDER_ID, type AdminModel, type AdminProvider } from '../../src/contract/models';
import { STUDIO_ERRORS, type AgentContent, type AgentVersion } from '../../src/contract/studio';
import type { Role } from '../../src/contract/users';
import { db, nextId, nextTimestamp, seedUser, type SeededUser } from './db';
import { FakeApiError, failBody, ok, page, route, type RequestOf } from './fake-api';

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
  registry: Registry;
  /** Agent versions sent to the public market: waiting, approved or refused. */
  reviews: AgentVersion[];
};

/** A provider added in the console; its key is kept here and never answered. */
type StoredProvider = { id: string; name: string; baseUrl: string; key: string | null; updatedAt: string };
type StoredModel = Omit<AdminModel, 'isDefault' | 'agents'> & { markedDefault: boolean };
/** What a provider's `GET /models` answers: the models it lists, or why the server could not read them. */
type Discoverable = string[] | { status: number; reason: string; msg: string };
type Registry = {
  providers: Map<string, StoredProvider>;
  models: Map<string, StoredModel>;
  /** LLM_BASE_URL and LLM_MODEL where the server starts: the read-only provider `env`; none by default. */
  env: { baseUrl: string; model: string } | null;
  /** Whether CONNECTOR_KEY is set, so keys can be stored. */
  secretKey: boolean;
  /** How many published agents answer with each model. */
  agentsUsing: Map<string, number>;
  discoverable: Map<string, Discoverable>;
};

const stores = new WeakMap<object, Store>();
/** The admin state of the current fake database (a fresh one after each test's reset). */
export const adminStore = (): Store => {
  let store = stores.get(db.users);
  if (!store) {
    store = {
      organisations: new Map(),
      disabled: new Set(),
      createdAt: new Map(),
      lastSeenAt: new Map(),
      invitations: new Map(),
      connectors: new Map(),
      audit: [],
      usage: null,
      registry: { providers: new Map(), models: new Map(), env: null, secretKey: true, agentsUsing: new Map(), discoverable: new Map() },
      reviews: [],
    };
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

/** A refusal the server words with a `reason` a client can act on (MODEL_IN_USE, ...). */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** An admin route whose refusals carry their `reason` in the envelope, as the server's do. */
const registryRoute = <N extends AdminEndpointName>(name: N, resolve: (ctx: { input: RequestOf<N>; adminId: string }) => Response): HttpHandler =>
  adminRoute(name, (ctx) => {
    try {
      return resolve(ctx);
    } catch (error) {
      if (error instanceof Refusal) return HttpResponse.json({ ...failBody(error.message), reason: error.reason }, { status: error.status });
      throw error;
    }
  });

const READ_ONLY = 'The environment’s provider (LLM_*) and the offline responder are set where the server starts, not in the console.';
const inUse = (what: string, n: number) =>
  new Refusal(409, MODEL_ERRORS.inUse, `${what} answers for ${n} published agent${n === 1 ? '' : 's'}: give ${n === 1 ? 'it' : 'them'} another model, or retire ${n === 1 ? 'it' : 'them'}, first.`);

/** The server's address rule for a provider (public addresses only), for the literal hosts a test types. */
const addressRefusal = (raw: string): string | null => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL (for example https://api.openai.com/v1)';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${url.protocol} is not allowed (http or https only)`;
  if (url.username || url.password) return 'a user name or password in the URL (give the key instead)';
  if (url.search || url.hash) return 'a query or fragment in the URL';
  const host = url.hostname === 'localhost' ? '127.0.0.1' : url.hostname;
  const kind = /^127\./.test(host) ? 'loopback' : /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host) ? 'private' : /^169\.254\./.test(host) ? 'link-local' : null;
  if (!kind) return null;
  const hint = kind === 'link-local' ? '' : ' (set MODEL_PROVIDERS_ON_PRIVATE_NETWORK=on to allow this machine and private networks)';
  return `${host} is a ${kind} address${hint}`;
};

const consoleModels = () => [...adminStore().registry.models.values()];
const offlineAnswers = () => {
  const { env } = adminStore().registry;
  return env === null && !consoleModels().some((model) => model.enabled);
};

/** The default, as the server chooses it: the console's marked one when enabled, else the environment's, else the first enabled, else the offline responder. */
const defaultModelId = (): string => {
  const enabled = consoleModels().filter((model) => model.enabled);
  return enabled.find((model) => model.markedDefault)?.id ?? (adminStore().registry.env ? ENV_MODEL_ID : (enabled[0]?.id ?? OFFLINE_MODEL_ID));
};

const builtInModel = (id: string, providerId: string, model: string, name: string): AdminModel => ({
  id,
  providerId,
  model,
  name,
  contextWindow: null,
  maxOutput: null,
  vision: false,
  enabled: true,
  isDefault: defaultModelId() === id,
  agents: adminStore().registry.agentsUsing.get(id) ?? 0,
});

const adminModelOf = (stored: StoredModel): AdminModel => {
  const { markedDefault: _marked, ...model } = stored;
  return { ...model, isDefault: defaultModelId() === stored.id, agents: adminStore().registry.agentsUsing.get(stored.id) ?? 0 };
};

const adminProviderOf = (stored: StoredProvider): AdminProvider => ({
  id: stored.id,
  name: stored.name,
  baseUrl: stored.baseUrl,
  hasKey: stored.key !== null,
  source: 'console',
  models: consoleModels().filter((model) => model.providerId === stored.id).map(adminModelOf),
  updatedAt: stored.updatedAt,
});

/** Every provider as the console lists them: its own, the environment's, and the offline responder when nothing else answers. */
const listedProviders = (): AdminProvider[] => {
  const { providers, env } = adminStore().registry;
  const listed = [...providers.values()].map(adminProviderOf);
  if (env) {
    listed.push({ id: ENV_PROVIDER_ID, name: 'Environment (LLM_BASE_URL)', baseUrl: env.baseUrl, hasKey: false, source: 'environment', models: [builtInModel(ENV_MODEL_ID, ENV_PROVIDER_ID, env.model, env.model)], updatedAt: null });
  }
  if (offlineAnswers()) {
    listed.push({ id: OFFLINE_PROVIDER_ID, name: 'Offline responder', baseUrl: '', hasKey: false, source: 'offline', models: [builtInModel(OFFLINE_MODEL_ID, OFFLINE_PROVIDER_ID, OFFLINE_MODEL_ID, 'Offline responder')], updatedAt: null });
  }
  return listed;
};

const consoleProvider = (id: string): StoredProvider => {
  const provider = adminStore().registry.providers.get(id);
  if (provider) return provider;
  if (id === ENV_PROVIDER_ID || id === OFFLINE_PROVIDER_ID) throw new Refusal(409, MODEL_ERRORS.readOnly, READ_ONLY);
  throw new FakeApiError(404, 'Model provider not found');
};

const NOT_PENDING = 'This version is not waiting for approval any more (approved, refused, or replaced by a newer one).';
const pendingVersion = (versionId: string): AgentVersion => {
  const version = adminStore().reviews.find((candidate) => candidate.versionId === versionId);
  if (!version || version.status !== 'pending') throw new Refusal(409, STUDIO_ERRORS.notPending, NOT_PENDING);
  return version;
};

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
  adminModelProviderList: registryRoute('adminModelProviderList', () => ok('adminModelProviderList', listedProviders())),
  adminModelProviderSave: registryRoute('adminModelProviderSave', ({ input, adminId }) => {
    const { registry } = adminStore();
    const refusal = addressRefusal(input.baseUrl);
    if (refusal) throw new Refusal(400, MODEL_ERRORS.addressRefused, `The provider's address is refused: ${refusal}.`);
    if (input.apiKey && !registry.secretKey) throw new Refusal(409, MODEL_ERRORS.noSecretKey, 'Set CONNECTOR_KEY on the server (32 characters or more) before storing a provider key: keys are kept encrypted.');
    const baseUrl = input.baseUrl.replace(/\/+$/, '');
    const stored = input.id ? consoleProvider(input.id) : { id: nextId('provider'), name: '', baseUrl: '', key: null, updatedAt: '' };
    Object.assign(stored, { name: input.name, baseUrl, updatedAt: nextTimestamp() }, input.apiKey === undefined ? {} : { key: input.apiKey === '' ? null : input.apiKey });
    registry.providers.set(stored.id, stored);
    record(adminId, input.id ? 'model.provider.update' : 'model.provider.create', stored.id, { name: input.name, baseUrl, key: input.apiKey === undefined ? 'kept' : input.apiKey === '' ? 'none' : 'set' });
    return ok('adminModelProviderSave', adminProviderOf(stored));
  }),
  adminModelProviderDelete: registryRoute('adminModelProviderDelete', ({ input, adminId }) => {
    const { registry } = adminStore();
    const provider = consoleProvider(input.id);
    const models = consoleModels().filter((model) => model.providerId === provider.id);
    const used = models.reduce((sum, model) => sum + (registry.agentsUsing.get(model.id) ?? 0), 0);
    if (used > 0) throw inUse(`A model of ${provider.name}`, used);
    for (const model of models) registry.models.delete(model.id);
    registry.providers.delete(provider.id);
    record(adminId, 'model.provider.delete', provider.id, { name: provider.name });
    return ok('adminModelProviderDelete', null);
  }),
  adminModelDiscover: registryRoute('adminModelDiscover', ({ input }) => {
    const provider = consoleProvider(input.id);
    const listed = adminStore().registry.discoverable.get(provider.id) ?? [];
    if (!Array.isArray(listed)) throw new Refusal(listed.status, listed.reason, listed.msg);
    const added = new Set(consoleModels().filter((model) => model.providerId === provider.id).map((model) => model.model));
    return ok('adminModelDiscover', { list: [...new Set(listed)].sort().map((model) => ({ model, added: added.has(model) })) });
  }),
  adminModelSave: registryRoute('adminModelSave', ({ input, adminId }) => {
    const { registry } = adminStore();
    const provider = consoleProvider(input.providerId);
    const siblings = consoleModels().filter((model) => model.providerId === provider.id);
    if (siblings.some((model) => model.model === input.model && model.id !== input.id)) throw new FakeApiError(409, `${provider.name} has a model ${input.model} already.`);
    const before = input.id ? siblings.find((model) => model.id === input.id) : undefined;
    if (input.id && !before) throw new FakeApiError(404, 'Model not found');
    const stored: StoredModel = {
      id: before?.id ?? nextId('model'),
      providerId: provider.id,
      model: input.model,
      name: input.name,
      contextWindow: input.contextWindow,
      maxOutput: input.maxOutput,
      vision: input.vision,
      enabled: input.enabled,
      // A disabled model is nobody's default: the next one in line is.
      markedDefault: (before?.markedDefault ?? false) && input.enabled,
    };
    registry.models.set(stored.id, stored);
    record(adminId, input.id ? 'model.update' : 'model.create', stored.id, { provider: provider.name, model: input.model, enabled: String(input.enabled) });
    return ok('adminModelSave', adminModelOf(stored));
  }),
  adminModelDelete: registryRoute('adminModelDelete', ({ input, adminId }) => {
    const { registry } = adminStore();
    const model = registry.models.get(input.id);
    if (!model) {
      if (input.id === ENV_MODEL_ID || input.id === OFFLINE_MODEL_ID) throw new Refusal(409, MODEL_ERRORS.readOnly, READ_ONLY);
      throw new FakeApiError(404, 'Model not found');
    }
    const used = registry.agentsUsing.get(model.id) ?? 0;
    if (used > 0) throw inUse(model.name, used);
    registry.models.delete(model.id);
    record(adminId, 'model.delete', model.id, { model: model.model });
    return ok('adminModelDelete', null);
  }),
  adminModelSetDefault: registryRoute('adminModelSetDefault', ({ input, adminId }) => {
    const { registry } = adminStore();
    const stored = registry.models.get(input.id);
    const builtIn = listedProviders().flatMap((provider) => (provider.source === 'console' ? [] : provider.models)).find((model) => model.id === input.id);
    if (!(stored?.enabled ?? builtIn)) throw new Refusal(400, MODEL_ERRORS.unknown, 'Only an enabled model can be the default.');
    if (!stored && input.id !== ENV_MODEL_ID) throw new Refusal(409, MODEL_ERRORS.readOnly, READ_ONLY);
    for (const model of registry.models.values()) model.markedDefault = model.id === input.id;
    record(adminId, 'model.default', input.id, { model: stored?.model ?? builtIn!.model });
    return ok('adminModelSetDefault', stored ? adminModelOf(stored) : builtInModel(ENV_MODEL_ID, ENV_PROVIDER_ID, builtIn!.model, builtIn!.name));
  }),
  adminAgentReviewList: registryRoute('adminAgentReviewList', ({ input }) =>
    ok('adminAgentReviewList', page(adminStore().reviews.filter((version) => version.status === 'pending'), input.current, input.pageSize)),
  ),
  adminAgentApprove: registryRoute('adminAgentApprove', ({ input, adminId }) => {
    const version = pendingVersion(input.versionId);
    for (const other of adminStore().reviews) if (other.agentId === version.agentId) other.live = false;
    Object.assign(version, { status: 'published', live: true, reviewedAt: nextTimestamp(), reviewedByName: nameOf(adminId) });
    record(adminId, 'agent.approve', version.agentId, { versionId: version.versionId, name: version.content.name });
    return ok('adminAgentApprove', version);
  }),
  adminAgentReject: registryRoute('adminAgentReject', ({ input, adminId }) => {
    const version = pendingVersion(input.versionId);
    Object.assign(version, { status: 'rejected', reviewedAt: nextTimestamp(), reviewedByName: nameOf(adminId), reviewNote: input.reason });
    record(adminId, 'agent.reject', version.agentId, { versionId: version.versionId, name: version.content.name });
    return ok('adminAgentReject', version);
  }),
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

/** A provider added in the console, with its models (the first marked default when `markedDefault` says so); its key is kept, never answered. */
export const seedModelProvider = (
  partial: Partial<Omit<StoredProvider, 'id'>> & { models?: (Partial<Omit<StoredModel, 'id' | 'providerId'>> & Pick<StoredModel, 'model'>)[] } = {},
): AdminProvider => {
  const { models = [], ...provider } = partial;
  const { registry } = adminStore();
  const stored: StoredProvider = { id: nextId('provider'), name: 'Acme AI', baseUrl: 'https://api.acme.example/v1', key: null, updatedAt: nextTimestamp(), ...provider };
  registry.providers.set(stored.id, stored);
  for (const model of models) {
    const id = nextId('model');
    registry.models.set(id, { id, providerId: stored.id, name: model.model, contextWindow: null, maxOutput: null, vision: false, enabled: true, markedDefault: false, ...model });
  }
  return adminProviderOf(stored);
};

/** The deployment's own model (LLM_BASE_URL, LLM_MODEL), or none; whether CONNECTOR_KEY is set; how many published agents use a model; what a provider's `GET /models` answers. */
export const setModelEnvironment = (env: Registry['env'], options: { secretKey?: boolean } = {}): void => {
  const { registry } = adminStore();
  registry.env = env;
  registry.secretKey = options.secretKey ?? true;
};
export const setModelInUse = (modelId: string, agents: number): void => void adminStore().registry.agentsUsing.set(modelId, agents);
export const setDiscoverable = (providerId: string, answer: Discoverable): void => void adminStore().registry.discoverable.set(providerId, answer);
/** A provider's key as the fake server keeps it (never answered): for tests that check what was stored. */
export const storedProviderKey = (providerId: string): string | null | undefined => adminStore().registry.providers.get(providerId)?.key;

/** An agent's version sent to the public market and waiting for an admin, oldest first like the server's. */
export const seedPendingVersion = (content: Partial<AgentContent> & Pick<AgentContent, 'name'>, partial: Partial<Omit<AgentVersion, 'content'>> = {}): AgentVersion => {
  const version: AgentVersion = {
    versionId: nextId('version'),
    agentId: nextId('agent'),
    status: 'pending',
    live: false,
    createdAt: nextTimestamp(),
    createdByName: 'Ada',
    reviewedAt: null,
    reviewedByName: null,
    reviewNote: null,
    ...partial,
    content: { avatar: '', intro: '', category: null, systemPrompt: '', modelId: null, parameters: {}, starters: {}, translations: {}, allowModelChoice: false, visibility: 'public', ...content },
  };
  adminStore().reviews.push(version);
  return version;
};
