import { describe, expect, it } from 'vitest';
import { defaultConfig, type ServerConfig } from './config';
import { signInSummary } from './sign-in-summary';

const GOOGLE = { clientId: 'client-1.apps.googleusercontent.com', clientSecret: 's', redirectUri: 'https://x/login/google', authorizeEndpoint: '', tokenEndpoint: '', userInfoEndpoint: '' };
const summary = (config: Partial<ServerConfig>, host = '127.0.0.1') => signInSummary({ ...defaultConfig, ...config }, host).join('\n');

describe('the start-up lines about sign-in', () => {
  it('name every method and warn loudly while the WeChat simulator runs', () => {
    const text = summary({ wechat: { mode: 'simulator' } });
    expect(text).toMatch(/password\s+on/);
    expect(text).toMatch(/WeChat\s+on, SIMULATOR/);
    expect(text).toMatch(/mini program\s+on, SIMULATOR/);
    expect(text).toMatch(/Google\s+off/);
    expect(text).toContain('NOT for production');
    expect(text).toContain('anyone who can open');
  });

  it('say why WeChat is off on a server others can reach, and how to force the simulator', () => {
    const text = summary({ wechat: { mode: 'off', reason: 'reachable' } }, '0.0.0.0');
    expect(text).toMatch(/WeChat\s+off: other machines reach this server \(listening on 0\.0\.0\.0\) and it has no WeChat app; the simulator runs only where nobody else can reach it, or with WECHAT_SIMULATOR=on/);
    expect(text).toMatch(/mini program\s+off/);
    expect(text).not.toContain('NOT for production');
    expect(summary({ wechat: { mode: 'off', reason: 'switched-off' } })).toMatch(/WeChat\s+off \(WECHAT_SIMULATOR=off\)/);
  });

  it('name the official account, the mini program and Google’s client when configured', () => {
    const text = summary(
      { wechat: { mode: 'official', appId: 'wx123', appSecret: 'secret', apiBase: '', miniProgram: { appId: 'wxmini', appSecret: 'mini-secret' } }, google: GOOGLE },
      '0.0.0.0',
    );
    expect(text).toMatch(/WeChat\s+on, official account wx123/);
    expect(text).toMatch(/mini program\s+on, app wxmini/);
    expect(text).toMatch(/Google\s+on, client client-1\.apps\.googleusercontent\.com/);
    expect(text).not.toMatch(/secret/);
    expect(text).not.toContain('NOT for production');
  });
});
