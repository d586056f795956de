/** A WeChat user as the authorisation code reveals them. */
export type WechatProfile = {
  openid: string;
  /** Same person across the apps of one WeChat open-platform account; absent when not bound. */
  unionid?: string;
  nickname: string;
  avatar: string;
};

/** The mini program's login: `wx.login()` in the mini program gives a code, code2session the person. */
export interface MiniProgramLogin {
  readonly appId: string;
  profileForCode(code: string): Promise<WechatProfile>;
}

/** What the WeChat endpoints need from WeChat, real or simulated. */
export interface WechatProvider {
  readonly kind: 'official' | 'simulator';
  readonly appId: string;
  /** Where the SPA sends a person to authorise: WeChat's page, or the simulator's consent page. */
  readonly authorizeUrl: string;
  /** The JS-SDK ticket the config signature is computed from. */
  jsapiTicket(): Promise<string>;
  /** Exchanges a one-time authorisation code for the person who granted it. */
  profileForCode(code: string): Promise<WechatProfile>;
  /** Null when no mini program is configured. */
  readonly miniProgram: MiniProgramLogin | null;
}

export const INVALID_CODE_MSG = 'The WeChat authorisation code is invalid, expired or already used. Please sign in with WeChat again.';
export const WECHAT_UNREACHABLE_MSG = 'WeChat could not be reached. Please try again in a moment.';
export const INVALID_MINIPROGRAM_CODE_MSG = 'The mini program login code is invalid, expired or already used. Please try again.';
export const HIGH_RISK_MSG = 'WeChat has flagged this account as high-risk; it cannot sign in.';
