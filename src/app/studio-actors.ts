import { fromPromise } from 'xstate';
import type { AgentDocument } from '../contract/studio';
import { i18n } from '../i18n';
import { agentStudioListMachine } from '../machines/agent-studio-list.machine';
import { UNREADABLE_FILE } from '../machines/agent-studio-form';
import { agentStudioMachine, type StudioNotice } from '../machines/agent-studio.machine';
import { createConversation } from '../services/api/conversations';
import { uploadFile } from '../services/api/media';
import {
  exportAgent,
  importAgent,
  listAgentVersions,
  listMyAgents,
  listUsableModels,
  openAgentDraft,
  publishAgent,
  restoreAgentVersion,
  retireAgent,
  saveAgent,
} from '../services/api/studio';
import { saveFile } from '../services/save-file';
import type { Navigate, Runtime } from './runtime';

/**
 * The real side effects of the agent studio's machines, given here rather than in the screens.
 * Every call is silent: the studio says itself, beside what it was about, what was refused.
 */
const silent = { silent: true } as const;

/** The server's word for a refusal (`AGENT_RETIRED`, ...) from the envelope the client kept, on the error itself. */
const withReason = async <T>(call: Promise<T>): Promise<T> => {
  try {
    return await call;
  } catch (error) {
    const body = (error as { cause?: { data?: unknown } } | null)?.cause?.data;
    const reason = typeof body === 'object' && body !== null && 'reason' in body ? (body as { reason: unknown }).reason : undefined;
    if (typeof reason === 'string' && error instanceof Error) Object.assign(error, { reason });
    throw error;
  }
};

/** An exported agent's file name: its name, with what a file name cannot hold left out. */
export const exportFileName = (document: AgentDocument): string => {
  const stem = document.agent.name
    .normalize('NFKC')
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80);
  return `${stem || 'agent'}.json`;
};

/** The largest document the server reads (its JSON body limit). */
export const IMPORT_MAX_BYTES = 1024 * 1024;

/** Reads an exported agent's file: too large, or not JSON, is refused before the server is asked. */
const readDocument = async (file: File): Promise<AgentDocument> => {
  if (file.size > IMPORT_MAX_BYTES) throw Object.assign(new Error('too large'), { status: 413 });
  try {
    return JSON.parse(await file.text()) as AgentDocument;
  } catch {
    throw Object.assign(new Error('not JSON'), { reason: UNREADABLE_FILE });
  }
};

const NOTICES: Record<StudioNotice, { key: string; variant: 'success' | 'default' }> = {
  saved: { key: 'studio.toast.saved', variant: 'success' },
  published: { key: 'studio.toast.published', variant: 'success' },
  sentForApproval: { key: 'studio.toast.sentForApproval', variant: 'success' },
  restored: { key: 'studio.toast.restored', variant: 'success' },
  retired: { key: 'studio.toast.retired', variant: 'default' },
};

type StudioEffects = Pick<Runtime, 'toast'> & {
  navigate: Navigate;
  /** A new agent got its id: the route keeps this editor for its address. */
  onCreated: (agentId: string) => void;
};

export const agentStudioLogic = ({ navigate, toast, onCreated }: StudioEffects) =>
  agentStudioMachine.provide({
    actors: {
      openAgent: fromPromise(async ({ input }) => {
        const [agent, models] = await Promise.all([input.agentId ? withReason(openAgentDraft(input.agentId, silent)) : null, listUsableModels(silent)]);
        return { agent, models: models.list };
      }),
      saveAgent: fromPromise(({ input }) => withReason(saveAgent(input, silent))),
      publishAgent: fromPromise(({ input }) => withReason(publishAgent(input.agentId, silent))),
      startPreview: fromPromise(async ({ input }) => {
        const conversation = await withReason(createConversation({ sourceId: input.agentId, preview: true }, silent));
        return { conversationId: conversation.conversationId };
      }),
      exportAgent: fromPromise(({ input }) => withReason(exportAgent(input.agentId, silent))),
      retireAgent: fromPromise(async ({ input }) => {
        await withReason(retireAgent(input.agentId, silent));
      }),
      restoreVersion: fromPromise(({ input }) => withReason(restoreAgentVersion(input.agentId, input.versionId, silent))),
      listVersions: fromPromise(({ input, signal }) => withReason(listAgentVersions(input, { ...silent, signal }))),
      uploadAvatar: fromPromise(({ input }) => uploadFile(input.file, silent)),
    },
    actions: {
      agentCreated: (_, { agentId }) => {
        onCreated(agentId);
        navigate(`/studio/${encodeURIComponent(agentId)}`, { replace: true });
      },
      openPreview: (_, { conversationId }) => navigate(`/chat/${encodeURIComponent(conversationId)}`),
      deliverExport: (_, { document }) => saveFile(exportFileName(document), 'application/json', `${JSON.stringify(document, null, 2)}\n`),
      notify: (_, { notice }) => {
        toast({ title: i18n.t(NOTICES[notice].key), variant: NOTICES[notice].variant });
        if (notice === 'retired') navigate('/studio');
      },
      leave: (_, { to }) => navigate(to),
    },
  });

export const agentStudioListLogic = ({ navigate, toast }: Pick<Runtime, 'toast'> & { navigate: Navigate }) =>
  agentStudioListMachine.provide({
    actors: {
      listAgents: fromPromise(({ input, signal }) => withReason(listMyAgents(input, { ...silent, signal }))),
      importAgent: fromPromise(async ({ input }) => withReason(importAgent(await readDocument(input.file), silent))),
    },
    actions: {
      agentImported: (_, { agentId }) => {
        toast({ title: i18n.t('studio.toast.imported'), variant: 'success' });
        navigate(`/studio/${encodeURIComponent(agentId)}`);
      },
    },
  });
