import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, isNotNull } from 'drizzle-orm';
import {
  ENV_MODEL_ID,
  MODEL_ERRORS,
  type AdminModel,
  type AdminProvider,
  type DiscoveredModels,
} from '../../src/contract/models';
import type { Db } from '../db/client';
import { agents, modelProviders, models } from '../db/schema';
import type { Services } from '../deps';
import { conflict, notFound, refusedWith } from '../http/errors';
import { checkBaseUrl, guardedGet, normalBaseUrl, resolvedRefusal, type OutboundPolicy } from '../net/outbound';
import { audit, type Actor } from '../services/audit';
import { registryOf, type Registry, type RegistryModel, type RegistryProvider } from './registry';

type AdminServices = Pick<Services, 'db' | 'clock' | 'config' | 'sealer' | 'models'>;

const NO_SECRET_KEY = 'Set CONNECTOR_KEY on the server (32 characters or more) before storing a provider key: keys are kept encrypted.';
const READ_ONLY = 'The environment’s provider (LLM_*) and the offline responder are set where the server starts, not in the console.';
const IN_USE = (what: string, n: number) =>
  `${what} answers for ${n} published agent${n === 1 ? '' : 's'}: give ${n === 1 ? 'it' : 'them'} another model, or retire ${n === 1 ? 'it' : 'them'}, first.`;

/** What discovery reads of a provider's answer, at most. */
export const DISCOVERY_MAX_BYTES = 1024 * 1024;
export const DISCOVERY_TIMEOUT_MS = 10_000;
/** Models listed from one discovery, at most; longer names are skipped. */
export const DISCOVERED_MAX = 500;

export const outboundPolicy = (config: Services['config']): OutboundPolicy => ({ privateNetwork: config.modelProvidersOnPrivateNetwork });

/** The registry as the database holds it now, not as an instance keeps it. */
export async function readRegistry(db: Db, config: Services['config']): Promise<Registry> {
  const rows = await db
    .select({ provider: modelProviders, model: models })
    .from(modelProviders)
    .leftJoin(models, eq(models.providerId, modelProviders.id))
    .orderBy(modelProviders.createdAt, modelProviders.id, models.createdAt, models.id);
  return registryOf(rows, config);
}

/** How many live agents answer with each model they name. */
async function agentsByModel(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ modelId: agents.modelId, n: count() })
    .from(agents)
    .where(and(eq(agents.published, true), isNotNull(agents.modelId)))
    .groupBy(agents.modelId);
  return new Map(rows.map((row) => [row.modelId!, Number(row.n)]));
}

const toAdminModel = (registry: Registry, model: RegistryModel, inUse: Map<string, number>): AdminModel => ({
  id: model.id,
  providerId: model.providerId,
  model: model.model,
  name: model.name,
  contextWindow: model.contextWindow,
  maxOutput: model.maxOutput,
  vision: model.vision,
  enabled: model.enabled,
  isDefault: registry.default.id === model.id,
  agents: inUse.get(model.id) ?? 0,
});

/** An address as the console shows it: a user name or password written into LLM_BASE_URL is not. */
const shownUrl = (raw: string): string => {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return raw;
  }
};

const toAdminProvider = (registry: Registry, provider: RegistryProvider, inUse: Map<string, number>): AdminProvider => ({
  id: provider.id,
  name: provider.name,
  baseUrl: shownUrl(provider.baseUrl),
  hasKey: provider.sealedKey !== null,
  source: provider.source,
  models: provider.models.map((model) => toAdminModel(registry, model, inUse)),
  updatedAt: provider.updatedAt?.toISOString() ?? null,
});

export async function listProviders(services: AdminServices): Promise<AdminProvider[]> {
  const [registry, inUse] = await Promise.all([readRegistry(services.db, services.config), agentsByModel(services.db)]);
  return registry.providers.map((provider) => toAdminProvider(registry, provider, inUse));
}

async function consoleProvider(services: AdminServices, id: string): Promise<RegistryProvider> {
  const registry = await readRegistry(services.db, services.config);
  const provider = registry.provider(id);
  if (!provider) throw notFound('Model provider');
  if (provider.source !== 'console') throw refusedWith(409, MODEL_ERRORS.readOnly, READ_ONLY);
  return provider;
}

async function providerAnswer(services: AdminServices, id: string): Promise<AdminProvider> {
  const [registry, inUse] = await Promise.all([readRegistry(services.db, services.config), agentsByModel(services.db)]);
  return toAdminProvider(registry, registry.provider(id)!, inUse);
}

/** The base URL as stored, or 400 saying why the server will not call it. */
async function acceptedBaseUrl(raw: string, policy: OutboundPolicy): Promise<string> {
  const url = checkBaseUrl(raw, policy);
  if (typeof url === 'string') throw refusedWith(400, MODEL_ERRORS.addressRefused, `The provider's address is refused: ${url}.`);
  const refusal = await resolvedRefusal(url.hostname, policy);
  if (refusal) throw refusedWith(400, MODEL_ERRORS.addressRefused, `The provider's address is refused: ${refusal}.`);
  return normalBaseUrl(url);
}

/** Adds a provider or changes one; its key sealed, never kept in the clear nor written to the audit. */
export async function saveProvider(
  services: AdminServices,
  actor: Actor,
  input: { id?: string; name: string; baseUrl: string; apiKey?: string },
): Promise<AdminProvider> {
  const { db, clock, sealer } = services;
  const baseUrl = await acceptedBaseUrl(input.baseUrl, outboundPolicy(services.config));
  if (input.apiKey && !sealer) throw refusedWith(409, MODEL_ERRORS.noSecretKey, NO_SECRET_KEY);
  const sealedKey = input.apiKey === undefined ? undefined : input.apiKey === '' ? null : sealer!.seal(input.apiKey);
  const now = clock.now();
  let id = input.id;
  if (id) {
    await consoleProvider(services, id);
    await db
      .update(modelProviders)
      .set({ name: input.name, baseUrl, ...(sealedKey !== undefined ? { sealedKey } : {}), updatedAt: now, updatedBy: actor.id })
      .where(eq(modelProviders.id, id));
  } else {
    id = randomUUID();
    await db.insert(modelProviders).values({ id, name: input.name, baseUrl, sealedKey: sealedKey ?? null, createdAt: now, updatedAt: now, updatedBy: actor.id });
  }
  const key = sealedKey === undefined ? 'kept' : sealedKey === null ? 'none' : 'set';
  await audit(db, now, actor, input.id ? 'model.provider.update' : 'model.provider.create', id, { name: input.name, baseUrl, key });
  services.models.invalidate();
  return providerAnswer(services, id);
}

/** Removes a provider and its models, unless a live agent answers with one of them. */
export async function deleteProvider(services: AdminServices, actor: Actor, id: string): Promise<void> {
  const provider = await consoleProvider(services, id);
  const ids = provider.models.map((model) => model.id);
  await services.db.transaction(async (tx) => {
    if (ids.length > 0) {
      const [used] = await tx.select({ n: count() }).from(agents).where(and(eq(agents.published, true), inArray(agents.modelId, ids)));
      const n = Number(used?.n ?? 0);
      if (n > 0) throw refusedWith(409, MODEL_ERRORS.inUse, IN_USE(`A model of ${provider.name}`, n));
    }
    await tx.delete(modelProviders).where(eq(modelProviders.id, id));
  });
  await audit(services.db, services.clock.now(), actor, 'model.provider.delete', id, { name: provider.name });
  services.models.invalidate();
}

/**
 * The models a provider says it serves (`GET {base}/models`, OpenAI's `{ data: [{ id }] }`),
 * fetched under the outbound policy with its key, within DISCOVERY_TIMEOUT_MS and
 * DISCOVERY_MAX_BYTES. Nothing is added: the admin saves the ones wanted.
 */
export async function discoverModels(services: AdminServices, id: string): Promise<DiscoveredModels> {
  const provider = await consoleProvider(services, id);
  const policy = outboundPolicy(services.config);
  const url = checkBaseUrl(`${provider.baseUrl}/models`, policy);
  const failed = (why: string) => refusedWith(502, MODEL_ERRORS.discoveryFailed, `${provider.name} could not be asked for its models: ${why}.`);
  if (typeof url === 'string') throw refusedWith(400, MODEL_ERRORS.addressRefused, `The provider's address is refused: ${url}.`);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (provider.sealedKey) {
    if (!services.sealer) throw refusedWith(409, MODEL_ERRORS.noSecretKey, NO_SECRET_KEY);
    try {
      headers.authorization = `Bearer ${services.sealer.open(provider.sealedKey)}`;
    } catch {
      throw failed('its key cannot be opened with this server’s CONNECTOR_KEY; save the key again');
    }
  }
  const got = await guardedGet(url, { policy, headers, maxBytes: DISCOVERY_MAX_BYTES, timeoutMs: DISCOVERY_TIMEOUT_MS });
  if (!got.ok) throw failed(got.reason);
  if (got.status !== 200) throw failed(`it answered HTTP ${got.status}`);
  let listed: unknown;
  try {
    listed = (JSON.parse(got.text) as { data?: unknown }).data;
  } catch {
    throw failed('its answer is not JSON');
  }
  if (!Array.isArray(listed)) throw failed('its answer has no model list (`data`)');
  const names = [
    ...new Set(
      listed
        .map((entry) => (entry && typeof entry === 'object' ? (entry as { id?: unknown }).id : undefined))
        .filter((name): name is string => typeof name === 'string' && name.trim().length > 0 && name.length <= 200 && !name.includes('\u0000'))
        .map((name) => name.trim()),
    ),
  ]
    .sort()
    .slice(0, DISCOVERED_MAX);
  const added = new Set(provider.models.map((model) => model.model));
  return { list: names.map((model) => ({ model, added: added.has(model) })) };
}

/** Adds a model to a console provider or changes one; disabling the default leaves another default. */
export async function saveModel(
  services: AdminServices,
  actor: Actor,
  input: { id?: string; providerId: string; model: string; name: string; contextWindow: number | null; maxOutput: number | null; vision: boolean; enabled: boolean },
): Promise<AdminModel> {
  const { db, clock } = services;
  const provider = await consoleProvider(services, input.providerId);
  const now = clock.now();
  const values = {
    model: input.model,
    displayName: input.name,
    contextWindow: input.contextWindow,
    maxOutput: input.maxOutput,
    vision: input.vision,
    enabled: input.enabled,
    updatedAt: now,
  };
  const same = provider.models.find((model) => model.model === input.model && model.id !== input.id);
  if (same) throw conflict(`${provider.name} has a model ${input.model} already.`);
  let id = input.id;
  if (id) {
    if (!provider.models.some((model) => model.id === id)) throw notFound('Model');
    // A disabled model is nobody's default: the next one in line is.
    await db
      .update(models)
      .set({ ...values, ...(input.enabled ? {} : { isDefault: false }) })
      .where(eq(models.id, id));
  } else {
    id = randomUUID();
    await db.insert(models).values({ id, providerId: provider.id, ...values, isDefault: false, createdAt: now });
  }
  await audit(db, now, actor, input.id ? 'model.update' : 'model.create', id, { provider: provider.name, model: input.model, enabled: String(input.enabled) });
  services.models.invalidate();
  return modelAnswer(services, id);
}

async function modelAnswer(services: AdminServices, id: string): Promise<AdminModel> {
  const [registry, inUse] = await Promise.all([readRegistry(services.db, services.config), agentsByModel(services.db)]);
  const model = registry.model(id);
  if (!model) throw notFound('Model');
  return toAdminModel(registry, model, inUse);
}

export async function deleteModel(services: AdminServices, actor: Actor, id: string): Promise<void> {
  const registry = await readRegistry(services.db, services.config);
  const model = registry.model(id);
  if (!model) throw notFound('Model');
  if (registry.provider(model.providerId)?.source !== 'console') throw refusedWith(409, MODEL_ERRORS.readOnly, READ_ONLY);
  await services.db.transaction(async (tx) => {
    const [used] = await tx.select({ n: count() }).from(agents).where(and(eq(agents.published, true), eq(agents.modelId, id)));
    const n = Number(used?.n ?? 0);
    if (n > 0) throw refusedWith(409, MODEL_ERRORS.inUse, IN_USE(model.name, n));
    await tx.delete(models).where(eq(models.id, id));
  });
  await audit(services.db, services.clock.now(), actor, 'model.delete', id, { model: model.model });
  services.models.invalidate();
}

/**
 * Makes an enabled model the default, in one transaction (the others lose the mark first; the
 * database holds at most one). `env`: the environment's model, which is the default when no
 * console model is marked.
 */
export async function setDefaultModel(services: AdminServices, actor: Actor, id: string): Promise<AdminModel> {
  const registry = await readRegistry(services.db, services.config);
  const model = registry.model(id);
  if (!model || !model.enabled) throw refusedWith(400, MODEL_ERRORS.unknown, 'Only an enabled model can be the default.');
  const stored = registry.provider(model.providerId)?.source === 'console';
  if (!stored && id !== ENV_MODEL_ID) throw refusedWith(409, MODEL_ERRORS.readOnly, READ_ONLY);
  await services.db.transaction(async (tx) => {
    await tx.update(models).set({ isDefault: false }).where(eq(models.isDefault, true));
    if (stored) await tx.update(models).set({ isDefault: true }).where(and(eq(models.id, id), eq(models.enabled, true)));
  });
  await audit(services.db, services.clock.now(), actor, 'model.default', id, { model: model.model });
  services.models.invalidate();
  return modelAnswer(services, id);
}
