import type { Hono } from 'hono';
import type { Services } from '../deps';
import { defineRoute, type AppEnv } from '../http/route';
import { adminOf } from './admin';
import { deleteModel, deleteProvider, discoverModels, listProviders, saveModel, saveProvider, setDefaultModel } from '../models/admin';
import { toUsableModel } from '../models/registry';

/** The models people may use, and the console's registry of providers and models. */
export function modelRoutes(app: Hono<AppEnv>, services: Services) {
  defineRoute(app, services, 'modelList', async () => {
    const registry = await services.models.current();
    return { list: registry.usable.map((model) => toUsableModel(registry, model)) };
  });
  defineRoute(app, services, 'adminModelProviderList', ({ caller }) => (adminOf(caller), listProviders(services)));
  defineRoute(app, services, 'adminModelProviderSave', ({ input, caller }) => saveProvider(services, adminOf(caller), input));
  defineRoute(app, services, 'adminModelProviderDelete', async ({ input, caller }) => {
    await deleteProvider(services, adminOf(caller), input.id);
    return null;
  });
  defineRoute(app, services, 'adminModelDiscover', ({ input, caller }) => (adminOf(caller), discoverModels(services, input.id)));
  defineRoute(app, services, 'adminModelSave', ({ input, caller }) => saveModel(services, adminOf(caller), input));
  defineRoute(app, services, 'adminModelDelete', async ({ input, caller }) => {
    await deleteModel(services, adminOf(caller), input.id);
    return null;
  });
  defineRoute(app, services, 'adminModelSetDefault', ({ input, caller }) => setDefaultModel(services, adminOf(caller), input.id));
}
