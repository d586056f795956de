import type { Hono } from 'hono';
import type { Services } from '../deps';
import { defineRoute, type AppEnv } from '../http/route';
import { findVisibleAgent, listAgents, toAgent } from '../services/agents';
import { listApplications } from '../services/applications';

export function agentRoutes(app: Hono<AppEnv>, services: Services) {
  defineRoute(app, services, 'agentPublishedList', async ({ input, caller }) => listAgents(services.db, caller, input, await services.models.current()));
  defineRoute(app, services, 'agentDetail', async ({ input, caller }) => {
    const [row, registry] = await Promise.all([findVisibleAgent(services.db, caller, input.agentId), services.models.current()]);
    return toAgent(row, registry);
  });
  defineRoute(app, services, 'applicationList', ({ input, caller }) => listApplications(services.db, caller, input));
}
