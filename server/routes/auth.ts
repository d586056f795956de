import type { Hono } from 'hono';
import { googleLoginRefusal } from '../auth/google';
import type { Services } from '../deps';
import { visitorIdOf } from '../http/caller';
import { clientAddress } from '../http/client-address';
import { badRequest } from '../http/errors';
import { defineRoute, type AppEnv } from '../http/route';
import { passwordLogin, revokeSession } from '../services/auth';

const OTHER_LOGIN_TYPES: Record<string, string> = {
  'wechat-official-account': 'WeChat login goes through /api/system/auth/wx-login, not the password form.',
  'wechat-miniprogram': 'WeChat mini program login goes through /api/system/auth/wx-login, not the password form.',
};

export function authRoutes(app: Hono<AppEnv>, services: Services) {
  defineRoute(app, services, 'login', async ({ input, c }) => {
    if (input.loginType === 'google-oauth') throw googleLoginRefusal(services.config.google);
    if (input.loginType !== 'password') throw badRequest(OTHER_LOGIN_TYPES[input.loginType] ?? 'Unsupported login type.');
    return passwordLogin(services, {
      username: input.username,
      password: input.password,
      clientAddress: clientAddress(c, services.config.trustProxy),
      visitorId: visitorIdOf(c),
    });
  });
  defineRoute(app, services, 'logout', async ({ caller }) => {
    if (caller.kind === 'user') await revokeSession(services, caller.tokenHash);
    return null;
  });
}
