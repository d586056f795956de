import type { MiddlewareHandler } from 'hono';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'self'",
].join('; ');

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
