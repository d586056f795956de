import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './user-agent';

describe('describeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      { browser: 'Chrome 131', os: 'Windows' },
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      { browser: 'Edge 131', os: 'Windows' },
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
      { browser: 'Safari 17', os: 'macOS 10.15' },
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800323d) NetType/WIFI Language/zh_CN',
      { browser: 'WeChat 8', os: 'iOS 17' },
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', { browser: 'Firefox 133', os: 'Linux' }],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
      { browser: 'Chrome 131', os: 'Android 14' },
    ],
    ['', { browser: '', os: '' }],
    ['<script>alert(1)</script>', { browser: '', os: '' }],
  ])('reads %s', (ua, expected) => {
    expect(describeUserAgent(ua)).toEqual(expected);
  });

  it('names only what it recognised, never echoes the raw header', () => {
    const forged = 'Chrome/1<img src=x onerror=alert(1)>';
    const described = describeUserAgent(forged);
    expect(described.browser).toBe('Chrome 1');
    expect(JSON.stringify(described)).not.toContain('<');
  });
});
