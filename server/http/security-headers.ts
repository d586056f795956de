import type { MiddlewareHandler } from 'hono';

/**
 * The policy of every answer; `scriptHashes` (base64 SHA-256) are inline scripts of the app's own
 * page allowed by their exact text (the boot script, see `serveSpa`), never inline scripts at large.
 */
export const contentSecurityPolicy = (scriptHashes: readonly string[] = []) =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes.map((hash) => `'sha256-${hash}'`)].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
  ].join('; ');

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

const HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
};

export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * On every answer; a route that set a stricter value of its own keeps it. API answers are never
 * stored by the browser or a proxy (tokens, user info, conversations), unless the route says how
 * to cache it (uploaded files). HSTS only when the site is known to be reached over https: sent
 * over plain http it would be ignored, and a wrong promise locks browsers out of the site.
 */
export const securityHeaders =
  (options: { hsts: boolean }): MiddlewareHandler =>
  async (c, next) => {
    await next();
    const headers = c.res.headers;
    for (const [name, value] of Object.entries(HEADERS)) {
      if (!headers.has(name)) headers.set(name, value);
    }
    if (c.req.path.startsWith('/api/') && !headers.has('cache-control')) headers.set('cache-control', 'no-store');
    if (options.hsts) headers.set('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  };
