import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGoogle, type FakeGoogle } from '../auth/fake-google';
import { googleIdentities, users } from '../db/schema';
import { AVATAR_NOT_OWN_IMAGE } from '../services/users';
import { startFakeWechatApi } from '../wechat/fake-wechat-api';
import { startCanary, type Canary } from './canary';
import { openHarness, type TestApp } from './harness';
import { pngOf } from './png';

const UPDATE = '/api/system/user/update';
const LOGIN = '/api/system/auth/login';
const WX_LOGIN = '/api/system/auth/wx-login';
const WECHAT_APP = { appId: 'wxcanary000000000', appSecret: 'canary-app-secret' };

let h: Awaited<ReturnType<typeof openHarness>>;
let canary: Canary;
let google: FakeGoogle;
let wechat: Awaited<ReturnType<typeof startFakeWechatApi>>;
beforeAll(async () => {
  h = await openHarness();
  canary = await startCanary();
  google = await startFakeGoogle({ clientId: 'c', clientSecret: 's', redirectUri: 'https://chat.example.com/login/google', users: [] });
  wechat = await startFakeWechatApi(WECHAT_APP);
});
afterAll(async () => {
  await Promise.all([canary.close(), google.close(), wechat.close()]);
  await h.close();
});
afterEach(() => {
  // the point of every test here
  expect(canary.requests).toEqual([]);
});

/** Every way a picture address could lead this server to itself, its network or the cloud's metadata. */
const hostileAddresses = () => [
  `${canary.url}/internal`,
  `${canary.url}/p.png?token=secret`,
  `https://127.0.0.1:${canary.port}/internal`,
  `http://localhost:${canary.port}/`,
  `https://localhost:${canary.port}/`,
  `http://[::1]:${canary.port}/`,
  `http://[::ffff:127.0.0.1]:${canary.port}/`,
  `http://2130706433:${canary.port}/`,
  `http://0177.0.0.1:${canary.port}/`,
  `http://0x7f.0.0.1:${canary.port}/`,
  `http://127.1:${canary.port}/`,
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://metadata.google.internal/computeMetadata/v1/',
  `http://thirdwx.qlogo.cn@127.0.0.1:${canary.port}/`,
  `https://thirdwx.qlogo.cn.127.0.0.1.nip.io:${canary.port}/`,
];

/** Real sign-ins against local fakes of Google and WeChat, with the default (strict) picture sources. */
const strictApp = () => h.makeApp({ config: { google: google.config, wechat: { mode: 'official', ...WECHAT_APP, apiBase: wechat.url } } });

async function googleSignIn(t: TestApp, sub: string, picture: string) {
  const started = await t.post('/api/system/auth/google/authorize');
  const code = google.issueCode({ sub, name: `Person ${sub}`, picture });
  return t.post(LOGIN, { loginType: 'google-oauth', code, state: started.body.data.state });
}

async function uploadImage(t: TestApp, headers: Record<string, string>, bytes: Uint8Array = new Uint8Array(pngOf(4, [9, 9, 9]))) {
  const form = new FormData();
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], 'me.png', { type: 'image/png' }));
  return (await (await t.raw('/api/media/upload', { method: 'POST', body: form, headers })).json()).data as { url: string; kind: string };
}

describe('setting the avatar', () => {
  it('refuses any address that is not the person’s own image upload, with 400 and a sentence', async () => {
    const t = strictApp();
    const me = await h.loggedIn(t);
    const someoneElse = await h.loggedIn(t);
    const theirs = await uploadImage(t, someoneElse.headers);
    const myPage = await uploadImage(t, me.headers, new TextEncoder().encode('<html>not an image</html>'));
    const refused = [
      ...hostileAddresses(),
      'https://thirdwx.qlogo.cn/mmopen/x/132',
      'https://lh3.googleusercontent.com/a/x=s96-c',
      theirs.url,
      myPage.url,
      '/api/media/file/00000000-0000-4000-8000-000000000000',
      `/api/media/file/${theirs.url.split('/').pop()}/../x`,
      `//127.0.0.1:${canary.port}/api/media/file/x`,
      'data:image/svg+xml,<svg onload="alert(1)"/>',
      'javascript:alert(1)',
    ];
    for (const avatar of refused) {
      const reply = await t.post(UPDATE, { avatar }, me.headers);
      expect(reply.status, avatar).toBe(400);
      expect(reply.body).toMatchObject({ code: 1, msg: AVATAR_NOT_OWN_IMAGE });
    }
    expect(myPage.kind).toBe('other');
    expect((await t.get('/api/system/user/get-user-info', {}, me.headers)).body.data.avatar).toBe('');
  });

  it('accepts the person’s own image upload, no avatar, and the avatar they already have', async () => {
    const t = strictApp();
    const me = await h.loggedIn(t);
    const mine = await uploadImage(t, me.headers);
    expect((await t.post(UPDATE, { avatar: mine.url, nickname: 'Ada' }, me.headers)).body.data).toMatchObject({ avatar: mine.url, nickname: 'Ada' });
    expect((await t.post(UPDATE, { avatar: mine.url, nickname: 'Ada B' }, me.headers)).status).toBe(200);
    expect((await t.post(UPDATE, { avatar: '' }, me.headers)).body.data.avatar).toBe('');
  });

  it('makes no request at the next sign-in of an account whose avatar someone tried to point at the canary', async () => {
    const t = strictApp();
    const first = await googleSignIn(t, 'g-update-1', '');
    const headers = { authorization: `Bearer ${first.body.data.token}` };
    expect((await t.post(UPDATE, { avatar: `${canary.url}/internal` }, headers)).status).toBe(400);
    expect((await googleSignIn(t, 'g-update-1', '')).status).toBe(200);
  });

  it('makes no request for a link stored before links were refused, and drops it at the next sign-in', async () => {
    const t = strictApp();
    const first = await googleSignIn(t, 'g-legacy-1', '');
    const userId = first.body.data.userInfo.id as string;
    await h.db.update(users).set({ avatar: `${canary.url}/internal` }).where(eq(users.id, userId));
    const again = await googleSignIn(t, 'g-legacy-1', '');
    expect(again.status).toBe(200);
    expect(again.body.data.userInfo.avatar).toBe('');
  });
});

describe('a provider’s picture of a new person', () => {
  it('is never fetched from a hostile address, and the person signs in without an avatar (Google)', async () => {
    const t = strictApp();
    const addresses = hostileAddresses();
    for (const [index, picture] of addresses.entries()) {
      const reply = await googleSignIn(t, `g-hostile-${index}`, picture);
      expect(reply.status, picture).toBe(200);
      expect(reply.body.data.userInfo.avatar).toBe('');
      const [link] = await h.db.select().from(googleIdentities).where(eq(googleIdentities.sub, `g-hostile-${index}`));
      expect(link?.picture).toBe(picture);
    }
    const refusals = t.logs.filter((line) => line.startsWith('avatar: google picture'));
    expect(refusals).toHaveLength(addresses.length);
    expect(refusals.join('\n')).not.toContain('token=secret');
  });

  it('is never fetched from a hostile address, and the person signs in without an avatar (WeChat)', async () => {
    const t = strictApp();
    for (const [index, headimgurl] of hostileAddresses().entries()) {
      const person = { openid: `o-hostile-picture-${String(index).padStart(10, '0')}`, nickname: 'Hostile', headimgurl };
      const reply = await t.get(WX_LOGIN, { code: wechat.issueCode(person) });
      expect(reply.status, headimgurl).toBe(200);
      expect(reply.body.data.userInfo.avatar).toBe('');
    }
  });

  it('is not followed through a redirect from a picture host to the canary', async () => {
    const redirecting = await startCanary((_req, res) => {
      res.writeHead(302, { location: `${canary.url}/latest/meta-data/` });
      res.end();
    });
    const origin = new URL(redirecting.url).host;
    const t = h.makeApp({
      config: {
        google: google.config,
        providerPictures: { hosts: { google: [origin], wechat: [origin] }, protocols: ['http:'], allowNonPublicAddresses: true },
      },
    });
    const reply = await googleSignIn(t, 'g-redirect-1', `${redirecting.url}/photo.png`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.userInfo.avatar).toBe('');
    expect(redirecting.requests).toHaveLength(1);
    expect(t.logs).toContain(`avatar: google picture ${redirecting.url}/photo.png not imported: it answered a redirect (302), which is not followed`);
    await redirecting.close();
  });
});
