import type { AgentDocument, AgentContent, StudioAgent } from '../../src/contract/studio';
import { AGENT_DOCUMENT_FORMAT, AGENT_DOCUMENT_VERSION, AVATAR_MAX } from '../../src/contract/studio';
import type { Services } from '../deps';
import type { Caller } from '../http/caller';
import type { Registry } from '../models/registry';
import { openAgent, createAgent } from './agent-studio';

type DocumentServices = Pick<Services, 'db' | 'clock' | 'models'>;
type Author = Extract<Caller, { kind: 'user' }>;

/** Only a small inline picture travels: an uploaded avatar is a path of this installation. */
const portableAvatar = (avatar: string): string | undefined =>
  avatar.startsWith('data:image/svg+xml') && avatar.length <= AVATAR_MAX ? avatar : undefined;

/**
 * The agent as a document for another installation: what the studio shows of it (its draft, else
 * its newest version), its model named as the provider's API names it, and nothing of this
 * installation (no id, account, organisation, upload or key).
 */
export async function exportAgent(services: DocumentServices, caller: Caller, agentId: string): Promise<AgentDocument> {
  const [agent, registry] = await Promise.all([openAgent(services, caller, agentId), services.models.current()]);
  const { content } = agent;
  const model = content.modelId ? registry.model(content.modelId) : undefined;
  const avatar = portableAvatar(content.avatar);
  return {
    format: AGENT_DOCUMENT_FORMAT,
    version: AGENT_DOCUMENT_VERSION,
    exportedAt: services.clock.now().toISOString(),
    agent: {
      name: content.name,
      ...(avatar ? { avatar } : {}),
      intro: content.intro,
      category: content.category,
      systemPrompt: content.systemPrompt,
      model: model ? { model: model.model, name: model.name } : null,
      parameters: content.parameters,
      starters: content.starters,
      translations: content.translations,
      allowModelChoice: content.allowModelChoice,
    },
  };
}

/** The enabled model the provider's API calls by this name, preferring the default; none: the default. */
function modelNamed(registry: Registry, wanted: AgentDocument['agent']['model']) {
  if (!wanted) return undefined;
  const named = registry.usable.filter((model) => model.model === wanted.model);
  return named.find((model) => model.id === registry.default.id) ?? named[0];
}

/**
 * A new private agent of the caller's, as a draft, from a document (read strictly by the
 * contract). A model this installation does not have gives the default; a longest answer above
 * what the model writes is lowered to it.
 */
export async function importAgent(services: DocumentServices, editor: Author, document: AgentDocument): Promise<StudioAgent> {
  const registry = await services.models.current();
  const { agent } = document;
  const model = modelNamed(registry, agent.model);
  const ceiling = (model ?? registry.default).maxOutput;
  const parameters = { ...agent.parameters };
  if (ceiling !== null && parameters.maxOutput !== undefined && parameters.maxOutput > ceiling) parameters.maxOutput = ceiling;
  const content: AgentContent = {
    name: agent.name,
    avatar: agent.avatar ?? '',
    intro: agent.intro,
    category: agent.category,
    systemPrompt: agent.systemPrompt,
    modelId: model?.id ?? null,
    parameters,
    starters: agent.starters,
    translations: agent.translations,
    allowModelChoice: agent.allowModelChoice,
    visibility: 'private',
  };
  return createAgent(services, editor, content);
}
