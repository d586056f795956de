import type { PublishedListRequest } from '../../contract/agents';
import { call, type CallOptions } from '../http';

export const listPublishedAgents = (request: PublishedListRequest = {}, options?: CallOptions) =>
  call('agentPublishedList', request, options);

export const getAgentDetail = (agentId: string, options?: CallOptions) => call('agentDetail', { agentId }, options);
