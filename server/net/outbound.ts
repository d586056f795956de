import { lookup as dnsLookup } from 'node:dns';
import { lookup as resolveAll } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { cappedGet } from './capped-get';
import { classifyAddress, type AddressClass } from './public-address';

/**
 * Where the server may connect on an admin's say-so (a model provider's address): public
 * addresses only, as for providers' pictures (server/media/provider-picture.ts); with
 * `privateNetwork` (MODEL_PROVIDERS_ON_PRIVATE_NETWORK) also this machine and its private
 * networks, where self-hosted models live. Never link-local (cloud metadata services answer at
 * 169.254.169.254 and fe80::), multicast, unspecified or reserved addresses.
 */
export type OutboundPolicy = { privateNetwork: boolean };

const PRIVATE_NETWORK: readonly AddressClass[] = ['loopback', 'private', 'carrier-grade-nat', 'unique-local'];

/** Whether the policy lets the server connect to this IP address. */
export function addressAllowed(address: string, policy: OutboundPolicy): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (policy.privateNetwork && PRIVATE_NETWORK.includes(kind));
}

/** Why the server will not connect to this address, for an error a person reads; null when it will. */
export function refusalOf(address: string, policy: OutboundPolicy): string | null {
  if (addressAllowed(address, policy)) return null;
  const kind = classifyAddress(address);
  const hint = PRIVATE_NETWORK.includes(kind) ? ' (set MODEL_PROVIDERS_ON_PRIVATE_NETWORK=on to allow this machine and private networks)' : '';
  return `${address} is a ${kind} address${hint}`;
}

/**
 * A provider's base URL as typed, checked before it is stored: http or https, no user name or
 * password, no query or fragment, and a host that is not an address the policy refuses (names
 * are checked again each time they are resolved: see `guardedLookup`). A reason when refused.
 */
export function checkBaseUrl(raw: string, policy: OutboundPolicy): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL (for example https://api.openai.com/v1)';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${url.protocol} is not allowed (http or https only)`;
  if (url.username || url.password) return 'a user name or password in the URL (give the key instead)';
  if (url.search || url.hash) return 'a query or fragment in the URL';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return refusalOf(host, policy) ?? url;
  if (/^localhost\.?$/i.test(host) && !policy.privateNetwork) return refusalOf('127.0.0.1', policy)!;
  return url;
}

/**
 * Why a host name is refused now, from what it resolves to, or null: said when a provider is
 * saved. A name that does not resolve (yet) is let through: every connection checks again
 * (`guardedLookup`).
 */
export async function resolvedRefusal(hostname: string, policy: OutboundPolicy): Promise<string | null> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return refusalOf(bare, policy);
  let addresses: { address: string }[];
  try {
    addresses = await resolveAll(bare, { all: true, verbatim: true });
  } catch {
    return null;
  }
  for (const { address } of addresses) {
    const refusal = refusalOf(address, policy);
    if (refusal) return `${bare} resolves to ${refusal}`;
  }
  return null;
}

/** A base URL as stored: without the trailing slashes, so `${base}/models` reads right. */
export const normalBaseUrl = (url: URL): string => url.toString().replace(/\/+$/, '');

/**
 * Node's DNS lookup, refusing a name whose addresses include one the policy refuses: every
 * connection to a provider resolves through it, so a name that later resolves elsewhere
 * (rebinding) is refused then too. The connection uses an address it checked.
 */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as { address: string; family: number }[];
      const refused = list.find(({ address }) => !addressAllowed(address, policy));
      if (refused || list.length === 0) {
        const failure = Object.assign(new Error(refused ? `${hostname} resolves to ${refusalOf(refused.address, policy)}` : `${hostname} does not resolve`), {
          code: 'EADDRNOTALLOWED',
        });
        return callback(failure, '', 4);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export type GuardedGet = { ok: true; status: number; text: string } | { ok: false; reason: string };

/**
 * One GET of a URL an admin typed, under the policy: its address checked after DNS, no
 * redirects (a provider answers where it is configured), a fresh connection, at most `maxBytes`
 * of answer within `timeoutMs`. Never throws; a refusal says why, never with the headers sent (a
 * key) nor the URL's query.
 */
export async function guardedGet(
  url: URL,
  options: { policy: OutboundPolicy; headers: Record<string, string>; maxBytes: number; timeoutMs: number; lookup?: LookupFunction },
): Promise<GuardedGet> {
  // An address written as such is never looked up: it is checked here.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  const refused = isIP(literal) ? refusalOf(literal, options.policy) : null;
  if (refused) return { ok: false, reason: refused };
  const got = await cappedGet(url, {
    headers: options.headers,
    lookup: options.lookup ?? guardedLookup(options.policy),
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    timeoutReason: `no answer within ${options.timeoutMs / 1000} s`,
  });
  return got.ok ? { ok: true, status: got.status, text: got.body.toString('utf8') } : got;
}
