import type { Hono } from 'hono';
import type { Services } from '../deps';
import { defineRoute, type AppEnv } from '../http/route';
import { findVisibleAgent, listAgents, toAgent } from '../services/agents';
import { listApplications } from '../services/applications';

export function agentRoutes(app: Hono<AppEnv>, services: Services) {
  defineRoute(app, services, 'agentPublishedList', ({ input, caller }) => listAgents(services.db, caller, input, services.config.attachments.modelAcceptsImages));
  defineRoute(app, services, 'agentDetail', async ({ input, caller }) =>
    toAgent(await findVisibleAgent(services.db, caller, input.agentId), services.config.attachments.modelAcceptsImages),
  );
  defineRoute(app, services, 'applicationList', ({ input, caller }) => listApplications(services.db, caller, input));
}
