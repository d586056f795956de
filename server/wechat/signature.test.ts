import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jsapiSignature, signedUrlOf } from './signature';

describe('the JS-SDK signature', () => {
  it("matches the worked example of WeChat's JS-SDK documentation", () => {
    expect(
      jsapiSignature({
        ticket: 'sM4AOVdWfPE4DxkXGEs8VMCPGGVi4C3VM0P37wVUCFvkVAy_90u5h9nbSlYy3-Sl-HhTdfl2fzFy1AOcHKP7qg',
        nonceStr: 'Wm3WZYTPz0wzccnW',
        timestamp: 1414587457,
        url: 'http://mp.weixin.qq.com?params=value',
      }),
    ).toBe('0f9de62fce790f9a083d5c99e95740ceb90c27ed');
  });

  it('is the SHA-1 of the four fields in order, raw, with the URL cut at its fragment', () => {
    const url = 'https://chat.example.com/login?redirect_url=%2Fchat&scanid=a b#wechat_redirect';
    // computed here by hand: the string WeChat's algorithm signs, then SHA-1
    const expected = createHash('sha1')
      .update('jsapi_ticket=T-1&noncestr=abcDEF123&timestamp=1700000000&url=https://chat.example.com/login?redirect_url=%2Fchat&scanid=a b')
      .digest('hex');
    expect(jsapiSignature({ ticket: 'T-1', nonceStr: 'abcDEF123', timestamp: 1_700_000_000, url })).toBe(expected);
    expect(signedUrlOf('https://x.example/#/a#b')).toBe('https://x.example/');
  });
});
