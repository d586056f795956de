import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';

/**
 * The model registry (docs/decisions/030-agent-versions-and-model-registry.md). Admins add
 * OpenAI-compatible providers and their models in the console; the deployment's own model
 * (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL) is the read-only provider `env` with the model `env`,
 * and with neither, the offline responder is the model `offline`. A provider's key is never
 * answered: only whether it has one.
 */
export const ENV_MODEL_ID = 'env';
export const OFFLINE_MODEL_ID = 'offline';
export const ENV_PROVIDER_ID = 'env';
export const OFFLINE_PROVIDER_ID = 'offline';

/** Where a provider comes from: the console (stored), the environment, or the built-in offline responder. */
export const MODEL_SOURCES = ['console', 'environment', 'offline'] as const;
export type ModelSource = (typeof MODEL_SOURCES)[number];

/** A model's context window or longest answer, in tokens; null when nobody said. */
export const TOKEN_COUNT_MAX = 10_000_000;
const tokenCount = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(TOKEN_COUNT_MAX));

/** Why a model call was refused, in the envelope's `reason`. */
export const MODEL_ERRORS = {
  /** A provider or model that a live agent answers with: retire or move the agent first (409). */
  inUse: 'MODEL_IN_USE',
  /** No such enabled model, or one the caller may not use (400). */
  unknown: 'MODEL_UNKNOWN',
  /** The chat's `modelId` where the agent does not let people choose (400). */
  choiceNotAllowed: 'MODEL_CHOICE_NOT_ALLOWED',
  /** A provider's address the server will not connect to (400). */
  addressRefused: 'MODEL_ADDRESS_REFUSED',
  /** The provider's `GET /models` failed or answered something else than a model list (502). */
  discoveryFailed: 'MODEL_DISCOVERY_FAILED',
  /** A key cannot be stored: CONNECTOR_KEY is not set (409). */
  noSecretKey: 'NO_CONNECTOR_KEY',
  /** The environment's provider and the offline responder are not edited in the console (409). */
  readOnly: 'MODEL_READ_ONLY',
} as const;

/** A model the caller may use, as a model picker shows it: no address, no key, no provider. */
export const usableModelSchema = v.object({
  id: idSchema,
  name: v.string(),
  contextWindow: v.nullable(tokenCount),
  maxOutput: v.nullable(tokenCount),
  vision: v.boolean(),
  isDefault: v.boolean(),
});
export type UsableModel = v.InferOutput<typeof usableModelSchema>;
export const usableModelListSchema = v.object({ list: v.array(usableModelSchema) });

/** A model as the console shows it. */
export const adminModelSchema = v.object({
  id: idSchema,
  providerId: idSchema,
  /** The model as the provider's API names it (the request's `model`). */
  model: v.string(),
  name: v.string(),
  contextWindow: v.nullable(tokenCount),
  maxOutput: v.nullable(tokenCount),
  vision: v.boolean(),
  enabled: v.boolean(),
  isDefault: v.boolean(),
  /** How many agents' published versions answer with it (then it cannot be deleted). */
  agents: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type AdminModel = v.InferOutput<typeof adminModelSchema>;

export const adminProviderSchema = v.object({
  id: idSchema,
  name: v.string(),
  baseUrl: v.string(),
  /** Whether a key is kept (encrypted); the key itself is never answered. */
  hasKey: v.boolean(),
  source: v.picklist(MODEL_SOURCES),
  models: v.array(adminModelSchema),
  updatedAt: v.nullable(timestampSchema),
});
export type AdminProvider = v.InferOutput<typeof adminProviderSchema>;
export const adminProviderListSchema = v.array(adminProviderSchema);

export const PROVIDER_NAME_MAX = 80;
export const PROVIDER_URL_MAX = 500;
export const PROVIDER_KEY_MAX = 4000;
export const MODEL_NAME_MAX = 200;
export const MODEL_DISPLAY_NAME_MAX = 80;

/**
 * Adds a provider (no `id`) or changes one. `apiKey` absent keeps the key it has; an empty
 * string removes it. `baseUrl` is the OpenAI-compatible base, such as `https://api.openai.com/v1`.
 */
export const providerSaveRequestSchema = v.object({
  id: v.optional(idSchema),
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(PROVIDER_NAME_MAX)),
  baseUrl: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(PROVIDER_URL_MAX)),
  apiKey: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(PROVIDER_KEY_MAX))),
});
export const providerIdRequestSchema = v.object({ id: idSchema });

/** What a provider's `GET {base}/models` listed; `added`: the console has a model by that name already. */
export const discoveredModelsSchema = v.object({
  list: v.array(v.object({ model: v.string(), added: v.boolean() })),
});
export type DiscoveredModels = v.InferOutput<typeof discoveredModelsSchema>;

/** Adds a model to a console provider (no `id`) or changes one. */
export const modelSaveRequestSchema = v.object({
  id: v.optional(idSchema),
  providerId: idSchema,
  model: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(MODEL_NAME_MAX)),
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(MODEL_DISPLAY_NAME_MAX)),
  contextWindow: v.optional(v.nullable(tokenCount), null),
  maxOutput: v.optional(v.nullable(tokenCount), null),
  vision: v.optional(v.boolean(), false),
  enabled: v.optional(v.boolean(), true),
});
export const modelIdRequestSchema = v.object({ id: idSchema });

/** Which model wrote an answer: the registry's id, and its name then. */
export const answerModelSchema = v.object({ id: v.string(), name: v.string() });
export type AnswerModel = v.InferOutput<typeof answerModelSchema>;
