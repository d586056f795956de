import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import { providerTokens } from '../db/schema';
import { openHarness, type TestApp } from '../test/harness';
import { openSharedTestDb } from '../test/test-db';
import { startFakeWechatApi } from '../wechat/fake-wechat-api';
import { INVALID_CODE_MSG } from '../wechat/provider';
import { jsapiSignature } from '../wechat/signature';
import { SIMULATOR_AUTHORIZE_PATH } from '../wechat/simulator';

/**
 * Two server instances on one database, as behind a load balancer: each app has its own memory
 * and, on PostgreSQL (the PostgreSQL suite), its own connection pool. Whatever one instance
 * counts, issues or fetches, the other must see.
 */

let shared: Awaited<ReturnType<typeof openSharedTestDb>>;
let h: Awaited<ReturnType<typeof openHarness>>;
let fake: Awaited<ReturnType<typeof startFakeWechatApi>>;
const WECHAT = { appId: 'wxclusterapp00001', appSecret: 'secret-of-the-cluster-app' };
beforeAll(async () => {
  shared = await openSharedTestDb();
  h = await openHarness(shared);
  fake = await startFakeWechatApi(WECHAT);
});
afterAll(async () => {
  await fake.close();
  await shared.close();
});

const loginAs = (t: TestApp, username: string, password: string) =>
  t.raw(endpoints.login.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });

describe('two instances on one database', () => {
  it('enforce one login limit: failures through A and through B add up', async () => {
    const a = h.makeApp({ instance: 'a' });
    const b = h.makeApp({ instance: 'b', address: a.address, clock: a.clock });
    const { username, password } = await h.newUser();
    // 5 failures allowed per account and address: 3 through A, 2 through B use them up.
    for (const t of [a, b, a, b, a]) expect((await loginAs(t, username, 'wrong')).status).toBe(401);
    expect((await loginAs(b, username, 'wrong')).status).toBe(429);
    expect((await loginAs(a, username, password)).status).toBe(429);
    // A burst split over both: still exactly the limit in all.
    const { username: other } = await h.newUser();
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => loginAs(i % 2 ? a : b, other, `wrong-${i}`)));
    expect(burst.filter((response) => response.status === 401)).toHaveLength(5);
  });

  it('accept a WeChat simulator code issued by the other, once', async () => {
    const a = h.makeApp({ instance: 'a' });
    const b = h.makeApp({ instance: 'b' });
    const origin = 'http://localhost';
    const consent = await a.raw(SIMULATOR_AUTHORIZE_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({ redirect_uri: `${origin}/login`, state: 's1', name: 'Cluster Lin' }).toString(),
    });
    expect(consent.status).toBe(303);
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const signedIn = await b.get('/api/system/auth/wx-login', { code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.userInfo).toMatchObject({ nickname: 'Cluster Lin' });
    const again = await a.get('/api/system/auth/wx-login', { code });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe(INVALID_CODE_MSG);
  });

  it('sign WeChat JS-SDK configs with the same simulator ticket', async () => {
    const url = 'http://localhost/chat';
    const a = h.makeApp({ instance: 'a' });
    const b = h.makeApp({ instance: 'b', clock: a.clock });
    const [fromA, fromB] = await Promise.all([a.get('/api/system/openapi/wx/config', { url }), b.get('/api/system/openapi/wx/config', { url })]);
    expect(fromA.status).toBe(200);
    // Same nonce and time give the same signature only with the same ticket.
    const ticketOf = async () => (await shared.a.db.select().from(providerTokens)).find((row) => row.key === 'wechat-simulator:jsapi-ticket')!.value;
    const ticket = await ticketOf();
    for (const reply of [fromA, fromB]) {
      const { nonceStr, timestamp, signature } = reply.body.data;
      expect(signature).toBe(jsapiSignature({ ticket, nonceStr, timestamp, url }));
    }
  });

  it("fetch WeChat's access token and jsapi ticket once for all concurrent callers, and renew a stale token once", async () => {
    await shared.a.db.delete(providerTokens);
    const official = { wechat: { mode: 'official' as const, ...WECHAT, apiBase: fake.url } };
    const a = h.makeApp({ instance: 'a', config: official });
    const b = h.makeApp({ instance: 'b', config: official, clock: a.clock });
    const url = 'https://chat.example.com/';
    for (const key of Object.keys(fake.calls)) delete fake.calls[key];
    const replies = await Promise.all([a, b, a, b, a, b].map((t) => t.get('/api/system/openapi/wx/config', { url })));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // WeChat keeps only the newest token: a second fetch would revoke the first instance's.
    expect(fake.calls).toEqual({ 'cgi-bin/token': 1, 'cgi-bin/ticket/getticket': 1 });

    // Both expired; WeChat says the token is stale once: A renews it, B then uses what A stored.
    a.clock.advance(7200 * 1000);
    fake.state.staleTokenAnswers = 1;
    const renewed = await a.get('/api/system/openapi/wx/config', { url });
    expect(renewed.status).toBe(200);
    expect(fake.calls).toEqual({ 'cgi-bin/token': 3, 'cgi-bin/ticket/getticket': 3 });
    expect((await b.get('/api/system/openapi/wx/config', { url })).status).toBe(200);
    expect(fake.calls).toEqual({ 'cgi-bin/token': 3, 'cgi-bin/ticket/getticket': 3 });
  });
});
