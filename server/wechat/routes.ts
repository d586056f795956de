import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { LoginResult } from '../../src/contract/auth';
import type { Services } from '../deps';
import { visitorIdOf } from '../http/caller';
import { addressLimitKey, clientAddress } from '../http/client-address';
import { ApiError } from '../http/errors';
import { defineRoute, type AppEnv } from '../http/route';
import { countAttempt } from '../limits/quotas';
import { finishLogin } from '../services/auth';
import { signInOriginOf, type SignInOrigin } from '../services/sessions';
import { importAvatar } from '../services/avatar-import';
import { consentPageRoutes } from './consent-page';
import { userForWechatProfile } from './identities';
import { createOfficialApi } from './official-api';
import type { WechatProvider } from './provider';
import { checkScanTicket, loginWithScanTicket, openScanTicket } from './scan-tickets';
import { jsapiSignature } from './signature';
import { createWechatSimulator } from './simulator';

export const WECHAT_NOT_CONFIGURED = 'WeChat login is not configured';
export const MINIPROGRAM_NOT_CONFIGURED = 'WeChat mini program login is not configured on this server.';

/** Signs in with a WeChat code: the official account's authorisation, or the mini program's wx.login(). */
export type WechatCodeLogin = (
  loginType: 'wechat-official-account' | 'wechat-miniprogram',
  input: { code: string; visitorId?: string; origin: SignInOrigin },
) => Promise<LoginResult>;

const NONCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const nonceStr = () => [...randomBytes(16)].map((byte) => NONCE_ALPHABET[byte % NONCE_ALPHABET.length]).join('');

/** WeChat's real API, the simulator (with its consent page), or null when WeChat is off. */
function providerFor(app: Hono<AppEnv>, services: Services): WechatProvider | null {
  const settings = services.config.wechat;
  if (settings.mode === 'official') return createOfficialApi(settings, { db: services.db, clock: services.clock, log: services.log });
  if (settings.mode === 'off') return null;
  const simulator = createWechatSimulator(services.db, services.clock);
  consentPageRoutes(app, simulator);
  return simulator;
}

/**
 * The WeChat endpoints of the contract: the JS-SDK config, the authorisation-code login and the
 * scan login. They work the same against WeChat and against the simulator; scan login needs no
 * WeChat at all (a signed-in person approves the ticket on the approval page, see server/routes/users.ts).
 */
export function wechatRoutes(app: Hono<AppEnv>, services: Services): { codeLogin: WechatCodeLogin } {
  const provider = providerFor(app, services);
  const wechat = (): WechatProvider => {
    if (!provider) throw new ApiError(503, WECHAT_NOT_CONFIGURED);
    return provider;
  };

  defineRoute(app, services, 'wxConfig', async ({ input }) => {
    const current = wechat();
    const timestamp = Math.floor(services.clock.now().getTime() / 1000);
    const nonce = nonceStr();
    const ticket = await current.jsapiTicket();
    return {
      appId: current.appId,
      timestamp,
      nonceStr: nonce,
      signature: jsapiSignature({ ticket, nonceStr: nonce, timestamp, url: input.url }),
      authorizeUrl: current.authorizeUrl,
    };
  });

  const codeLogin: WechatCodeLogin = async (loginType, { code, visitorId, origin }) => {
    const current = wechat();
    const login = loginType === 'wechat-miniprogram' ? current.miniProgram : current;
    if (!login) throw new ApiError(503, MINIPROGRAM_NOT_CONFIGURED);
    // Every code, right or wrong, costs a call to WeChat under the app's secret: counted before
    // that call, so nobody can have the server call WeChat as often as they like. The origin's
    // address is the client's (signInOriginOf).
    await countAttempt(
      services.counters,
      { key: `wechat-login:${addressLimitKey(origin.address)}`, limit: services.config.wechatLoginsPerMinute, windowMs: 60 * 1000 },
      'Too many WeChat sign-ins.',
      services.clock.now(),
    );
    const profile = await login.profileForCode(code);
    const account = await userForWechatProfile(services.db, services.clock, login.appId, profile);
    const user = await importAvatar(services, account, { provider: 'wechat', url: profile.avatar });
    return finishLogin(services, user, visitorId, origin);
  };

  defineRoute(app, services, 'wxLogin', ({ input, c }) =>
    codeLogin('wechat-official-account', { code: input.code, visitorId: visitorIdOf(c), origin: signInOriginOf(c, services, 'wechat') }),
  );

  defineRoute(app, services, 'wxRegisterLogin', async ({ input, c }) => {
    const address = addressLimitKey(clientAddress(c, services.config.trustProxy));
    await countAttempt(
      services.counters,
      { key: `scan-ticket:${address}`, limit: services.config.scanTicketsPerMinute, windowMs: 60 * 1000 },
      'Too many scan codes requested.',
      services.clock.now(),
    );
    return openScanTicket(services, input.fingerPrint, signInOriginOf(c, services, 'scan'));
  });

  defineRoute(app, services, 'wxValidateLogin', ({ input, c }) =>
    checkScanTicket(services, {
      id: input.id,
      fingerPrint: input.fingerPrint,
      visitorId: visitorIdOf(c),
      origin: signInOriginOf(c, services, 'scan'),
    }),
  );

  defineRoute(app, services, 'wxLoginByScanId', ({ input, c }) =>
    loginWithScanTicket(services, {
      scanid: input.scanid,
      fingerPrint: input.fingerPrint,
      visitorId: visitorIdOf(c),
      origin: signInOriginOf(c, services, 'scan'),
    }),
  );

  return { codeLogin };
}
