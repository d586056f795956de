import { isIP } from 'node:net';

/**
 * What kind of address an IP is, as far as "may this server connect there on a user's say-so"
 * goes. Only `public` may be fetched: everything else reaches this machine, its network, a cloud
 * metadata service or nothing that a provider's picture could live on.
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'carrier-grade-nat'
  | 'link-local'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved'
  | 'not-an-ip';

type Range = { bytes: number[]; bits: number; kind: AddressClass };

const v4 = (cidr: string, kind: AddressClass): Range => {
  const [address, bits] = cidr.split('/');
  return { bytes: address!.split('.').map(Number), bits: Number(bits), kind };
};

// First match wins; anything not listed is public.
const IPV4_RANGES: Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'carrier-grade-nat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const matches = (bytes: number[], range: Range): boolean => {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const take = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (range.bytes[bit / 8]! & mask)) return false;
  }
  return true;
};

function classifyV4(bytes: number[]): AddressClass {
  return IPV4_RANGES.find((range) => matches(bytes, range))?.kind ?? 'public';
}

/** The 16 bytes of a valid IPv6 address (zone dropped), including an embedded dotted quad. */
export function ipv6Bytes(address: string): number[] {
  const text = address
    .split('%')[0]!
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a, b, c, d) =>
      [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((word) => word.toString(16)).join(':'),
    );
  const groups = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = text.split('::') as [string, string | undefined];
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const words = [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

const v6 = (prefix: number[], bits: number, kind: AddressClass): Range => ({ bytes: prefix, bits, kind });

function classifyV6(bytes: number[]): AddressClass {
  const isZero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const embeddedV4 = bytes.slice(12, 16);
  if (isZero(0, 16)) return 'unspecified';
  if (isZero(0, 15) && bytes[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d reaches the IPv4 address a.b.c.d
  if (isZero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyV4(embeddedV4);
  // 64:ff9b::a.b.c.d is NAT64's way to a.b.c.d
  if (matches(bytes, v6([0x00, 0x64, 0xff, 0x9b], 96, 'public'))) return classifyV4(embeddedV4);
  // 2002:AABB:CCDD::/48 is 6to4 for AA.BB.CC.DD
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return classifyV4(bytes.slice(2, 6));
  const ranges: Range[] = [
    v6([0xfc], 7, 'unique-local'),
    v6([0xfe, 0x80], 10, 'link-local'),
    v6([0xfe, 0xc0], 10, 'private'), // the old site-local
    v6([0xff], 8, 'multicast'),
    v6([0x20, 0x01, 0x00, 0x00], 32, 'reserved'), // Teredo tunnels to anywhere
    v6([0x20, 0x01, 0x0d, 0xb8], 32, 'reserved'), // documentation
  ];
  const listed = ranges.find((range) => matches(bytes, range));
  if (listed) return listed.kind;
  // Only 2000::/3 is handed out as global unicast; the rest (::/96 included) reaches nothing public.
  return (bytes[0]! & 0xe0) === 0x20 ? 'public' : 'reserved';
}

/** The class of an IP address in its usual text form (`127.0.0.1`, `::1`, `[::1]`, `fe80::1%eth0`). */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 4) return classifyV4(bare.split('.').map(Number));
  if (family === 6) return classifyV6(ipv6Bytes(bare));
  return 'not-an-ip';
}

export const isPublicAddress = (address: string): boolean => classifyAddress(address) === 'public';

/** A listen address only this machine can reach: `localhost`, 127.0.0.0/8 or ::1. */
export const isLoopbackHost = (host: string): boolean =>
  /^localhost\.?$/i.test(host.trim()) || classifyAddress(host.trim()) === 'loopback';

/** How other machines reach this server, or null when none does. */
export type Exposure = null | { by: 'listening' | 'proxy' | 'public-url'; detail: string };

/**
 * Whether people on other machines reach this server: it listens beyond loopback, a proxy in
 * front of it forwards their requests (TRUST_PROXY), or it has a public address (PUBLIC_URL) on
 * another host. An instance listening on 127.0.0.1 behind nginx on the same machine serves the
 * world: what is safe only for someone trying the product on their own machine (a demo admin
 * whose password is printed, open sign-up, the WeChat simulator) follows this, not the listening
 * address alone. An unknown listening address counts as reachable.
 */
export function exposureOf(env: NodeJS.ProcessEnv, host: string | undefined): Exposure {
  if (!host || !isLoopbackHost(host)) return { by: 'listening', detail: `HOST=${host ?? ''}` };
  const proxy = env.TRUST_PROXY?.trim().toLowerCase() ?? '';
  if (!['', '0', 'false', 'off'].includes(proxy)) return { by: 'proxy', detail: `TRUST_PROXY=${env.TRUST_PROXY!.trim()}` };
  const publicUrl = env.PUBLIC_URL?.trim();
  if (publicUrl) {
    const hostname = URL.canParse(publicUrl) ? new URL(publicUrl).hostname.replace(/^\[|\]$/g, '') : null;
    if (hostname === null || !isLoopbackHost(hostname)) return { by: 'public-url', detail: `PUBLIC_URL=${publicUrl}` };
  }
  return null;
}
