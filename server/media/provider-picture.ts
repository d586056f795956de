import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { cappedGet } from '../net/capped-get';
import { classifyAddress } from '../net/public-address';
import { sniff } from './sniff';

export type PictureProvider = 'wechat' | 'google';

/**
 * Where providers' pictures may be fetched from. A host is `name` (exactly) or `*.name` (any
 * name under it), optionally with `:port` (otherwise only the protocol's default port).
 */
export type PictureSources = {
  hosts: Record<PictureProvider, readonly string[]>;
  /** `https:` only, except for tests whose fake provider serves http on loopback. */
  protocols: readonly ('https:' | 'http:')[];
  /** Tests' fake providers live on loopback; a real server never fetches from a non-public address. */
  allowNonPublicAddresses: boolean;
};

export const PROVIDER_PICTURE_SOURCES: PictureSources = {
  hosts: { wechat: ['thirdwx.qlogo.cn', 'wx.qlogo.cn', '*.qlogo.cn'], google: ['*.googleusercontent.com'] },
  protocols: ['https:'],
  allowNonPublicAddresses: false,
};

export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PICTURE_TIMEOUT_MS = 4000;

export type ResolvedAddress = { address: string; family: number };
/** Every address a host name resolves to (the system resolver by default; tests give their own). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;
const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type PictureResult = { ok: true; bytes: Uint8Array; mimeType: string } | { ok: false; reason: string };
const refused = (reason: string): PictureResult => ({ ok: false, reason });

const hostAllowed = (url: URL, patterns: readonly string[]): boolean => {
  const hostname = url.hostname.toLowerCase().replace(/\.$/, '');
  return patterns.some((pattern) => {
    const [name, port = ''] = pattern.toLowerCase().split(/:(?=\d+$)/);
    if (port !== url.port) return false;
    return name!.startsWith('*.') ? hostname.endsWith(name!.slice(1)) : hostname === name;
  });
};

/** The URL, checked against the provider's hosts and the protocols; a reason when it is refused. */
function checkUrl(raw: string, provider: PictureProvider, sources: PictureSources): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (!(sources.protocols as readonly string[]).includes(url.protocol)) return `${url.protocol} is not allowed (https only)`;
  if (url.username || url.password) return 'credentials in the URL';
  if (!hostAllowed(url, sources.hosts[provider])) return `${url.host} is not one of ${provider}'s picture hosts`;
  return url;
}

/** The one address to connect to: every address of the name must be public, or it is refused. */
async function pickAddress(hostname: string, sources: PictureSources, resolve: Resolve): Promise<ResolvedAddress | string> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(bare)) addresses = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      return `${hostname} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
  }
  if (addresses.length === 0) return `${hostname} does not resolve`;
  if (!sources.allowNonPublicAddresses) {
    const hidden = addresses.find(({ address }) => classifyAddress(address) !== 'public');
    if (hidden) return `${hostname} resolves to ${hidden.address} (${classifyAddress(hidden.address)})`;
  }
  return addresses[0]!;
}

/** Connects only to the address already checked, so a second DNS answer (rebinding) is never used. */
const pinnedLookup =
  ({ address, family }: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

/** `timeoutMs` is what is left of the whole fetch's `budgetMs`, the time the refusal names. */
async function download(url: URL, address: ResolvedAddress, maxBytes: number, timeoutMs: number, budgetMs: number): Promise<PictureResult> {
  const got = await cappedGet(url, { headers: { accept: 'image/*' }, lookup: pinnedLookup(address), maxBytes, timeoutMs, timeoutReason: `no answer within ${budgetMs} ms` });
  if (!got.ok) return got;
  if (got.status !== 200) return refused(`answered ${got.status}`);
  const bytes = new Uint8Array(got.body);
  const kind = sniff(bytes);
  return kind.kind === 'image' ? { ok: true, bytes, mimeType: kind.mimeType } : refused('not an image');
}

/**
 * A provider's picture of a person (WeChat's headimgurl, Google's picture), fetched so it can be
 * kept as the account's own upload. The address comes from the provider's answer, which a person
 * can influence, so only the provider's picture hosts over https, only public addresses (checked
 * after DNS and pinned for the connection), no redirects, at most 2 MB within 4 seconds, and only
 * an image. Never throws: a refusal says why, without the URL's query.
 */
export async function fetchProviderPicture(
  raw: string,
  provider: PictureProvider,
  sources: PictureSources = PROVIDER_PICTURE_SOURCES,
  options: { resolve?: Resolve; maxBytes?: number; timeoutMs?: number } = {},
): Promise<PictureResult> {
  const url = checkUrl(raw, provider, sources);
  if (typeof url === 'string') return refused(url);
  const timeoutMs = options.timeoutMs ?? PICTURE_TIMEOUT_MS;
  const started = Date.now();
  const address = await Promise.race([
    pickAddress(url.hostname, sources, options.resolve ?? systemResolve),
    new Promise<string>((resolve) => setTimeout(() => resolve(`${url.hostname} did not resolve within ${timeoutMs} ms`), timeoutMs).unref()),
  ]);
  if (typeof address === 'string') return refused(address);
  return download(url, address, options.maxBytes ?? PICTURE_MAX_BYTES, Math.max(1, timeoutMs - (Date.now() - started)), timeoutMs).catch((error: Error) =>
    refused(`request failed (${error.name})`),
  );
}
