import type { Context, Hono } from 'hono';
import { clientAddress } from '../http/client-address';
import { bearerOf, sameToken } from '../http/same-token';
import { fail } from '../http/envelope';
import type { AppEnv } from '../http/route';
import { classifyAddress } from '../net/public-address';
import { registry } from './metrics';

export const METRICS_PATH = '/metrics';


type Access = 'allowed' | 'no token set' | 'wrong token';

/**
 * Who may read the metrics: a client on this machine (as the request log judges the client, through
 * TRUST_PROXY's proxies: a request that came through nginx is judged by who sent it to nginx), and
 * anyone else with `Authorization: Bearer $METRICS_TOKEN`.
 */
function accessOf(c: Context, options: { token: string | null; trustProxy: number }): Access {
  if (classifyAddress(clientAddress(c, options.trustProxy)) === 'loopback') return 'allowed';
  if (!options.token) return 'no token set';
  const bearer = bearerOf(c.req.header('authorization'));
  return bearer !== undefined && sameToken(bearer, options.token) ? 'allowed' : 'wrong token';
}

/**
 * `GET /metrics`: this instance's counters in Prometheus's text format, outside /api. To others
 * than loopback clients, without METRICS_TOKEN it does not exist (404); with it, a missing or
 * wrong token is answered 401.
 */
export function metricsRoute(app: Hono<AppEnv>, options: { token: string | null; trustProxy: number }) {
  app.get(METRICS_PATH, async (c) => {
    const access = accessOf(c, options);
    if (access === 'no token set') return fail(c, 404, `No such path ${METRICS_PATH}.`);
    if (access === 'wrong token') {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      return fail(c, 401, 'The metrics need Authorization: Bearer with METRICS_TOKEN.');
    }
    return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
  });
}
