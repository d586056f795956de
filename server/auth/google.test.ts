import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness } from '../test/harness';
import { createGoogleConnector, GOOGLE_NOT_A_PASSWORD, GOOGLE_NOT_CONFIGURED, googleConfigFromEnv, type GoogleConfig } from './google';

const LOGIN = '/api/system/auth/login';
const ENV = { GOOGLE_CLIENT_ID: 'client-1', GOOGLE_CLIENT_SECRET: 'shh', GOOGLE_REDIRECT_URI: 'https://chat.example.com/auth/google' };

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

describe('google-oauth login', () => {
  it('is refused clearly when no Google client is configured', async () => {
    const t = h.makeApp();
    const reply = await t.post(LOGIN, { username: 'ada@example.com', password: 'whatever', loginType: 'google-oauth' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ code: 1, msg: GOOGLE_NOT_CONFIGURED, data: null, success: false });
  });

  it('is pointed to Google’s page when configured: it never takes a password', async () => {
    const t = h.makeApp({ config: { google: googleConfigFromEnv(ENV) } });
    const reply = await t.post(LOGIN, { username: 'ada@example.com', password: 'whatever', loginType: 'google-oauth' });
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toBe(GOOGLE_NOT_A_PASSWORD);
  });

  it('reads its configuration from the environment, all three or none', () => {
    expect(googleConfigFromEnv({})).toBeNull();
    expect(googleConfigFromEnv(ENV)).toMatchObject({ clientId: 'client-1', redirectUri: ENV.GOOGLE_REDIRECT_URI });
    expect(() => googleConfigFromEnv({ GOOGLE_CLIENT_ID: 'x' })).toThrow(/together/);
    expect(() => googleConfigFromEnv({ ...ENV, GOOGLE_REDIRECT_URI: 'not a url' })).toThrow(/absolute URL/);
  });
});

describe('the Google OAuth connector (against a local fake of Google)', () => {
  let base = '';
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/token' && req.method === 'POST') {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        const good = form.get('code') === 'good-code' && form.get('client_secret') === 'shh' && form.get('grant_type') === 'authorization_code';
        send(good ? 200 : 400, good ? { access_token: 'g-at', token_type: 'Bearer' } : { error: 'invalid_grant' });
      });
      return;
    }
    if (req.url === '/userinfo') {
      return req.headers.authorization === 'Bearer g-at'
        ? send(200, { sub: '1234', email: 'ada@gmail.example', name: 'Ada', picture: 'https://lh3.example/a.png' })
        : send(401, { error: 'invalid_token' });
    }
    send(404, {});
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const config = (): GoogleConfig => ({
    ...googleConfigFromEnv(ENV)!,
    tokenEndpoint: `${base}/token`,
    userInfoEndpoint: `${base}/userinfo`,
  });

  it('builds the authorisation URL and exchanges a code for the profile', async () => {
    const google = createGoogleConnector(config());
    const url = new URL(google.authorizationUrl('st-1'));
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-1',
      redirect_uri: ENV.GOOGLE_REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      state: 'st-1',
    });
    await expect(google.profileForCode('good-code')).resolves.toEqual({
      sub: '1234',
      email: 'ada@gmail.example',
      name: 'Ada',
      picture: 'https://lh3.example/a.png',
    });
    await expect(google.profileForCode('bad-code')).rejects.toMatchObject({ status: 400 });
  });
});
