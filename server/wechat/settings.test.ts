import { describe, expect, it } from 'vitest';
import { WECHAT_API_BASE, wechatSettingsFromEnv } from './settings';

const OFFICIAL = { WECHAT_APP_ID: 'wxapp', WECHAT_APP_SECRET: 'secret' };
const MINI = { WECHAT_MINIPROGRAM_APP_ID: 'wxmini', WECHAT_MINIPROGRAM_APP_SECRET: 'mini-secret' };

describe('WeChat settings from the environment', () => {
  it('talks to WeChat with both credentials, runs the simulator with none, and is off on request', () => {
    expect(wechatSettingsFromEnv(OFFICIAL)).toEqual({ mode: 'official', appId: 'wxapp', appSecret: 'secret', apiBase: WECHAT_API_BASE });
    expect(wechatSettingsFromEnv({})).toEqual({ mode: 'simulator' });
    expect(wechatSettingsFromEnv({ WECHAT_SIMULATOR: 'off' })).toEqual({ mode: 'off' });
    expect(() => wechatSettingsFromEnv({ WECHAT_APP_ID: 'wxapp' })).toThrow(/both WECHAT_APP_ID and WECHAT_APP_SECRET/);
  });

  it('adds the mini program when both of its credentials are set beside the official account’s', () => {
    expect(wechatSettingsFromEnv({ ...OFFICIAL, ...MINI })).toMatchObject({ mode: 'official', miniProgram: { appId: 'wxmini', appSecret: 'mini-secret' } });
    expect(() => wechatSettingsFromEnv({ ...OFFICIAL, WECHAT_MINIPROGRAM_APP_ID: 'wxmini' })).toThrow(/both WECHAT_MINIPROGRAM_APP_ID/);
    expect(() => wechatSettingsFromEnv(MINI)).toThrow(/set WECHAT_APP_ID and WECHAT_APP_SECRET as well/);
  });
});
