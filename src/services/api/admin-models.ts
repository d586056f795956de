import type { EndpointInput } from '../../contract/endpoints';
import { call, type CallOptions } from '../http';

/** The console's model registry and its queue of agents waiting to be public (role `admin` only). */

export const listModelProviders = (options?: CallOptions) => call('adminModelProviderList', undefined, options);

export const saveModelProvider = (request: EndpointInput<'adminModelProviderSave'>, options?: CallOptions) => call('adminModelProviderSave', request, options);

export const deleteModelProvider = (id: string, options?: CallOptions) => call('adminModelProviderDelete', { id }, options);

export const discoverModels = (id: string, options?: CallOptions) => call('adminModelDiscover', { id }, options);

export const saveModel = (request: EndpointInput<'adminModelSave'>, options?: CallOptions) => call('adminModelSave', request, options);

export const deleteModel = (id: string, options?: CallOptions) => call('adminModelDelete', { id }, options);

export const setDefaultModel = (id: string, options?: CallOptions) => call('adminModelSetDefault', { id }, options);

export const listAgentReviews = (request: EndpointInput<'adminAgentReviewList'>, options?: CallOptions) => call('adminAgentReviewList', request, options);

export const approveAgentVersion = (versionId: string, options?: CallOptions) => call('adminAgentApprove', { versionId }, options);

export const rejectAgentVersion = (request: EndpointInput<'adminAgentReject'>, options?: CallOptions) => call('adminAgentReject', request, options);

/** An agent as its editors see it: read here for the organisation it belongs to. */
export const readAgentDraft = (agentId: string, options?: CallOptions) => call('agentDraft', { agentId }, options);
