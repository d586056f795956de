import { asc, eq } from 'drizzle-orm';
import { ENV_MODEL_ID, ENV_PROVIDER_ID, MODEL_ERRORS, OFFLINE_MODEL_ID, OFFLINE_PROVIDER_ID, type ModelSource, type UsableModel } from '../../src/contract/models';
import { OFFLINE_LABEL } from '../agents/offline-responder';
import type { ModelChoice } from '../agents/runtime';
import type { Clock, ServerConfig } from '../config';
import type { Db } from '../db/client';
import { modelProviders, models } from '../db/schema';
import { refusedWith } from '../http/errors';

export type RegistryModel = {
  id: string;
  providerId: string;
  /** As the provider's API names it. */
  model: string;
  name: string;
  contextWindow: number | null;
  maxOutput: number | null;
  vision: boolean;
  enabled: boolean;
  /** Marked the default in the console (the registry's `default` may be another when none is). */
  markedDefault: boolean;
};

export type RegistryProvider = {
  id: string;
  name: string;
  baseUrl: string;
  /** Sealed with CONNECTOR_KEY; null: none. Opened only to call the provider. */
  sealedKey: string | null;
  updatedAt: Date | null;
  source: ModelSource;
  models: RegistryModel[];
};

/**
 * Every model this server can answer with, as one instance read them: the console's providers and
 * models, the environment's (`env`, LLM_*), and the offline responder (`offline`) when nothing
 * else is enabled. The default: the console's marked one when enabled, else the environment's,
 * else the first enabled console model, else the offline responder.
 */
export type Registry = {
  providers: RegistryProvider[];
  /** The models a question may be answered with: enabled ones. */
  usable: RegistryModel[];
  default: RegistryModel;
  model(id: string): RegistryModel | undefined;
  provider(id: string): RegistryProvider | undefined;
};

/** How long one instance answers from what it read: changes made on another instance are seen within this. */
export const REGISTRY_TTL_MS = 10_000;

type Row = { provider: typeof modelProviders.$inferSelect; model: typeof models.$inferSelect | null };

/** The registry from the console's rows and the deployment's settings. */
export function registryOf(rows: Row[], config: Pick<ServerConfig, 'llm' | 'attachments'>): Registry {
  const providers = new Map<string, RegistryProvider>();
  for (const { provider, model } of rows) {
    let entry = providers.get(provider.id);
    if (!entry) {
      entry = { id: provider.id, name: provider.name, baseUrl: provider.baseUrl, sealedKey: provider.sealedKey, updatedAt: provider.updatedAt, source: 'console', models: [] };
      providers.set(provider.id, entry);
    }
    if (model) {
      entry.models.push({
        id: model.id,
        providerId: provider.id,
        model: model.model,
        name: model.displayName,
        contextWindow: model.contextWindow,
        maxOutput: model.maxOutput,
        vision: model.vision,
        enabled: model.enabled,
        markedDefault: model.isDefault,
      });
    }
  }
  const all = [...providers.values()];
  // MODEL_ACCEPTS_IMAGES is the deployment's word on its own model (and on the offline responder's stand-in).
  const builtInVision = config.attachments.modelAcceptsImages ?? false;
  if (config.llm) {
    all.push({
      id: ENV_PROVIDER_ID,
      name: 'Environment (LLM_BASE_URL)',
      baseUrl: config.llm.baseUrl,
      sealedKey: null,
      updatedAt: null,
      source: 'environment',
      models: [builtIn(ENV_MODEL_ID, ENV_PROVIDER_ID, config.llm.model, config.llm.model, builtInVision)],
    });
  }
  const enabledConsole = all.filter((p) => p.source === 'console').flatMap((p) => p.models.filter((m) => m.enabled));
  if (!config.llm && enabledConsole.length === 0) {
    all.push({
      id: OFFLINE_PROVIDER_ID,
      name: OFFLINE_LABEL,
      baseUrl: '',
      sealedKey: null,
      updatedAt: null,
      source: 'offline',
      models: [builtIn(OFFLINE_MODEL_ID, OFFLINE_PROVIDER_ID, OFFLINE_MODEL_ID, OFFLINE_LABEL, builtInVision)],
    });
  }
  const usable = all.flatMap((p) => p.models.filter((m) => m.enabled));
  const env = usable.find((m) => m.id === ENV_MODEL_ID);
  const chosen = enabledConsole.find((m) => m.markedDefault) ?? env ?? enabledConsole[0] ?? usable[0]!;
  const byId = new Map(all.flatMap((p) => p.models.map((m) => [m.id, m] as const)));
  const byProvider = new Map(all.map((p) => [p.id, p]));
  return { providers: all, usable, default: chosen, model: (id) => byId.get(id), provider: (id) => byProvider.get(id) };
}

const builtIn = (id: string, providerId: string, model: string, name: string, vision: boolean): RegistryModel => ({
  id,
  providerId,
  model,
  name,
  contextWindow: null,
  maxOutput: null,
  vision,
  enabled: true,
  markedDefault: false,
});

/** A model as a model picker shows it. */
export const toUsableModel = (registry: Registry, model: RegistryModel): UsableModel => ({
  id: model.id,
  name: model.name,
  contextWindow: model.contextWindow,
  maxOutput: model.maxOutput,
  vision: model.vision,
  isDefault: model.id === registry.default.id,
});

export const usableModel = (registry: Registry, id: string): RegistryModel | undefined => {
  const model = registry.model(id);
  return model?.enabled ? model : undefined;
};

/** What the runtime is told of the model answering. */
export const choiceOf = (model: RegistryModel): ModelChoice => ({
  id: model.id,
  name: model.name,
  providerId: model.providerId,
  model: model.model,
  vision: model.vision,
  maxOutput: model.maxOutput,
});

/**
 * The model that answers a question to an agent: the one the person chose (`requested`), where
 * the agent lets people choose and it is one of their list, or the one the agent already
 * answers with; else the agent's own model while it is enabled; else the default.
 */
export function answeringModel(registry: Registry, agent: { modelId: string | null; allowModelChoice: boolean }, requested?: string): RegistryModel {
  const own = (agent.modelId ? usableModel(registry, agent.modelId) : undefined) ?? registry.default;
  if (requested === undefined || requested === own.id) return own;
  if (!agent.allowModelChoice) throw refusedWith(400, MODEL_ERRORS.choiceNotAllowed, 'This agent answers with its own model: choosing another is not allowed.');
  const chosen = usableModel(registry, requested);
  if (!chosen) throw refusedWith(400, MODEL_ERRORS.unknown, 'This model is not available. Choose one of the list.');
  return chosen;
}

export type ModelRegistry = {
  /** The registry, read again once it is older than REGISTRY_TTL_MS (the clock's time) or changed here. */
  current(): Promise<Registry>;
  /** Read it again at the next call: this instance changed it. */
  invalidate(): void;
};

/**
 * The registry as this instance keeps it in memory: a question reads no table for it. Read once,
 * then again after REGISTRY_TTL_MS or a change made here; instances see each other's changes
 * within REGISTRY_TTL_MS.
 */
export function createModelRegistry(deps: { db: Db; clock: Clock; config: Pick<ServerConfig, 'llm' | 'attachments'> }): ModelRegistry {
  let kept: { at: number; registry: Registry; generation: number } | null = null;
  let loading: { promise: Promise<Registry>; generation: number } | null = null;
  let generation = 0;
  const load = (): Promise<Registry> => {
    const asked = generation;
    const promise = deps.db
      .select({ provider: modelProviders, model: models })
      .from(modelProviders)
      .leftJoin(models, eq(models.providerId, modelProviders.id))
      .orderBy(asc(modelProviders.createdAt), asc(modelProviders.id), asc(models.createdAt), asc(models.id))
      .then((rows) => {
        const registry = registryOf(rows, deps.config);
        if (asked === generation) kept = { at: deps.clock.now().getTime(), registry, generation: asked };
        return registry;
      })
      .finally(() => {
        if (loading?.promise === promise) loading = null;
      });
    loading = { promise, generation: asked };
    return promise;
  };
  return {
    current() {
      if (kept && kept.generation === generation && deps.clock.now().getTime() - kept.at < REGISTRY_TTL_MS) return Promise.resolve(kept.registry);
      if (loading && loading.generation === generation) return loading.promise;
      return load();
    },
    invalidate() {
      generation += 1;
      kept = null;
    },
  };
}
