import type { Hono } from 'hono';
import type { Services } from '../deps';
import { ApiError } from '../http/errors';
import { defineRoute, type AppEnv } from '../http/route';

export const WECHAT_NOT_CONFIGURED = 'WeChat login is not configured';

/**
 * Every WeChat endpoint of the contract. Until the WeChat connector and its simulator exist they
 * validate their input and answer a clear refusal.
 */
export function wechatRoutes(app: Hono<AppEnv>, services: Services) {
  const refuse = async (): Promise<never> => {
    throw new ApiError(503, WECHAT_NOT_CONFIGURED);
  };
  defineRoute(app, services, 'wxConfig', refuse);
  defineRoute(app, services, 'wxLogin', refuse);
  defineRoute(app, services, 'wxRegisterLogin', refuse);
  defineRoute(app, services, 'wxValidateLogin', refuse);
  defineRoute(app, services, 'wxLoginByScanId', refuse);
}
