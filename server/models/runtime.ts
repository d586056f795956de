import { ENV_PROVIDER_ID, OFFLINE_PROVIDER_ID } from '../../src/contract/models';
import { createOfflineResponder } from '../agents/offline-responder';
import { createOpenAiRuntime } from '../agents/openai-runtime';
import { AgentError, type AgentRuntime, type ModelChoice } from '../agents/runtime';
import type { Sealer } from '../auth/sealed';
import type { ServerConfig } from '../config';
import { checkBaseUrl, guardedLookup } from '../net/outbound';
import type { ModelRegistry } from './registry';

/**
 * The runtime that answers every question with the model the registry chose for it
 * (`agent.model`): the environment's (LLM_*), the offline responder, or a console provider's,
 * called at its base URL with its key opened for the call. One OpenAI-compatible runtime per
 * console provider, kept until the provider changes; its connections resolve through the outbound
 * policy (server/net/outbound.ts), so a provider never reaches what the policy refuses.
 */
export function createRegistryRuntime(deps: { registry: ModelRegistry; sealer: Sealer | null; config: ServerConfig }): AgentRuntime {
  const { config } = deps;
  const env = config.llm ? createOpenAiRuntime(config.llm) : null;
  const offline = createOfflineResponder(config.offlineTokenDelayMs);
  const policy = { privateNetwork: config.modelProvidersOnPrivateNetwork };
  const lookup = guardedLookup(policy);
  const built = new Map<string, { stamp: string; runtime: AgentRuntime }>();

  async function runtimeOf(model: ModelChoice | undefined): Promise<AgentRuntime> {
    const providerId = model?.providerId ?? (await deps.registry.current()).default.providerId;
    if (providerId === OFFLINE_PROVIDER_ID) return offline;
    if (providerId === ENV_PROVIDER_ID) {
      if (!env) throw new AgentError('The environment’s model (LLM_BASE_URL) is no longer configured.');
      return env;
    }
    const provider = (await deps.registry.current()).provider(providerId);
    if (!provider) throw new AgentError(`Model provider ${providerId} is no longer configured.`);
    const stamp = `${provider.updatedAt?.getTime()} ${provider.baseUrl}`;
    const kept = built.get(provider.id);
    if (kept?.stamp === stamp) return kept.runtime;
    // A provider stored under a looser policy (MODEL_PROVIDERS_ON_PRIVATE_NETWORK since turned off) is refused now.
    const url = checkBaseUrl(provider.baseUrl, policy);
    if (typeof url === 'string') throw new AgentError(`Model provider ${provider.name} is refused: ${url}.`);
    let apiKey: string | undefined;
    if (provider.sealedKey) {
      if (!deps.sealer) throw new AgentError(`The key of model provider ${provider.name} is stored encrypted, and CONNECTOR_KEY is not set.`);
      try {
        apiKey = deps.sealer.open(provider.sealedKey);
      } catch {
        throw new AgentError(`The key of model provider ${provider.name} cannot be opened with this CONNECTOR_KEY.`);
      }
    }
    const runtime = createOpenAiRuntime({ baseUrl: provider.baseUrl, ...(apiKey ? { apiKey } : {}), model: '', timeouts: config.modelTimeouts, lookup });
    built.set(provider.id, { stamp, runtime });
    return runtime;
  }

  return {
    label: registryRuntimeLabel(config),
    async *streamAnswer(input) {
      yield* (await runtimeOf(input.agent.model)).streamAnswer(input);
    },
    async nameConversation(input) {
      const runtime = await runtimeOf(input.model);
      return runtime.nameConversation ? runtime.nameConversation(input) : null;
    },
  };
}

/** What answers, said once at start: the environment's model, and the console's. */
export function registryRuntimeLabel(config: Pick<ServerConfig, 'llm'>): string {
  return config.llm
    ? `OpenAI-compatible model ${config.llm.model} at ${config.llm.baseUrl}, and the models added in the console`
    : 'the models added in the console; none from the environment (LLM_BASE_URL is not set): the offline responder while none is enabled';
}
