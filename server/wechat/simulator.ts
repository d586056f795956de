import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../config';
import { ApiError } from '../http/errors';
import { avatarDataUrl } from '../seed/avatar';
import { INVALID_CODE_MSG, type WechatProfile, type WechatProvider } from './provider';

export const SIMULATOR_APP_ID = 'wx-simulator';
/** The simulator's consent page; under /api so the development proxy forwards it too. */
export const SIMULATOR_AUTHORIZE_PATH = '/api/wechat-simulator/authorize';
const CODE_TTL_MS = 5 * 60 * 1000;
const COLOURS = ['#07c160', '#10aeff', '#fa9d3b', '#576b95', '#e64340'];

export type WechatSimulator = WechatProvider & {
  /** What granting consent does: a one-time code for the simulated WeChat user of that name. */
  issueCode(name: string): string;
};

/** The same simulated name is the same WeChat user (same openid) every time. */
export function simulatedProfile(name: string): WechatProfile {
  const digest = createHash('sha256').update(name).digest();
  return {
    openid: `sim-${digest.subarray(0, 18).toString('base64url')}`,
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
  const codes = new Map<string, { profile: WechatProfile; expiresAt: number }>();
  const ticket = randomBytes(24).toString('base64url');
  const sweep = (now: number) => {
    for (const [code, entry] of codes) if (entry.expiresAt <= now) codes.delete(code);
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
      codes.set(code, { profile: simulatedProfile(name), expiresAt: now + CODE_TTL_MS });
      return code;
    },
    async profileForCode(code: string) {
      const entry = codes.get(code);
      codes.delete(code);
      if (!entry || entry.expiresAt <= clock.now().getTime()) throw new ApiError(400, INVALID_CODE_MSG);
      return entry.profile;
    },
  };
}
