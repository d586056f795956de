import { describe, expect, it } from 'vitest';
import { isOperationsPath, isPersonalPath, loginToApprove, loginUrlFor, OPERATIONS_PREFIX, toSafeRedirectPath } from './redirect';

const ORIGIN = 'https://app.example.com';

/**
 * Where a browser would really go if it followed the value from a page of this origin: the
 * check passes only if the answer is null or stays on this origin.
 */
const staysOnSite = (path: string): boolean => {
  // Re-resolve the way a browser and, after it, a proxy or server redirect might.
  const once = new URL(path, ORIGIN);
  const twice = new URL(decodeURIComponent(once.pathname) + once.search, ORIGIN);
  return once.origin === ORIGIN && twice.origin === ORIGIN && !path.startsWith('//');
};

const hostile: Array<string | null | undefined> = [
  null,
  undefined,
  '',
  '//evil.example',
  '//evil.example/login',
  '///evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '\\/evil.example',
  '/%09/evil.example',
  '/%2F/evil.example',
  '/%2f%2fevil.example',
  '/%5C%5Cevil.example',
  '/%5c/evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '\t//evil.example',
  ' //evil.example',
  '/ /evil.example',
  'javascript:alert(1)',
  'JAVASCRIPT:alert(document.cookie)',
  'java\tscript:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'https://evil.example',
  'HTTPS://EVIL.EXAMPLE/path',
  'http:evil.example',
  'http:/evil.example',
  'https://app.example.com@evil.example',
  'https://good@evil.example',
  '//app.example.com@evil.example',
  '/..//evil.example',
  '/../..//evil.example',
  '/.%2e//evil.example',
  'evil.example',
  '%2F%2Fevil.example',
  '/%00/evil.example',
  '/\u0000//evil.example',
  'https://app.example.com.evil.example/',
  // The values the browser suite once tried one real login each (tests/e2e/attacks.spec.ts): the
  // login screen hands `redirect_url` to this function as the query gives it, so judging them here
  // judges what that login did; the browser keeps a few after a real login (tests/e2e/skeleton.spec.ts).
  '////evil.example/x',
  '/\\/evil.example',
  '/%0a/evil.example',
  '/%0d%0a/evil.example',
  '%2f%2fevil.example',
  '/%2f/evil.example',
  '/%5cevil.example',
  '/%5c%5cevil.example',
  'http://evil.example/login',
  'HTTPS://EVIL.EXAMPLE',
  'https:evil.example',
  'https:/evil.example',
  'JaVaScRiPt:alert(1)',
  'javascript%3Aalert(1)',
  '%6Aavascript:alert(1)',
  '/@evil.example',
  '@evil.example',
  'https://user@evil.example',
  '/.//evil.example',
  '/%2e%2e//evil.example',
  'blob:https://evil.example/x',
  '//evil.example/%2f..',
  '/login?redirect_url=//evil.example',
];

describe('toSafeRedirectPath', () => {
  it.each(hostile.map((value) => [JSON.stringify(value), value]))('never leaves the site for %s', (_label, value) => {
    const safe = toSafeRedirectPath(value, ORIGIN);
    if (safe !== null) expect(staysOnSite(safe), `"${safe}" would leave ${ORIGIN}`).toBe(true);
  });

  it('refuses the classic open-redirect forms outright', () => {
    for (const value of [
      '//evil.example',
      '/\\evil.example',
      '/%09/evil.example',
      '/%2F/evil.example',
      '/%5C%5Cevil',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,hi',
      'https://evil.example',
      'http:evil.example',
      'https://good@evil.example',
      '/..//evil',
      '/\t/evil.example',
      '/\n/evil.example',
    ]) {
      expect(toSafeRedirectPath(value, ORIGIN), value).toBeNull();
    }
  });

  it('keeps a user-info lookalike that stays on the site as a plain path', () => {
    // "/@evil.example" is a path on this site, not a host.
    expect(toSafeRedirectPath('/@evil.example', ORIGIN)).toBe('/@evil.example');
  });

  it.each([
    '/',
    '/chat',
    '/chat/conv-123',
    '/kraken-operation',
    '/kraken-operation/task/edit/42',
    '/kraken-operation/task/xiaohongshu?draft=1&tab=images',
    '/account#security',
    '/chat/abc?x=1&y=%2F%2Fnot-a-host#answer-2',
    '/search?q=caf%C3%A9',
  ])('keeps the on-site path %s exactly, with its query and hash', (value) => {
    expect(toSafeRedirectPath(value, ORIGIN)).toBe(value);
  });

  it('accepts an absolute URL of this very origin only as its path', () => {
    // The guard writes paths; an absolute URL is refused rather than trusted, and never goes elsewhere.
    const safe = toSafeRedirectPath(`${ORIGIN}/chat?x=1`, ORIGIN);
    expect(safe === null || safe === '/chat?x=1').toBe(true);
  });
});

describe('loginUrlFor', () => {
  it('sends to the login page from the operations area with the exact way back', () => {
    const url = loginUrlFor('/kraken-operation/task/edit/42', '?tab=images&draft=1');
    const parsed = new URL(url, ORIGIN);
    expect(parsed.pathname).toBe('/login');
    expect(parsed.searchParams.get('source')).toBe('kraken');
    expect(parsed.searchParams.get('redirect_url')).toBe('/kraken-operation/task/edit/42?tab=images&draft=1');
  });

  it('encodes the way back so its own query does not leak into the login query', () => {
    const url = loginUrlFor('/kraken-operation', '?source=evil&redirect_url=//evil.example');
    const parsed = new URL(url, ORIGIN);
    expect(parsed.searchParams.getAll('source')).toEqual(['kraken']);
    expect(parsed.searchParams.getAll('redirect_url')).toEqual(['/kraken-operation?source=evil&redirect_url=//evil.example']);
  });

  it('gives a way back that the redirect check accepts exactly', () => {
    const url = new URL(loginUrlFor('/kraken-operation/task/linkedin', '?id=7'), ORIGIN);
    expect(toSafeRedirectPath(url.searchParams.get('redirect_url'), ORIGIN)).toBe('/kraken-operation/task/linkedin?id=7');
  });
});

describe('isOperationsPath', () => {
  it.each([OPERATIONS_PREFIX, '/kraken-operation/', '/kraken-operation/task/edit/1', '/kraken-operation/task/linkedin'])(
    '%s is in the operations area',
    (path) => {
      expect(isOperationsPath(path)).toBe(true);
    },
  );

  it.each(['/', '/kraken-operations', '/kraken-operation-evil', '/chat/kraken-operation', '/login'])('%s is not', (path) => {
    expect(isOperationsPath(path)).toBe(false);
  });
});

describe('loginToApprove', () => {
  it('comes back to the approval page of that code, through the redirect check', () => {
    const url = new URL(loginToApprove('a/b?c&redirect_url=//evil.example'), ORIGIN);
    expect(url.pathname).toBe('/login');
    const back = toSafeRedirectPath(url.searchParams.get('redirect_url'), ORIGIN)!;
    expect(back).toBe(`/scan-approval?scanid=${encodeURIComponent('a/b?c&redirect_url=//evil.example')}`);
    expect(new URL(back, ORIGIN).searchParams.get('scanid')).toBe('a/b?c&redirect_url=//evil.example');
  });
});

describe('isPersonalPath: the pages a sign-out leaves for the home page', () => {
  it.each(['/chat/conv-12', '/account'])('%s shows one person\'s own things', (path) => {
    expect(isPersonalPath(path)).toBe(true);
  });

  it.each(['/', '/chat', '/chat/', '/chat/agents', '/download', '/login', '/kraken-operation'])('%s does not', (path) => {
    expect(isPersonalPath(path)).toBe(false);
  });
});
