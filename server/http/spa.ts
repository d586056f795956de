import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Context, Env, Hono } from 'hono';
import { contentSecurityPolicy } from './security-headers';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

export const SPA_NOT_BUILT = 'The web app is not built yet. Run `npm run build` (or `npm start`, which builds it first), then reload.';

async function fileIn(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = resolve(root, '.' + normalize('/' + decoded));
  if (full !== root && !full.startsWith(root + sep)) return null;
  try {
    return (await stat(full)).isFile() ? full : null;
  } catch {
    return null;
  }
}

/** The encodings the build wrote beside its text files (scripts/precompress.ts), best first. */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** Whether an Accept-Encoding header takes this encoding (named with q > 0, or `*`). */
export function accepts(header: string | undefined, encoding: string): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    const wanted = q === undefined || Number(q) > 0;
    if (name.trim() === encoding) return wanted;
    if (name.trim() === '*') wildcard = wanted;
  }
  return wildcard;
}

/** The inline scripts of a page (a `<script>` with no attributes): the base64 SHA-256 of each one's text. */
export const inlineScriptHashes = (html: string): string[] =>
  [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => createHash('sha256').update(match[1]!).digest('base64'));

/** The app page's policy: its own inline scripts (the build writes the boot script in) allowed by hash. */
const pagePolicy = async (index: string) => contentSecurityPolicy(inlineScriptHashes(await readFile(index, 'utf8')));

async function sendFile(c: Context, path: string, immutable: boolean, extra: Record<string, string> = {}) {
  const type = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  const headers: Record<string, string> = {
    'content-type': type,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...extra,
  };
  const acceptEncoding = c.req.header('accept-encoding');
  for (const { encoding, suffix } of PRECOMPRESSED) {
    if (!existsSync(path + suffix)) continue;
    // A file the build compressed is answered by encoding: caches must keep one copy per encoding.
    headers.vary = 'Accept-Encoding';
    if (!accepts(acceptEncoding, encoding)) continue;
    return c.body(await readFile(path + suffix), 200, { ...headers, 'content-encoding': encoding });
  }
  return c.body(await readFile(path), 200, headers);
}

/** Shared conversations: read by the people given the link, never listed by search engines. */
const SHARE_PAGES = '/share/';

async function sendSharePage(c: Context, index: string) {
  const html = (await readFile(index, 'utf8')).replace('<head>', '<head><meta name="robots" content="noindex, nofollow">');
  return c.body(html, 200, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': contentSecurityPolicy(inlineScriptHashes(html)),
    'cache-control': 'no-cache',
    'x-robots-tag': 'noindex, nofollow',
    'referrer-policy': 'no-referrer',
  });
}

/**
 * Serves the built SPA: a file of dist/ when one matches, otherwise index.html, so every client
 * route loads the app. Only for GET and HEAD outside /api. `*.map` only with `sourceMaps`.
 */
export function serveSpa<E extends Env>(app: Hono<E>, spaDir: string, options: { sourceMaps: boolean } = { sourceMaps: false }) {
  const root = resolve(spaDir);
  app.on(['GET', 'HEAD'], '*', async (c) => {
    const index = join(root, 'index.html');
    if (!existsSync(index)) return c.text(SPA_NOT_BUILT, 503);
    const path = c.req.path;
    const file = path === '/' ? null : await fileIn(root, path);
    // Source maps would publish the whole client source with its comments: only when asked for.
    if (file && !options.sourceMaps && extname(file).toLowerCase() === '.map') return c.text('Not found', 404);
    // The build's compressed copies are answered in place of their file, never by their own name.
    if (file && /\.(br|gz)$/i.test(file)) return c.text('Not found', 404);
    // Only hashed /assets/ files are immutable: sw.js, the manifest and index.html are checked on
    // every visit, so a new version's service worker is found as soon as it is deployed.
    if (file) return sendFile(c, file, path.startsWith('/assets/'), file === index ? { 'content-security-policy': await pagePolicy(index) } : {});
    // A missing asset or file (`/assets/…`, `/favicon.ico`) is a real 404, not the app's page:
    // the app's routes never end in a file extension.
    if (path.startsWith('/assets/') || /\/[^/]*\.[A-Za-z0-9]{1,8}$/.test(path)) return c.text('Not found', 404);
    if (path.startsWith(SHARE_PAGES)) return sendSharePage(c, index);
    return sendFile(c, index, false, { 'content-security-policy': await pagePolicy(index) });
  });
}
