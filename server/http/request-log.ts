import type { MiddlewareHandler } from 'hono';
import type { Log } from './log-line';
import { HIDDEN, SECRET_NAME } from './redact';

function debugQuery(url: string): string {
  const params = new URL(url).searchParams;
  const shown = [...params].map(([name, value]) => `${name}=${SECRET_NAME.test(name) ? HIDDEN : value}`);
  return shown.length > 0 ? `?${shown.join('&')}` : '';
}

/**
 * One line per request: method, path, status, time (and the status and time as fields). A route with parameters is logged by its
 * pattern (`/api/media/file/:fileId`: a file id works as a link to the file). Nothing the person
 * wrote (login names, chat text, query values) is logged; at `debug` the query string is, with
 * secret-looking parameters hidden. The log sink (`safeLog`) hides every secret by its shape, a
 * token in the path (`/share/<token>`) included, and escapes control characters.
 */
export const requestLog =
  (log: Log, level: 'info' | 'debug' = 'info'): MiddlewareHandler =>
  async (c, next) => {
    const started = performance.now();
    await next();
    const ms = Math.round(performance.now() - started);
    const route = c.req.routePath;
    const path = route.includes(':') ? route : c.req.path;
    log(`${c.req.method} ${path}${level === 'debug' ? debugQuery(c.req.url) : ''} ${c.res.status} ${ms}ms`, { status: c.res.status, durationMs: ms });
  };
