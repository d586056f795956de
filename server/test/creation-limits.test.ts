import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import { configFromEnv, defaultConfig } from '../config';
import { openHarness, testClock, type TestApp } from './harness';

/** How many conversations and share links one identity may start: a person never meets the limits, a script does. */

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
type Headers = Record<string, string>;

const create = async (t: TestApp, who: Headers, sourceId = 'SpecialNoAgentFallback') => {
  const reply = await t.post(endpoints.conversationCreate.path, { sourceId }, who);
  return { status: reply.status, retryAfter: reply.headers.get('retry-after'), body: reply.body };
};
const share = async (t: TestApp, who: Headers, conversationId: string) => {
  const reply = await t.post(endpoints.shareCreate.path, { conversationId, showOwnerName: false }, who);
  return { status: reply.status, retryAfter: reply.headers.get('retry-after'), body: reply.body };
};

describe('new conversations', () => {
  it('are 30 a minute for a visitor by default, then 429 with Retry-After and the envelope, and again after the minute', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    for (let i = 0; i < 30; i++) expect((await create(t, visitor)).status).toBe(200);
    t.clock.advance(15_000);
    const refused = await create(t, visitor);
    expect(refused).toEqual({
      status: 429,
      retryAfter: '45',
      body: { code: 1, success: false, data: null, msg: 'You have reached the limit of 30 new conversations a minute for a visitor. Please wait 45 seconds and try again.' },
    });
    // Another visitor is not held back by the first.
    expect((await create(t, h.visitor())).status).toBe(200);
    t.clock.advance(45_000);
    expect((await create(t, visitor)).status).toBe(200);
  });

  it('hold an account to its day however the conversations are spread, on every instance together', async () => {
    const config = { userQuotas: { ...defaultConfig.userQuotas, conversationsPerDay: 5 } };
    const clock = testClock();
    const a = h.makeApp({ config, clock });
    const b = h.makeApp({ config, clock });
    const account = await h.loggedIn(a);
    for (let i = 0; i < 5; i++) {
      expect((await create(i % 2 === 0 ? a : b, account.headers)).status).toBe(200);
      clock.advance(10 * MINUTE);
    }
    const refused = await create(b, account.headers);
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^You have reached the limit of 5 new conversations a day for a signed-in user\./);
    expect(Number(refused.retryAfter)).toBe((DAY - 50 * MINUTE) / 1000);
  });

  it('count what visitors from one address start together, whatever ids they make up', async () => {
    const t = h.makeApp({ config: { addressQuotas: { ...defaultConfig.addressQuotas, conversationsPerMinute: 4 } } });
    for (let i = 0; i < 4; i++) expect((await create(t, h.visitor())).status).toBe(200);
    const refused = await create(t, h.visitor());
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/4 new conversations a minute from one address/);
  });

  it('refused for a reason of their own (an unknown agent) cost nothing', async () => {
    const t = h.makeApp({ config: { visitorQuotas: { ...defaultConfig.visitorQuotas, conversationsPerMinute: 2 } } });
    const visitor = h.visitor();
    for (let i = 0; i < 3; i++) expect((await create(t, visitor, 'no-such-agent')).status).not.toBe(200);
    expect((await create(t, visitor)).status).toBe(200);
    expect((await create(t, visitor)).status).toBe(200);
    expect((await create(t, visitor)).status).toBe(429);
  });
});

describe('new share links', () => {
  it('are 20 a minute and 200 a day for an account by default, then 429 with Retry-After', async () => {
    const t = h.makeApp();
    const account = await h.loggedIn(t);
    const conversationId = (await create(t, account.headers)).body.data.conversationId as string;
    for (let i = 0; i < 20; i++) expect((await share(t, account.headers, conversationId)).status).toBe(200);
    const refused = await share(t, account.headers, conversationId);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('60');
    expect(refused.body.msg).toBe('You have reached the limit of 20 new share links a minute for a signed-in user. Please wait 60 seconds and try again.');
    // The refused link was not made.
    expect((await t.post(endpoints.shareList.path, { conversationId }, account.headers)).body.data).toHaveLength(20);

    const daily = h.makeApp({ config: { userQuotas: { ...defaultConfig.userQuotas, sharesPerDay: 3 } } });
    const other = await h.loggedIn(daily);
    const theirs = (await create(daily, other.headers)).body.data.conversationId as string;
    for (let i = 0; i < 3; i++) {
      expect((await share(daily, other.headers, theirs)).status).toBe(200);
      daily.clock.advance(2 * MINUTE);
    }
    expect((await share(daily, other.headers, theirs)).status).toBe(429);
  });
});

describe('the limits', () => {
  it('are set from the environment like the other quotas', () => {
    const config = configFromEnv({
      VISITOR_CONVERSATIONS_PER_MINUTE: '3',
      USER_CONVERSATIONS_PER_DAY: '40',
      USER_SHARES_PER_MINUTE: '2',
      USER_SHARES_PER_DAY: '9',
      ADDRESS_CONVERSATIONS_PER_MINUTE: '7',
    });
    expect(config.visitorQuotas).toMatchObject({ conversationsPerMinute: 3, conversationsPerDay: 500 });
    expect(config.userQuotas).toMatchObject({ conversationsPerMinute: 30, conversationsPerDay: 40, sharesPerMinute: 2, sharesPerDay: 9 });
    expect(config.addressQuotas).toMatchObject({ conversationsPerMinute: 7, conversationsPerDay: 1000 });
  });
});
