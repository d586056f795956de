import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeLinkedInRequest = { method: string; path: string; headers: IncomingMessage['headers']; body: Buffer };

/**
 * A local stand-in for LinkedIn's REST API (Posts and Images), for tests: it checks the headers
 * the documented API requires, records every request, and answers like LinkedIn does (201 with
 * the post id in `x-restli-id`). `failNext` makes the next post answer an error.
 */
export async function startFakeLinkedIn(options: { token: string; version?: string }) {
  const requests: FakeLinkedInRequest[] = [];
  let failures: { status: number; message: string }[] = [];
  let postSeq = 0;
  let imageSeq = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, headers: req.headers, body });
      const json = (status: number, data: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(data === undefined ? '' : JSON.stringify(data));
      };
      if (req.headers.authorization !== `Bearer ${options.token}`) return json(401, { status: 401, message: 'Invalid access token' });
      if (req.method === 'PUT' && url.pathname.startsWith('/upload/')) return json(201, undefined);
      if (req.headers['x-restli-protocol-version'] !== '2.0.0') return json(400, { status: 400, message: 'X-Restli-Protocol-Version 2.0.0 is required' });
      if (!/^\d{6}$/.test(String(req.headers['linkedin-version'] ?? '')) || (options.version && req.headers['linkedin-version'] !== options.version)) {
        return json(426, { status: 426, message: 'Requested version is not active' });
      }
      if (req.method === 'POST' && url.pathname === '/rest/images' && url.searchParams.get('action') === 'initializeUpload') {
        imageSeq += 1;
        const { port } = server.address() as AddressInfo;
        return json(200, { value: { uploadUrl: `http://127.0.0.1:${port}/upload/${imageSeq}`, image: `urn:li:image:C4E${imageSeq}`, uploadUrlExpiresAt: Date.now() + 3600_000 } });
      }
      if (req.method === 'POST' && url.pathname === '/rest/posts') {
        const failure = failures.shift();
        if (failure) return json(failure.status, { status: failure.status, message: failure.message });
        let post: { author?: unknown; commentary?: unknown; lifecycleState?: unknown };
        try {
          post = JSON.parse(body.toString('utf8')) as typeof post;
        } catch {
          return json(400, { status: 400, message: 'Malformed JSON' });
        }
        if (typeof post.author !== 'string' || typeof post.commentary !== 'string' || post.lifecycleState !== 'PUBLISHED') {
          return json(422, { status: 422, message: 'author, commentary and lifecycleState are required' });
        }
        postSeq += 1;
        return json(201, undefined, { 'x-restli-id': `urn:li:share:70000000000000${postSeq}` });
      }
      return json(404, { status: 404, message: `No route ${req.method} ${url.pathname}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    posts: () => requests.filter((r) => r.method === 'POST' && r.path === '/rest/posts').map((r) => JSON.parse(r.body.toString('utf8')) as Record<string, unknown>),
    failNext(status: number, message: string) {
      failures.push({ status, message });
    },
    reset() {
      requests.length = 0;
      failures = [];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
