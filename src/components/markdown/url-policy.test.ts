import { describe, expect, it } from 'vitest';
import { decodeEntities } from './entities';
import { safeImageSrc, safeLinkHref, schemeOf } from './url-policy';

describe('safeLinkHref', () => {
  it.each([
    'https://example.com/a?b=1&c=2',
    'http://example.com',
    'mailto:someone@example.com',
    '/relative/path',
    'relative/path',
    '#section',
    '?q=1',
  ])('keeps %s', (url) => {
    expect(safeLinkHref(url)).toBe(url);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'java\u0000script:alert(1)',
    'java&#115;cript:alert(1)',
    '&#x6A;avascript&colon;alert(1)',
    '%6Aavascript:alert(1)',
    '%256Aavascript:alert(1)',
    'javascript%3Aalert(1)',
    'java\u200bscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://example.com',
    'tel:123',
    '',
  ])('drops %j', (url) => {
    expect(safeLinkHref(url)).toBeNull();
  });

  it('decodes entities and removes control characters from the kept URL', () => {
    expect(safeLinkHref(' https://example.com/?a=1&amp;b=2\n')).toBe('https://example.com/?a=1&b=2');
  });
});

describe('safeImageSrc', () => {
  it('allows this site and blob: only', () => {
    expect(safeImageSrc('/a.png')).toBe(`${location.origin}/a.png`);
    expect(safeImageSrc(`${location.origin}/b.png`)).toBe(`${location.origin}/b.png`);
    expect(safeImageSrc(`blob:${location.origin}/x`)).toBe(`blob:${location.origin}/x`);
    for (const url of ['https://evil.example/a.png', '//evil.example/a.png', '\\\\evil.example/a.png', '/\\evil.example/a.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)', 'http://localhost:1/a.png']) {
      expect(safeImageSrc(url), url).toBeNull();
    }
  });
});

describe('schemeOf and decodeEntities', () => {
  it('reads the scheme the way an attacker hopes the browser will', () => {
    expect(schemeOf('JAVA SCRIPT:x')).toBe('javascript');
    expect(schemeOf('docs/a:b')).toBeNull();
  });

  it('decodes named and numeric references and leaves unknown ones', () => {
    expect(decodeEntities('&lt;b&gt; &#65;&#x42; &copy; &unknown; &#0;')).toBe('<b> AB © &unknown; \ufffd');
  });
});
