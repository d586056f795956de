import { describe, expect, it } from 'vitest';
import { addressAfterWechatSignIn, authorizationUrl, pageUrlForSignature } from './wechat-links';

describe('WeChat links', () => {
  it('sends a person only to WeChat’s page or this site’s own consent page', () => {
    const build = (authorizeUrl?: string) =>
      authorizationUrl({ appId: 'wx1', authorizeUrl, href: 'https://chat.example.com/?a=1&code=old&state=x#frag', state: '1.n' });
    const wechat =
      'https://open.weixin.qq.com/connect/oauth2/authorize?appid=wx1&redirect_uri=https%3A%2F%2Fchat.example.com%2F%3Fa%3D1&response_type=code&scope=snsapi_userinfo&state=1.n#wechat_redirect';
    expect(build()).toBe(wechat);
    expect(build('https://evil.example/authorize')).toBe(wechat);
    expect(build('http://open.weixin.qq.com/connect/oauth2/authorize')).toBe(wechat);
    expect(build('/api/wechat-simulator/authorize').startsWith('https://chat.example.com/api/wechat-simulator/authorize?appid=wx1&')).toBe(true);
  });

  it('signs the page URL without its fragment', () => {
    expect(pageUrlForSignature('https://chat.example.com/chat?x=1#top')).toBe('https://chat.example.com/chat?x=1');
  });

  it('after WeChat sign-in, drops code and state, and leaves the login page for its safe redirect_url', () => {
    expect(addressAfterWechatSignIn('https://chat.example.com/chat/c1?code=C&state=S&scanid=s')).toBe('/chat/c1?scanid=s');
    expect(addressAfterWechatSignIn('https://chat.example.com/login?redirect_url=%2Faccount&code=C&state=S')).toBe('/account');
    expect(addressAfterWechatSignIn('https://chat.example.com/login?redirect_url=%2F%2Fevil.example&code=C')).toBe('/');
  });
});
