import { createHash, randomBytes } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { wechatSimulatorCodes } from '../db/schema';
import { sharedToken } from '../db/shared-token';
import { ApiError } from '../http/errors';
import { avatarDataUrl } from '../seed/avatar';
import { INVALID_CODE_MSG, INVALID_MINIPROGRAM_CODE_MSG, type WechatProfile, type WechatProvider } from './provider';

export const SIMULATOR_APP_ID = 'wx-simulator';
export const SIMULATOR_MINIPROGRAM_APP_ID = 'wx-simulator-miniprogram';
/** The simulator's consent page; under /api so the development proxy forwards it too. */
export const SIMULATOR_AUTHORIZE_PATH = '/api/wechat-simulator/authorize';
const CODE_TTL_MS = 5 * 60 * 1000;
const TICKET_TTL_SECONDS = 2 * 3600;
const COLOURS = ['#07c160', '#10aeff', '#fa9d3b', '#576b95', '#e64340'];

export type WechatSimulator = WechatProvider & {
  /** What granting consent does: a one-time code for the simulated WeChat user of that name. */
  issueCode(name: string): Promise<string>;
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
 * jsapi ticket is a random one (the signature is computed exactly as with WeChat). Codes and
 * ticket are kept in the database, so a code issued by one instance is accepted by any other.
 */
export function createWechatSimulator(db: Db, clock: Clock): WechatSimulator {
  const ticket = sharedToken(db, clock, 'wechat-simulator:jsapi-ticket', { expiryMarginMs: 0 });
  /** The simulated person a one-time code was issued for; the code is used up either way. */
  const take = async (code: string, invalidMsg: string): Promise<string> => {
    const [entry] = await db.delete(wechatSimulatorCodes).where(eq(wechatSimulatorCodes.code, code)).returning();
    if (!entry || entry.expiresAt <= clock.now()) throw new ApiError(400, invalidMsg);
    return Buffer.from(entry.name, 'base64').toString('utf8');
  };
  return {
    kind: 'simulator',
    appId: SIMULATOR_APP_ID,
    authorizeUrl: SIMULATOR_AUTHORIZE_PATH,
    jsapiTicket: async () =>
      (await ticket.read()) ?? ticket.refresh(async () => ({ value: randomBytes(24).toString('base64url'), expiresInSeconds: TICKET_TTL_SECONDS })),
    async issueCode(name: string) {
      const now = clock.now();
      await db.delete(wechatSimulatorCodes).where(lt(wechatSimulatorCodes.expiresAt, now));
      const code = `sim${randomBytes(16).toString('base64url')}`;
      // Kept as base64: a name typed on the consent page may hold characters a text column refuses (NUL).
      await db.insert(wechatSimulatorCodes).values({ code, name: Buffer.from(name, 'utf8').toString('base64'), expiresAt: new Date(now.getTime() + CODE_TTL_MS) });
      return code;
    },
    async profileForCode(code: string) {
      return simulatedProfile(await take(code, INVALID_CODE_MSG));
    },
    miniProgram: {
      appId: SIMULATOR_MINIPROGRAM_APP_ID,
      // The consent page's codes stand in for wx.login() too: the same person, the mini program's openid.
      profileForCode: async (code: string) => simulatedProfile(await take(code, INVALID_MINIPROGRAM_CODE_MSG), 'miniprogram'),
    },
  };
}
