import type { HttpHandler } from 'msw';
import type { EndpointName } from '../../src/contract/endpoints';
import { FakeApiError, route } from './fake-api';

/**
 * The agent studio's and the model registry's calls (docs/decisions/030), not faked yet: each
 * checks its caller and input as the others do, then answers 501 saying so. The studio's screens
 * give them a fake of their own when they need one.
 */
const notFakedYet = <N extends EndpointName>(name: N): HttpHandler =>
  route(name, () => {
    throw new FakeApiError(501, `${name} is not in the fake API yet.`);
  });

type StudioName = 'agentSave' | 'agentPublish' | 'agentMyList' | 'agentDraft' | 'agentVersions' | 'agentRestore' | 'agentDelete' | 'agentExport' | 'agentImport' | 'modelList';
type ModelAdminName = Extract<EndpointName, `adminModel${string}` | `adminAgent${string}`>;

const studioNames: StudioName[] = ['agentSave', 'agentPublish', 'agentMyList', 'agentDraft', 'agentVersions', 'agentRestore', 'agentDelete', 'agentExport', 'agentImport', 'modelList'];
const modelAdminNames: ModelAdminName[] = [
  'adminModelProviderList',
  'adminModelProviderSave',
  'adminModelProviderDelete',
  'adminModelDiscover',
  'adminModelSave',
  'adminModelDelete',
  'adminModelSetDefault',
  'adminAgentReviewList',
  'adminAgentApprove',
  'adminAgentReject',
];

export const studioHandlers = Object.fromEntries(studioNames.map((name) => [name, notFakedYet(name)])) as Record<StudioName, HttpHandler>;
export const modelAdminHandlers = Object.fromEntries(modelAdminNames.map((name) => [name, notFakedYet(name)])) as Record<ModelAdminName, HttpHandler>;
