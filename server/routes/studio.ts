import type { Hono } from 'hono';
import type { Services } from '../deps';
import { signedIn } from '../http/caller';
import { defineRoute, type AppEnv } from '../http/route';
import { adminOf } from './admin';
import { exportAgent, importAgent } from '../services/agent-documents';
import { approveVersion, listPending, rejectVersion } from '../services/agent-review';
import { createAgent, listStudioAgents, listVersions, openAgent, publishAgent, restoreVersion, retireAgent, saveDraft } from '../services/agent-studio';

/** The agent studio (every signed-in person's own agents) and the admins' approvals for the public market. */
export function studioRoutes(app: Hono<AppEnv>, services: Services) {
  defineRoute(app, services, 'agentSave', ({ input, caller }) => {
    const { agentId, ...content } = input;
    return agentId ? saveDraft(services, caller, agentId, content) : createAgent(services, signedIn(caller), content);
  });
  defineRoute(app, services, 'agentPublish', ({ input, caller }) => publishAgent(services, caller, input.agentId));
  defineRoute(app, services, 'agentMyList', ({ input, caller }) => listStudioAgents(services, signedIn(caller), input));
  defineRoute(app, services, 'agentDraft', ({ input, caller }) => openAgent(services, caller, input.agentId));
  defineRoute(app, services, 'agentVersions', ({ input, caller }) => listVersions(services, caller, input));
  defineRoute(app, services, 'agentRestore', ({ input, caller }) => restoreVersion(services, caller, input.agentId, input.versionId));
  defineRoute(app, services, 'agentDelete', async ({ input, caller }) => {
    await retireAgent(services, caller, input.agentId);
    return null;
  });
  defineRoute(app, services, 'agentExport', ({ input, caller }) => exportAgent(services, caller, input.agentId));
  defineRoute(app, services, 'agentImport', ({ input, caller }) => importAgent(services, signedIn(caller), input.document));

  defineRoute(app, services, 'adminAgentReviewList', ({ input, caller }) => (adminOf(caller), listPending(services, input)));
  defineRoute(app, services, 'adminAgentApprove', ({ input, caller }) => approveVersion(services, adminOf(caller), input.versionId));
  defineRoute(app, services, 'adminAgentReject', ({ input, caller }) => rejectVersion(services, adminOf(caller), input));
}
