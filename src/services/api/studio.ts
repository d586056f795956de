import type { AgentDocument, AgentSaveRequest } from '../../contract/studio';
import { call, type CallOptions } from '../http';

/** The agent studio's calls: people's own agents, their drafts, versions and documents. */

export const listMyAgents = (request: { current: number; pageSize: number; scope: 'mine' | 'all' }, options?: CallOptions) =>
  call('agentMyList', request, options);

export const openAgentDraft = (agentId: string, options?: CallOptions) => call('agentDraft', { agentId }, options);

export const saveAgent = (request: AgentSaveRequest, options?: CallOptions) => call('agentSave', request, options);

export const publishAgent = (agentId: string, options?: CallOptions) => call('agentPublish', { agentId }, options);

export const listAgentVersions = (request: { agentId: string; current: number; pageSize: number }, options?: CallOptions) =>
  call('agentVersions', request, options);

export const restoreAgentVersion = (agentId: string, versionId: string, options?: CallOptions) => call('agentRestore', { agentId, versionId }, options);

export const retireAgent = (agentId: string, options?: CallOptions) => call('agentDelete', { agentId }, options);

export const exportAgent = (agentId: string, options?: CallOptions) => call('agentExport', { agentId }, options);

export const importAgent = (document: AgentDocument, options?: CallOptions) => call('agentImport', { document }, options);

/** The models an author may choose from: the same list as the chat's picker. */
export { listUsableModels } from './models';
