import type { Hono } from 'hono';
import { createGoogleConnector, GOOGLE_NOT_CONFIGURED } from '../auth/google';
import { googleLogin, startGoogleSignIn } from '../auth/google-sign-in';
import type { Services } from '../deps';
import { visitorIdOf } from '../http/caller';
import { addressLimitKey, clientAddress } from '../http/client-address';
import { ApiError } from '../http/errors';
import { defineRoute, type AppEnv } from '../http/route';
import { countAttempt } from '../limits/quotas';
import { passwordLogin, revokeSession } from '../services/auth';
import { signInOriginOf } from '../services/sessions';
import type { WechatCodeLogin } from '../wechat/routes';

/** Google sign-ins one address may start in a minute (each stores a state until it expires). */
export const GOOGLE_STARTS_PER_MINUTE = 30;

/**
 * Login of every type through one call (the password, a WeChat code, Google's code and state),
 * the sign-in methods on offer, the start of a Google sign-in, and logout.
 */
export function authRoutes(app: Hono<AppEnv>, services: Services, wechat: { codeLogin: WechatCodeLogin }) {
  const google = services.config.google ? createGoogleConnector(services.config.google) : null;

  defineRoute(app, services, 'login', async ({ input, c }) => {
    const visitorId = visitorIdOf(c);
    switch (input.loginType) {
      case 'password':
        return passwordLogin(services, {
          username: input.username,
          password: input.password,
          clientAddress: clientAddress(c, services.config.trustProxy),
          visitorId,
          origin: signInOriginOf(c, services, 'password'),
        });
      case 'google-oauth':
        if (!google) throw new ApiError(503, GOOGLE_NOT_CONFIGURED);
        return googleLogin(services, google, {
          code: input.code,
          state: input.state,
          visitorId,
          origin: signInOriginOf(c, services, 'google'),
        });
      default:
        return wechat.codeLogin(input.loginType, {
          code: input.code,
          visitorId,
          origin: signInOriginOf(c, services, input.loginType === 'wechat-miniprogram' ? 'miniprogram' : 'wechat'),
        });
    }
  });

  defineRoute(app, services, 'loginOptions', async () => ({ google: google !== null, signup: services.config.signup, resetByMail: services.mailer !== null }));

  defineRoute(app, services, 'googleAuthorize', async ({ c }) => {
    if (!google) throw new ApiError(503, GOOGLE_NOT_CONFIGURED);
    const address = addressLimitKey(clientAddress(c, services.config.trustProxy));
    await countAttempt(
      services.counters,
      { key: `google-start:${address}`, limit: GOOGLE_STARTS_PER_MINUTE, windowMs: 60 * 1000 },
      'Too many Google sign-ins started.',
      services.clock.now(),
    );
    return startGoogleSignIn(services, google);
  });

  defineRoute(app, services, 'logout', async ({ caller }) => {
    if (caller.kind === 'user') await revokeSession(services, caller.tokenHash);
    return null;
  });
}
