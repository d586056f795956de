import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The caller's address for limits and quotas. Behind `proxyHops` trusted proxies, each proxy
 * appends the address it was reached from to X-Forwarded-For, so the client's address is the
 * entry `proxyHops` places from the right: anything further left was written by the client and
 * may be forged. With fewer entries than hops, the left-most is the best there is.
 */
export function clientAddress(c: Context, proxyHops: number): string {
  if (proxyHops > 0) {
    const entries = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (entries.length > 0) return entries[Math.max(0, entries.length - proxyHops)]!;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
