import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../config';
import { ApiError } from '../http/errors';
import { avatarDataUrl } from '../seed/avatar';
import { INVALID_CODE_MSG, INVALID_MINIPROGRAM_CODE_MSG, type WechatProfile, type WechatProvider } from './provider';

export const SIMULATOR_APP_ID = 'wx-simulator';
export const SIMULATOR_MINIPROGRAM_APP_ID = 'wx-simulator-miniprogram';
/** The simulator's consent page; under /api so the development proxy forwards it too. */
export const SIMULATOR_AUTHORIZE_PATH = '/api/wechat-simulator/authorize';
const CODE_TTL_MS = 5 * 60 * 1000;
const COLOURS = ['#07c160', '#10aeff', '#fa9d3b', '#576b95', '#e64340'];

export type WechatSimulator = WechatProvider & {
  /** What granting consent does: a one-time code for the simulated WeChat user of that name. */
  issueCode(name: string): string;
};

/**
 * The same simulated name is the same WeChat user every time: the same openid in the official
 * account, another in the mini program (as with WeChat, openids are per app), one unionid.
 */
export function simulatedProfile(name: string, app: 'official-account' | 'miniprogram' = 'official-account'): WechatProfile {
  const digest = createHash('sha256').update(name).digest();
  const id = digest.subarray(0, 18).toString('base64url');
  if (app === 'miniprogram') return { openid: `simmp-${id}`, unionid: `simu-${id}`, nickname: '', avatar: '' };
  return {
    openid: `sim-${id}`,
    unionid: `simu-${id}`,
    nickname: name,
    avatar: avatarDataUrl([...name][0]?.toUpperCase() ?? 'W', COLOURS[digest[0]! % COLOURS.length]!),
  };
}

/**
 * A stand-in for WeChat when no app credentials are configured: its consent page hands out
 * one-time codes that the ordinary code exchange turns into a simulated WeChat user, and its
 * jsapi ticket is random per process (the signature is computed exactly as with WeChat).
 */
export function createWechatSimulator(clock: Clock): WechatSimulator {
  const codes = new Map<string, { name: string; expiresAt: number }>();
  const ticket = randomBytes(24).toString('base64url');
  const sweep = (now: number) => {
    for (const [code, entry] of codes) if (entry.expiresAt <= now) codes.delete(code);
  };
  /** The simulated person a one-time code was issued for; the code is used up either way. */
  const take = (code: string, invalidMsg: string): string => {
    const entry = codes.get(code);
    codes.delete(code);
    if (!entry || entry.expiresAt <= clock.now().getTime()) throw new ApiError(400, invalidMsg);
    return entry.name;
  };
  return {
    kind: 'simulator',
    appId: SIMULATOR_APP_ID,
    authorizeUrl: SIMULATOR_AUTHORIZE_PATH,
    jsapiTicket: async () => ticket,
    issueCode(name: string) {
      const now = clock.now().getTime();
      sweep(now);
      const code = `sim${randomBytes(16).toString('base64url')}`;
      codes.set(code, { name, expiresAt: now + CODE_TTL_MS });
      return code;
    },
    async profileForCode(code: string) {
      return simulatedProfile(take(code, INVALID_CODE_MSG));
    },
    miniProgram: {
      appId: SIMULATOR_MINIPROGRAM_APP_ID,
      // The consent page's codes stand in for wx.login() too: the same person, the mini program's openid.
      profileForCode: async (code: string) => simulatedProfile(take(code, INVALID_MINIPROGRAM_CODE_MSG), 'miniprogram'),
    },
  };
}
