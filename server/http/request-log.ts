import type { MiddlewareHandler } from 'hono';

/**
 * One line per request: method, path without the query string, status, time. Nothing else of the
 * request is logged, so tokens, passwords and query values never reach the log.
 */
export const requestLog =
  (log: (line: string) => void): MiddlewareHandler =>
  async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round(performance.now() - started);
    log(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms`);
  };
