import { exposureOf } from '../net/public-address';

/**
 * Which WeChat the server talks to:
 * - `official`: WeChat's real API, when WECHAT_APP_ID and WECHAT_APP_SECRET are set;
 * - `simulator`: a local stand-in (consent page, codes, users) so every flow works on one machine;
 * - `off`: WeChat login refused: WECHAT_SIMULATOR=off, or (`reachable`) the server can be reached
 *   from other machines and nobody asked for the simulator there.
 */
export type WechatSettings =
  | { mode: 'official'; appId: string; appSecret: string; apiBase: string; miniProgram?: MiniProgramCredentials }
  | { mode: 'simulator' }
  | { mode: 'off'; reason?: 'switched-off' | 'reachable' };

/** The mini program's own app (WeChat gives it an appId and secret apart from the official account's). */
export type MiniProgramCredentials = { appId: string; appSecret: string };

export const WECHAT_API_BASE = 'https://api.weixin.qq.com';

export { WECHAT_AUTHORIZE_URL } from '../../src/contract/wechat';

function miniProgramFromEnv(env: NodeJS.ProcessEnv): MiniProgramCredentials | undefined {
  const appId = env.WECHAT_MINIPROGRAM_APP_ID?.trim();
  const appSecret = env.WECHAT_MINIPROGRAM_APP_SECRET?.trim();
  if (appId && appSecret) return { appId, appSecret };
  if (appId || appSecret) throw new Error('Set both WECHAT_MINIPROGRAM_APP_ID and WECHAT_MINIPROGRAM_APP_SECRET, or neither.');
  return undefined;
}

const SWITCH = { on: ['on', '1', 'true', 'yes'], off: ['off', '0', 'false', 'no'] };

/**
 * The simulator signs anyone in as whatever WeChat user they name, so by default it runs only
 * where nobody else can reach it (`exposureOf`: on loopback, behind no proxy, with no public
 * address). Anywhere else it takes WECHAT_SIMULATOR=on, said out loud.
 */
export function wechatSettingsFromEnv(env: NodeJS.ProcessEnv, listen: { host?: string } = {}): WechatSettings {
  const appId = env.WECHAT_APP_ID?.trim();
  const appSecret = env.WECHAT_APP_SECRET?.trim();
  const miniProgram = miniProgramFromEnv(env);
  if (appId && appSecret) {
    const apiBase = (env.WECHAT_API_BASE?.trim() || WECHAT_API_BASE).replace(/\/+$/, '');
    return { mode: 'official', appId, appSecret, apiBase, ...(miniProgram ? { miniProgram } : {}) };
  }
  if (appId || appSecret) throw new Error('Set both WECHAT_APP_ID and WECHAT_APP_SECRET, or neither.');
  if (miniProgram) throw new Error('The mini program login talks to WeChat: set WECHAT_APP_ID and WECHAT_APP_SECRET as well.');
  const simulator = env.WECHAT_SIMULATOR?.trim().toLowerCase() ?? '';
  if (SWITCH.on.includes(simulator)) return { mode: 'simulator' };
  if (SWITCH.off.includes(simulator)) return { mode: 'off', reason: 'switched-off' };
  if (simulator) throw new Error(`WECHAT_SIMULATOR must be on or off, got "${env.WECHAT_SIMULATOR}"`);
  return exposureOf(env, listen.host) === null ? { mode: 'simulator' } : { mode: 'off', reason: 'reachable' };
}
