import { http, type HttpHandler } from 'msw';
import type { Agent } from '../../src/contract/agents';
import { endpoints, type EndpointName } from '../../src/contract/endpoints';
import { MODEL_ERRORS, type UsableModel } from '../../src/contract/models';
import {
  AGENT_DOCUMENT_FORMAT,
  AGENT_DOCUMENT_VERSION,
  AGENT_LANGUAGES,
  AGENTS_PER_PERSON_MAX,
  MAX_OUTPUT_CEILING,
  STUDIO_ERRORS,
  VERSIONS_PER_AGENT_MAX,
  type AgentContent,
  type AgentDocument,
  type AgentVersion,
  type ApprovalState,
  type StudioAgent,
  type StudioAgentSummary,
} from '../../src/contract/studio';
import { DEFAULT_AGENT_ID } from '../../src/contract/constants';
import { db, nextId, nextTimestamp, userOwner } from './db';
import { callerOf, fail, FakeApiError, failBody, ok, page, readInput, requireUser, route, type Caller, type RequestOf } from './fake-api';

/**
 * The agent studio's calls on the fake API, with the server's rules (server/services/agent-studio.ts):
 * an agent is edited by its author or an admin, and anyone else is told it does not exist (404);
 * its content is saved whole as a draft beside its live version; publishing makes a new version
 * (a new `versionId`) that goes live at once, or waits for an admin's approval when it is for the
 * public market and its publisher is not an admin; restoring makes an earlier version the draft;
 * a retired agent is read and exported, never changed. The agent the market and conversations
 * read (`db.agents`) follows its live version. The store follows the fake database's resets.
 */

type StoredVersion = Omit<AgentVersion, 'live' | 'agentId'>;
export type StoredStudioAgent = {
  agentId: string;
  createBy: string;
  createByName: string;
  companyId: string | null;
  draft: { content: AgentContent; updatedAt: string } | null;
  /** Oldest first. */
  versions: StoredVersion[];
  /** The version people chat with; null until one went live. */
  liveVersionId: string | null;
  retired: boolean;
  updatedAt: string;
};

type Store = { agents: Map<string, StoredStudioAgent> };
const stores = new WeakMap<object, Store>();
/** The studio's state of the current fake database (a fresh one after each test's reset). */
export const studioStore = (): Store => {
  let store = stores.get(db.agents);
  if (!store) {
    store = { agents: new Map() };
    stores.set(db.agents, store);
  }
  return store;
};

/** The models anyone may use, as `modelList` answers them. */
const usableModels = (): UsableModel[] => db.models;

class Refusal extends FakeApiError {
  constructor(
    status: number,
    readonly reason: string,
    message: string,
  ) {
    super(status, message);
  }
}

/** A route whose refusals carry the envelope's `reason`, as the server's studio refusals do. */
const studioRoute = <N extends EndpointName>(name: N, resolve: Parameters<typeof route<N>>[1]): HttpHandler =>
  route(name, async (ctx) => {
    try {
      return await resolve(ctx);
    } catch (error) {
      if (error instanceof Refusal) return Response.json({ ...failBody(error.message), reason: error.reason }, { status: error.status });
      throw error;
    }
  });

const nameOf = (userId: string) => {
  const user = db.users.get(userId);
  return user?.nickname || user?.username || userId;
};
const isAdmin = (userId: string) => db.users.get(userId)?.role === 'admin';

/** The agent if the caller may edit it (its author or an admin); 404 for anyone else, as for no agent. */
const editable = (caller: Caller, agentId: string): { agent: StoredStudioAgent; userId: string } => {
  const user = requireUser(caller);
  const agent = studioStore().agents.get(agentId);
  if (!agent || (agent.createBy !== user.id && !isAdmin(user.id))) throw new FakeApiError(404, 'Agent not found');
  return { agent, userId: user.id };
};

const refuseRetired = (agent: StoredStudioAgent) => {
  if (agent.retired) throw new Refusal(409, STUDIO_ERRORS.retired, 'This agent was retired: it can no longer be changed or published.');
};

const newest = (agent: StoredStudioAgent) => agent.versions.at(-1);

const approvalOf = (agent: StoredStudioAgent): { approval: ApprovalState; pendingVersionId: string | null; rejectReason: string | null } => {
  const last = newest(agent);
  if (last?.status === 'pending') return { approval: 'pending', pendingVersionId: last.versionId, rejectReason: null };
  if (last?.status === 'rejected') return { approval: 'rejected', pendingVersionId: null, rejectReason: last.reviewNote };
  return { approval: 'none', pendingVersionId: null, rejectReason: null };
};

const shownContent = (agent: StoredStudioAgent): AgentContent => agent.draft?.content ?? newest(agent)!.content;

const standingOf = (agent: StoredStudioAgent): Omit<StudioAgent, 'content'> => ({
  agentId: agent.agentId,
  isDraft: agent.draft !== null,
  hasDraft: agent.draft !== null,
  versionId: agent.liveVersionId,
  published: agent.liveVersionId !== null && !agent.retired,
  retired: agent.retired,
  ...approvalOf(agent),
  companyId: agent.companyId,
  createBy: agent.createBy,
  createByName: agent.createByName,
  updatedAt: agent.draft && agent.draft.updatedAt > agent.updatedAt ? agent.draft.updatedAt : agent.updatedAt,
});

export const studioAgentOf = (agent: StoredStudioAgent): StudioAgent => ({ ...standingOf(agent), content: shownContent(agent) });

const summaryOf = (agent: StoredStudioAgent): StudioAgentSummary => {
  const content = shownContent(agent);
  return { ...standingOf(agent), name: content.name, avatar: content.avatar, intro: content.intro, category: content.category, visibility: content.visibility };
};

/** A letter on a colour, as the server gives an agent without a picture. */
const generatedAvatar = (name: string) =>
  `data:image/svg+xml;charset=utf-8,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><text>${[...name.trim()][0] ?? '?'}</text></svg>`)}`;

/** Content as the server keeps it: its model usable, its longest answer within the model's, an avatar it may show. */
const accepted = (content: AgentContent, agent: { companyId: string | null; kept: string[] }): AgentContent => {
  if (content.visibility === 'organisation' && agent.companyId === null) {
    throw new Refusal(400, STUDIO_ERRORS.noOrganisation, 'This agent belongs to no organisation: make it private or public.');
  }
  const models = usableModels();
  const model = content.modelId === null ? models.find((one) => one.isDefault) : models.find((one) => one.id === content.modelId);
  if (!model) throw new Refusal(400, MODEL_ERRORS.unknown, 'This model is not available. Choose one of the list.');
  const ceiling = model.maxOutput ?? MAX_OUTPUT_CEILING;
  if (content.parameters.maxOutput !== undefined && content.parameters.maxOutput > ceiling) {
    throw new Refusal(400, STUDIO_ERRORS.parametersOutOfRange, `parameters.maxOutput: ${model.name} writes at most ${ceiling} tokens.`);
  }
  const upload = [...db.uploads.values()].find((file) => file.url === content.avatar);
  const avatar =
    content.avatar === ''
      ? generatedAvatar(content.name)
      : agent.kept.includes(content.avatar) || content.avatar.startsWith('data:image/svg+xml') || upload?.kind === 'image'
        ? content.avatar
        : null;
  if (avatar === null) throw new Refusal(400, STUDIO_ERRORS.avatarRefused, 'The avatar must be an image you uploaded (its url from /api/media/upload).');
  return { ...content, avatar };
};

/** The agent as the market and conversations read it: its live version, or a row nobody sees. */
const syncMarket = (agent: StoredStudioAgent) => {
  const live = agent.versions.find((version) => version.versionId === agent.liveVersionId);
  const content = live?.content ?? shownContent(agent);
  const translations = Object.fromEntries(
    AGENT_LANGUAGES.flatMap((language) => {
      const words = content.translations[language];
      return words ? [[language, { ...words, ...(content.starters[language] ? { starters: content.starters[language] } : {}) }]] : [];
    }),
  );
  const starters = content.starters['en-US'] ?? AGENT_LANGUAGES.map((language) => content.starters[language]).find(Boolean);
  const published = live !== undefined && !agent.retired;
  const row: Agent = {
    id: agent.agentId,
    agentId: agent.agentId,
    name: content.name,
    avatar: published ? content.avatar : '',
    intro: published ? content.intro : '',
    ...(content.category ? { category: content.category } : {}),
    createBy: agent.createBy,
    createByName: agent.createByName,
    updateBy: agent.createBy,
    updateByName: agent.createByName,
    versionId: agent.liveVersionId ?? '',
    companyId: agent.companyId ?? '',
    public: published && content.visibility === 'public',
    published,
    isDraft: !published || content.visibility === 'private' || agent.companyId === null,
    updatedAt: agent.updatedAt,
    ...(Object.keys(translations).length ? { translations } : {}),
    ...(starters ? { starters } : {}),
    visibility: content.visibility,
    modelId: content.modelId,
    allowModelChoice: content.allowModelChoice,
  };
  const at = db.agents.findIndex((item) => item.agentId === agent.agentId);
  if (at >= 0) db.agents[at] = row;
  else db.agents.push(row);
};

const createAgent = (userId: string, input: AgentContent): StoredStudioAgent => {
  const owned = [...studioStore().agents.values()].filter((agent) => agent.createBy === userId).length;
  if (owned >= AGENTS_PER_PERSON_MAX) throw new Refusal(409, STUDIO_ERRORS.limitReached, `You have ${AGENTS_PER_PERSON_MAX} agents, the most one person may have.`);
  const companyId = db.users.get(userId)?.companyId ?? null;
  const content = accepted(input, { companyId, kept: [] });
  const now = nextTimestamp();
  const agent: StoredStudioAgent = {
    agentId: nextId('agent'),
    createBy: userId,
    createByName: nameOf(userId),
    companyId,
    draft: { content, updatedAt: now },
    versions: [],
    liveVersionId: null,
    retired: false,
    updatedAt: now,
  };
  studioStore().agents.set(agent.agentId, agent);
  syncMarket(agent);
  return agent;
};

/** Publishes the draft: live at once, or waiting for an admin when public and published by anyone else. */
const publish = (agent: StoredStudioAgent, userId: string) => {
  if (!agent.draft) throw new Refusal(409, STUDIO_ERRORS.nothingToPublish, 'There is nothing new to publish: save a draft first.');
  const { content } = agent.draft;
  if (content.modelId !== null && !usableModels().some((model) => model.id === content.modelId)) {
    throw new Refusal(400, MODEL_ERRORS.unknown, 'The draft’s model is no longer available: choose another one and save the draft again.');
  }
  if (agent.versions.length >= VERSIONS_PER_AGENT_MAX) throw new Refusal(409, STUDIO_ERRORS.limitReached, `This agent has ${VERSIONS_PER_AGENT_MAX} versions, the most one agent may have.`);
  const pending = content.visibility === 'public' && !isAdmin(userId);
  for (const version of agent.versions) if (version.status === 'pending') version.status = 'withdrawn';
  const now = nextTimestamp();
  const version: StoredVersion = {
    versionId: nextId('version'),
    status: pending ? 'pending' : 'published',
    createdAt: now,
    createdByName: nameOf(userId),
    reviewedAt: null,
    reviewedByName: null,
    reviewNote: null,
    content,
  };
  agent.versions.push(version);
  agent.draft = null;
  if (!pending) {
    agent.liveVersionId = version.versionId;
    agent.updatedAt = now;
  }
  syncMarket(agent);
};

const versionsOf = (agent: StoredStudioAgent): AgentVersion[] =>
  [...agent.versions].reverse().map((version) => ({ ...version, agentId: agent.agentId, live: version.versionId === agent.liveVersionId && !agent.retired }));

const documentOf = (agent: StoredStudioAgent): AgentDocument => {
  const content = shownContent(agent);
  const model = usableModels().find((one) => one.id === content.modelId);
  return {
    format: AGENT_DOCUMENT_FORMAT,
    version: AGENT_DOCUMENT_VERSION,
    exportedAt: new Date().toISOString(),
    agent: {
      name: content.name,
      ...(content.avatar.startsWith('data:image/svg+xml') ? { avatar: content.avatar } : {}),
      intro: content.intro,
      category: content.category,
      systemPrompt: content.systemPrompt,
      // The fake registry names each model by its id, as a provider's API would name it.
      model: model ? { model: model.id, name: model.name } : null,
      parameters: content.parameters,
      starters: content.starters,
      translations: content.translations,
      allowModelChoice: content.allowModelChoice,
    },
  };
};

type StudioName = 'agentSave' | 'agentPublish' | 'agentMyList' | 'agentDraft' | 'agentVersions' | 'agentRestore' | 'agentDelete' | 'agentExport' | 'agentImport';

export const studioHandlers = {
  agentSave: studioRoute('agentSave', ({ input, caller }) => {
    const { agentId, ...content } = input;
    if (!agentId) return ok('agentSave', studioAgentOf(createAgent(requireUser(caller).id, content)));
    const { agent } = editable(caller, agentId);
    refuseRetired(agent);
    const live = agent.versions.find((version) => version.versionId === agent.liveVersionId);
    agent.draft = { content: accepted(content, { companyId: agent.companyId, kept: [live?.content.avatar ?? '', agent.draft?.content.avatar ?? ''].filter(Boolean) }), updatedAt: nextTimestamp() };
    syncMarket(agent);
    return ok('agentSave', studioAgentOf(agent));
  }),
  agentPublish: studioRoute('agentPublish', ({ input, caller }) => {
    const { agent, userId } = editable(caller, input.agentId);
    refuseRetired(agent);
    publish(agent, userId);
    return ok('agentPublish', studioAgentOf(agent));
  }),
  agentMyList: studioRoute('agentMyList', ({ input, caller }) => {
    const user = requireUser(caller);
    if (input.scope === 'all' && !isAdmin(user.id)) throw new FakeApiError(403, 'Only an admin may list every agent.');
    const keyword = (input.keyword ?? '').toLowerCase();
    const agents = [...studioStore().agents.values()]
      .filter((agent) => input.scope === 'all' || agent.createBy === user.id)
      .map(summaryOf)
      .filter((agent) => !keyword || agent.name.toLowerCase().includes(keyword) || agent.intro.toLowerCase().includes(keyword))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.agentId.localeCompare(b.agentId));
    return ok('agentMyList', page(agents, input.current, input.pageSize));
  }),
  agentDraft: studioRoute('agentDraft', ({ input, caller }) => ok('agentDraft', studioAgentOf(editable(caller, input.agentId).agent))),
  agentVersions: studioRoute('agentVersions', ({ input, caller }) => {
    const { agent } = editable(caller, input.agentId);
    return ok('agentVersions', page(versionsOf(agent), input.current, input.pageSize));
  }),
  agentRestore: studioRoute('agentRestore', ({ input, caller }) => {
    const { agent } = editable(caller, input.agentId);
    refuseRetired(agent);
    const version = agent.versions.find((item) => item.versionId === input.versionId);
    if (!version) throw new FakeApiError(404, 'Version not found');
    agent.draft = { content: version.content, updatedAt: nextTimestamp() };
    return ok('agentRestore', studioAgentOf(agent));
  }),
  agentDelete: studioRoute('agentDelete', ({ input, caller }) => {
    const { agent } = editable(caller, input.agentId);
    if (agent.agentId === DEFAULT_AGENT_ID) throw new Refusal(409, STUDIO_ERRORS.defaultAgent, 'The default agent answers whoever has not chosen one: it cannot be retired.');
    if (!agent.retired) {
      agent.retired = true;
      agent.draft = null;
      agent.updatedAt = nextTimestamp();
      for (const version of agent.versions) if (version.status === 'pending') version.status = 'withdrawn';
      syncMarket(agent);
    }
    return ok('agentDelete', null);
  }),
  agentExport: studioRoute('agentExport', ({ input, caller }) => ok('agentExport', documentOf(editable(caller, input.agentId).agent))),
  agentImport: studioRoute('agentImport', ({ input, caller }) => {
    const user = requireUser(caller);
    const { document } = input;
    const model = document.agent.model ? usableModels().find((one) => one.id === document.agent.model!.model) : undefined;
    const ceiling = model?.maxOutput ?? usableModels().find((one) => one.isDefault)?.maxOutput ?? MAX_OUTPUT_CEILING;
    const { maxOutput, ...parameters } = document.agent.parameters;
    const content: AgentContent = {
      name: document.agent.name,
      avatar: document.agent.avatar ?? '',
      intro: document.agent.intro,
      category: document.agent.category,
      systemPrompt: document.agent.systemPrompt,
      modelId: model?.id ?? null,
      parameters: { ...parameters, ...(maxOutput === undefined ? {} : { maxOutput: Math.min(maxOutput, ceiling) }) },
      starters: document.agent.starters,
      translations: document.agent.translations,
      allowModelChoice: document.agent.allowModelChoice,
      visibility: 'private',
    };
    return ok('agentImport', studioAgentOf(createAgent(user.id, content)));
  }),
} satisfies Record<StudioName, HttpHandler>;

/**
 * A preview conversation (`preview: true`) is made only by an agent's editors (404 for anyone
 * else, as for no agent; 401 for a visitor) and says it is one; any other conversation is left
 * to the fake API's own handler.
 */
export const studioPreviewHandler: HttpHandler = http.post(endpoints.conversationCreate.path, async ({ request }) => {
  const body = (await request
    .clone()
    .json()
    .catch(() => null)) as { preview?: unknown } | null;
  if (body?.preview !== true) return undefined;
  try {
    const caller = callerOf(request);
    const input = (await readInput('conversationCreate', request)) as RequestOf<'conversationCreate'>;
    const { userId } = editable(caller, input.sourceId);
    const now = nextTimestamp();
    const conversation = { conversationId: nextId('conv'), source: 'agent' as const, sourceId: input.sourceId, title: input.title || 'New chat', pinned: false, createdAt: now, updatedAt: now, preview: true };
    db.conversations.set(conversation.conversationId, { ...conversation, owner: userOwner(userId) });
    db.messages.set(conversation.conversationId, []);
    return ok('conversationCreate', conversation);
  } catch (error) {
    if (error instanceof FakeApiError) return fail(error.status, error.message);
    throw error;
  }
});

/** An agent of the studio, as its author would have made it: published (live at once) unless `publish` is false. */
export const seedStudioAgent = (
  authorId: string,
  content: Partial<AgentContent> & Pick<AgentContent, 'name'>,
  options: { publish?: boolean; draftAfter?: Partial<AgentContent> } = {},
): StoredStudioAgent => {
  const agent = createAgent(authorId, {
    avatar: '',
    intro: '',
    category: null,
    systemPrompt: '',
    modelId: null,
    parameters: {},
    starters: {},
    translations: {},
    allowModelChoice: false,
    visibility: 'private',
    ...content,
  });
  if (options.publish ?? true) publish(agent, authorId);
  if (options.draftAfter) agent.draft = { content: { ...shownContent(agent), ...options.draftAfter }, updatedAt: nextTimestamp() };
  return agent;
};

/** What an admin's decision does to a version waiting for approval (the console's fake calls these). */
export const decideStudioVersion = (versionId: string, decision: { approve: true; by: string } | { approve: false; by: string; reason: string }): AgentVersion | null => {
  for (const agent of studioStore().agents.values()) {
    const version = agent.versions.find((item) => item.versionId === versionId);
    if (!version) continue;
    if (version.status !== 'pending') throw new Refusal(409, STUDIO_ERRORS.notPending, 'This version is not waiting for approval any more.');
    Object.assign(version, { reviewedAt: nextTimestamp(), reviewedByName: decision.by, reviewNote: decision.approve ? null : decision.reason });
    version.status = decision.approve ? 'published' : 'rejected';
    if (decision.approve) {
      agent.liveVersionId = version.versionId;
      agent.updatedAt = version.reviewedAt!;
    }
    syncMarket(agent);
    return versionsOf(agent).find((item) => item.versionId === versionId)!;
  }
  return null;
};
