import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseImageHosts, safeImageSrc } from './url-policy';

describe('the image allow-list (VITE_IMAGE_HOSTS)', () => {
  it('is empty by default: no other host loads', () => {
    expect(parseImageHosts(undefined)).toEqual([]);
    expect(safeImageSrc('https://cdn.example.com/a.png')).toBeNull();
    expect(safeImageSrc('/local.png')).toBe(`${location.origin}/local.png`);
  });

  it('reads origins, https hosts and subdomain wildcards, and ignores anything else', () => {
    expect(parseImageHosts(' https://CDN.example.com , images.example.org,*.example.net, http://127.0.0.1:9000/path ')).toEqual([
      { origin: 'https://cdn.example.com' },
      { host: 'images.example.org' },
      { suffix: '.example.net' },
      { origin: 'http://127.0.0.1:9000' },
    ]);
    expect(parseImageHosts('javascript:alert(1), data:image/png, *, *.com, evil host, ftp://x.example')).toEqual([]);
  });

  const rules = parseImageHosts('https://cdn.example.com, images.example.org, *.example.net');

  it.each([
    'https://cdn.example.com/a.png',
    'https://images.example.org/b.png',
    'https://img.example.net/c.png',
    'https://a.b.example.net/d.png',
    'https://cdn.example.com/x.png?size=2#f',
  ])('lets %s load', (url) => {
    expect(safeImageSrc(url, rules)).toBe(new URL(url).href);
  });

  it.each([
    ['another host', 'https://evil.example/a.png'],
    ['plain http to an https origin', 'http://cdn.example.com/a.png'],
    ['plain http to an https host', 'http://images.example.org/a.png'],
    ['another port', 'https://cdn.example.com:8443/a.png'],
    ['a look-alike suffix', 'https://cdn.example.com.evil.example/a.png'],
    ['the allowed name as a path', 'https://evil.example/cdn.example.com/a.png'],
    ['user-info in front of another host', 'https://cdn.example.com@evil.example/a.png'],
    ['user-info on an allowed host', 'https://user:pw@images.example.org/a.png'],
    ['the bare domain of a wildcard', 'https://example.net/a.png'],
    ['a name that only ends like the wildcard', 'https://evilexample.net/a.png'],
    ['protocol-relative, so plain http here', '//images.example.org/a.png'],
    ['a backslash trick', '/\\evil.example/a.png'],
    ['a data: URL', 'data:image/png;base64,AAAA'],
    ['javascript:', 'javascript:alert(1)'],
    ['an entity-encoded host', 'https://evil&#46;example/a.png'],
  ])('keeps %s out (%s)', (_what, url) => {
    expect(safeImageSrc(url, rules)).toBeNull();
  });
});

describe('a markdown image from a build with an allow-list', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('loads only the allowed host and leaves the others as placeholders', async () => {
    vi.stubEnv('VITE_IMAGE_HOSTS', 'https://cdn.example.com');
    vi.resetModules();
    const { default: Markdown } = await import('./markdown');
    const { container } = render(<Markdown source={'![ok](https://cdn.example.com/a.png) ![leak](https://evil.example/?q=secret)'} />);
    expect([...container.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual(['https://cdn.example.com/a.png']);
    expect(container.querySelectorAll('[data-blocked-image]')).toHaveLength(1);
  });
});
