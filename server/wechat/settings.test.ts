import { describe, expect, it } from 'vitest';
import { WECHAT_API_BASE, wechatSettingsFromEnv } from './settings';

const OFFICIAL = { WECHAT_APP_ID: 'wxapp', WECHAT_APP_SECRET: 'secret' };
const MINI = { WECHAT_MINIPROGRAM_APP_ID: 'wxmini', WECHAT_MINIPROGRAM_APP_SECRET: 'mini-secret' };
const LOOPBACK = { host: '127.0.0.1' };
const EVERYWHERE = { host: '0.0.0.0' };

describe('WeChat settings from the environment', () => {
  it('talks to WeChat with both credentials, wherever the server listens', () => {
    const official = { mode: 'official', appId: 'wxapp', appSecret: 'secret', apiBase: WECHAT_API_BASE };
    expect(wechatSettingsFromEnv(OFFICIAL, EVERYWHERE)).toEqual(official);
    expect(wechatSettingsFromEnv(OFFICIAL, LOOPBACK)).toEqual(official);
    expect(wechatSettingsFromEnv({ ...OFFICIAL, WECHAT_SIMULATOR: 'on' }, EVERYWHERE)).toEqual(official);
    expect(() => wechatSettingsFromEnv({ WECHAT_APP_ID: 'wxapp' }, LOOPBACK)).toThrow(/both WECHAT_APP_ID and WECHAT_APP_SECRET/);
  });

  it.each(['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', 'LOCALHOST'])('runs the simulator when only this machine can reach it (HOST=%s)', (host) => {
    expect(wechatSettingsFromEnv({}, { host })).toEqual({ mode: 'simulator' });
  });

  it.each(['0.0.0.0', '::', '192.168.1.20', '10.0.0.5', 'example.com', ''])('is off when other machines can reach the server (HOST=%j)', (host) => {
    expect(wechatSettingsFromEnv({}, { host })).toEqual({ mode: 'off', reason: 'reachable' });
  });

  it('is off when nothing says where the server listens, or behind a proxy on loopback', () => {
    expect(wechatSettingsFromEnv({})).toEqual({ mode: 'off', reason: 'reachable' });
    expect(wechatSettingsFromEnv({ TRUST_PROXY: '1' }, LOOPBACK)).toEqual({ mode: 'off', reason: 'reachable' });
  });

  it('does what WECHAT_SIMULATOR says when it is set: on anywhere, off everywhere', () => {
    for (const on of ['on', 'ON', '1', 'true', ' yes ']) {
      expect(wechatSettingsFromEnv({ WECHAT_SIMULATOR: on }, EVERYWHERE)).toEqual({ mode: 'simulator' });
    }
    for (const off of ['off', '0', 'false', 'no']) {
      expect(wechatSettingsFromEnv({ WECHAT_SIMULATOR: off }, LOOPBACK)).toEqual({ mode: 'off', reason: 'switched-off' });
    }
    expect(() => wechatSettingsFromEnv({ WECHAT_SIMULATOR: 'maybe' }, LOOPBACK)).toThrow('WECHAT_SIMULATOR must be on or off, got "maybe"');
  });

  it('adds the mini program when both of its credentials are set beside the official account’s', () => {
    expect(wechatSettingsFromEnv({ ...OFFICIAL, ...MINI })).toMatchObject({ mode: 'official', miniProgram: { appId: 'wxmini', appSecret: 'mini-secret' } });
    expect(() => wechatSettingsFromEnv({ ...OFFICIAL, WECHAT_MINIPROGRAM_APP_ID: 'wxmini' })).toThrow(/both WECHAT_MINIPROGRAM_APP_ID/);
    expect(() => wechatSettingsFromEnv(MINI)).toThrow(/set WECHAT_APP_ID and WECHAT_APP_SECRET as well/);
  });
});
