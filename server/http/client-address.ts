import { isIPv4, isIPv6 } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { ipv6Bytes } from '../net/public-address';

/**
 * The caller's address, as people are shown it (the sessions list, a scan ticket's approval
 * page). Limits never count against it directly but against its `addressLimitKey`. Behind
 * `proxyHops` trusted proxies, each proxy appends the address it was reached from to
 * X-Forwarded-For, so the client's address is the entry `proxyHops` places from the right:
 * anything further left was written by the client and may be forged. With fewer entries than
 * hops, the left-most is the best there is.
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

const hex = (word: number) => word.toString(16);

/**
 * What a per-address limit counts against. An IPv4 address is one subscriber; an IPv6 address
 * is not: every IPv6 customer is handed at least a /64 network and may send each request from
 * another address in it, so one host would never reach a limit. IPv6 is therefore counted by its
 * /64, written one way whatever the spelling (`2001:db8:a:b::/64`). An IPv4 address in IPv6 form
 * (`::ffff:1.2.3.4`, as a dual-stack socket reports it) is that IPv4 address. Anything that is not
 * an address (`unknown`) is counted as it is written. Giving it a key it made answers the same key.
 */
export function addressLimitKey(address: string): string {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const bytes = ipv6Bytes(bare);
  const words = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  if (words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff) return bytes.slice(12).join('.');
  // The four zero words that end a /64 network are always its longest run of zeros, so they are
  // the ones `::` stands for (RFC 5952's canonical form); the network's own words are kept as
  // they are, zeros included, in lower-case hex without leading zeros.
  const network = words.slice(0, 4);
  while (network.length > 0 && network.at(-1) === 0) network.pop();
  return `${network.map(hex).join(':')}::/64`;
}
