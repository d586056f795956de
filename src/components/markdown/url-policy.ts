import { decodeEntities } from './entities';

/**
 * Which URLs from an agent's answer may become a link or an image. A URL is judged on what the
 * browser would see after we set it as an attribute, and more strictly: we also strip every
 * whitespace and control character and undo percent-encoding before reading its scheme, so
 * `java\tscript:`, `java&#115;cript:` and `%6Aavascript:` are all recognised as `javascript:`.
 */
const LINK_SCHEMES = new Set(['http', 'https', 'mailto']);
const IMAGE_SCHEMES = new Set(['http', 'https', 'blob']);

// C0 controls (tab and newlines included) and DEL: the URL parser drops or chokes on them.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u2060\ufeff]/g;
const SCHEME = /^([a-z][a-z0-9+.-]*):/;

/** The URL as it will be written into the attribute: entities decoded, controls and edges removed. */
export const cleanUrl = (raw: string): string => decodeEntities(raw).replace(CONTROLS, '').trim();

const percentDecode = (text: string): string => {
  let current = text;
  for (let round = 0; round < 3; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      next = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === current) break;
    current = next;
  }
  return current;
};

/** The scheme a hostile URL could be trying to reach, lower-cased, or null for a relative URL. */
export const schemeOf = (cleaned: string): string | null => {
  const squeezed = percentDecode(cleaned.replace(INVISIBLE, '')).replace(INVISIBLE, '').toLowerCase();
  return SCHEME.exec(squeezed)?.[1] ?? null;
};

/** The href to use for a markdown link, or null when the link must be shown as plain text. */
export const safeLinkHref = (raw: string): string | null => {
  const cleaned = cleanUrl(raw);
  if (!cleaned) return null;
  const scheme = schemeOf(cleaned);
  return scheme === null || LINK_SCHEMES.has(scheme) ? cleaned : null;
};

const pageLocation = (): URL | null => (typeof location === 'undefined' ? null : new URL(location.href));

/**
 * Other hosts images may load from, set at build time in `VITE_IMAGE_HOSTS` (comma separated):
 * an origin (`https://cdn.example.com`, `http://127.0.0.1:9000`), a host for https only
 * (`cdn.example.com`), or `*.example.com` for its subdomains over https. Default: none.
 * The server's Content-Security-Policy `img-src` must allow the same hosts.
 */
export type ImageHostRule = { origin: string } | { host: string } | { suffix: string };

export const parseImageHosts = (value: string | undefined): ImageHostRule[] =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .flatMap((entry): ImageHostRule[] => {
      if (entry.startsWith('*.')) return /^\*\.[a-z0-9.-]+\.[a-z]+$/.test(entry) ? [{ suffix: entry.slice(1) }] : [];
      if (entry.includes('://')) {
        try {
          const url = new URL(entry);
          return url.protocol === 'https:' || url.protocol === 'http:' ? [{ origin: url.origin }] : [];
        } catch {
          return [];
        }
      }
      return /^[a-z0-9.-]+$/.test(entry) ? [{ host: entry }] : [];
    });

const BUILD_IMAGE_HOSTS = parseImageHosts(import.meta.env?.VITE_IMAGE_HOSTS as string | undefined);

const allowedElsewhere = (url: URL, rules: readonly ImageHostRule[]): boolean =>
  rules.some((rule) => {
    if ('origin' in rule) return url.origin === rule.origin;
    if (url.protocol !== 'https:' || url.username || url.password) return false;
    if ('host' in rule) return url.host === rule.host;
    return url.hostname.endsWith(rule.suffix) && url.hostname.length > rule.suffix.length && !url.port;
  });

/**
 * The src for a markdown image, or null when it must not be fetched: only this site, `blob:`
 * URLs and the allow-listed hosts load, since a request to another host can carry data out in
 * its URL.
 */
export const safeImageSrc = (raw: string, allowedHosts: readonly ImageHostRule[] = BUILD_IMAGE_HOSTS): string | null => {
  const cleaned = cleanUrl(raw);
  if (!cleaned) return null;
  const scheme = schemeOf(cleaned);
  if (scheme !== null && !IMAGE_SCHEMES.has(scheme)) return null;
  const page = pageLocation();
  if (!page) return null;
  let resolved: URL;
  try {
    resolved = new URL(cleaned, page);
  } catch {
    return null;
  }
  if (resolved.protocol === 'blob:') return scheme === 'blob' ? resolved.href : null;
  if (resolved.protocol !== 'http:' && resolved.protocol !== 'https:') return null;
  return resolved.origin === page.origin || allowedElsewhere(resolved, allowedHosts) ? resolved.href : null;
};

/** An http(s) image URL the reader may open themselves, in a new tab, or null. */
export const openableImageHref = (raw: string): string | null => {
  const href = safeLinkHref(raw);
  return href && schemeOf(href) !== 'mailto' ? href : null;
};

/**
 * Whether a link (already passed by `safeLinkHref`) leaves this site: another origin, or another
 * kind of address (`mailto:`). Such a link shows where it goes and asks before leaving, since an
 * answer's link text can say anything and its address can carry data out.
 */
export const leavesSite = (href: string): boolean => {
  const page = pageLocation();
  if (!page) return true;
  try {
    return new URL(href, page).origin !== page.origin;
  } catch {
    return true;
  }
};
