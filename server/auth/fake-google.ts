import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '../http/escape-html';
import { pngOf } from '../test/png';
import type { GoogleConfig } from './google';

/** A Google account as OpenID Connect's user info describes it. */
export type FakeGoogleUser = { sub: string; email?: string; email_verified?: boolean; name: string; picture: string };


const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => resolve(raw));
  });

/**
 * A local fake of Google's OAuth on 127.0.0.1 for tests, speaking Google's wire format: the
 * consent page (one "continue" link per account, and "cancel"), the token exchange and the
 * OpenID Connect user info. It checks the client and the redirect URI as Google does.
 */
export async function startFakeGoogle(options: { clientId: string; clientSecret: string; redirectUri: string; users: FakeGoogleUser[] }) {
  const codes = new Map<string, FakeGoogleUser>();
  const accessTokens = new Map<string, FakeGoogleUser>();
  const calls: Record<string, number> = {};
  let serial = 0;
  const state = { broken: false };

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const issueCode = (user: FakeGoogleUser): string => {
    const code = `4/fake-${++serial}`;
    codes.set(code, user);
    return code;
  };

  const consentPage = (url: URL, res: ServerResponse) => {
    const q = (name: string) => url.searchParams.get(name) ?? '';
    if (q('client_id') !== options.clientId || q('redirect_uri') !== options.redirectUri || q('response_type') !== 'code') {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Error 400</title><h1>Error 400: redirect_uri_mismatch</h1>');
      return;
    }
    const back = (params: Record<string, string>) => {
      const target = new URL(options.redirectUri);
      for (const [key, value] of Object.entries({ ...params, state: q('state') })) target.searchParams.set(key, value);
      return escapeHtml(target.href);
    };
    const accounts = options.users
      .map((user) => `<li><a href="${back({ code: issueCode(user), scope: q('scope') })}">Continue as ${escapeHtml(user.name)}</a></li>`)
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html lang="en"><title>Sign in – Google Accounts</title><h1>Choose an account</h1><ul>${accounts}</ul>` +
        `<a href="${back({ error: 'access_denied' })}">Cancel</a></html>`,
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    calls[url.pathname] = (calls[url.pathname] ?? 0) + 1;
    if (state.broken) return json(res, 503, { error: 'backend_error' });
    if (url.pathname === '/authorize' && req.method === 'GET') return consentPage(url, res);
    if (url.pathname === '/picture.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(pngOf(8, [66, 133, 244]));
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      if (form.get('client_id') !== options.clientId || form.get('client_secret') !== options.clientSecret) {
        return json(res, 401, { error: 'invalid_client' });
      }
      const user = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!user || form.get('grant_type') !== 'authorization_code' || form.get('redirect_uri') !== options.redirectUri) {
        return json(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      }
      const token = `ya29.fake-${++serial}`;
      accessTokens.set(token, user);
      return json(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer', scope: 'openid email profile', id_token: 'unused' });
    }
    if (url.pathname === '/userinfo' && req.method === 'GET') {
      const user = accessTokens.get(req.headers.authorization?.replace(/^Bearer /, '') ?? '');
      return user ? json(res, 200, user) : json(res, 401, { error: 'invalid_token' });
    }
    res.writeHead(404);
    res.end();
  };

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config: GoogleConfig = {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    redirectUri: options.redirectUri,
    authorizeEndpoint: `${base}/authorize`,
    tokenEndpoint: `${base}/token`,
    userInfoEndpoint: `${base}/userinfo`,
  };
  return {
    url: base,
    /** A profile picture this fake serves (a small PNG), as Google's picture URLs do. */
    pictureUrl: `${base}/picture.png`,
    /** The server's Google configuration pointed at this fake. */
    config,
    calls,
    state,
    /** What Google does when the person picks an account on the consent page. */
    issueCode,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type FakeGoogle = Awaited<ReturnType<typeof startFakeGoogle>>;
