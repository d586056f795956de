import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, type TestApp } from '../test/harness';
import { eq } from 'drizzle-orm';
import { scanTickets, sessions } from '../db/schema';
import { COLLECT_GRACE_MS, SCAN_DECIDED_MSG, SCAN_DENIED_MSG, SCAN_EXPIRED_MSG } from './scan-tickets';

const REGISTER = '/api/system/open-visit/user/wx/register-login';
const VALIDATE = '/api/system/open-visit/user/wx/validate-login';
const BY_SCAN_ID = '/api/system/auth/wx-login-by-scanid';
const CONFIRM = '/api/system/user/update-scanid';
const DENY = '/api/system/user/deny-scanid';
const DETAILS = '/api/system/user/scan-ticket';
const PHONE_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ME = '/api/system/user/get-user-info';
const CONVERSATIONS = '/api/workflow/agent-im/conversation';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

/** The waiting browser: its secret fingerprint and the ticket it opened. */
const openTicket = async (t: TestApp, headers: Record<string, string> = {}) => {
  const fingerPrint = randomUUID();
  const reply = await t.get(REGISTER, { fingerPrint }, headers);
  expect(reply.status).toBe(200);
  return { fingerPrint, id: reply.body.data.id as string, expiresAt: reply.body.data.expiresAt as string };
};

describe('scan login', () => {
  it('waits, is confirmed by a signed-in user, answers the token once, then says expired', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t);
    expect(Date.parse(ticket.expiresAt) - t.clock.now().getTime()).toBe(3 * 60 * 1000);
    expect(ticket.id).toMatch(/^[A-Za-z0-9_-]{32}$/);

    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data).toEqual({ status: 'waiting' });
    const phone = await h.loggedIn(t, { nickname: 'Phone user' });
    expect((await t.post(CONFIRM, { scanid: ticket.id }, phone.headers)).status).toBe(200);

    const confirmed = await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint });
    expect(confirmed.body.data).toMatchObject({ status: 'confirmed', userInfo: { id: phone.user.id, nickname: 'Phone user' } });
    const me = await t.get(ME, {}, { authorization: `Bearer ${confirmed.body.data.token}` });
    expect(me.body.data.id).toBe(phone.user.id);

    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data).toEqual({ status: 'expired' });
    expect((await t.post(CONFIRM, { scanid: ticket.id }, phone.headers)).body).toMatchObject({ code: 1, msg: SCAN_DECIDED_MSG });
  });

  it('answers only the browser that opened the ticket: the id in the QR code is not enough', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t);
    const phone = await h.loggedIn(t);
    await t.post(CONFIRM, { scanid: ticket.id }, phone.headers);
    for (const path of [VALIDATE, BY_SCAN_ID]) {
      const body = path === VALIDATE ? { id: ticket.id, fingerPrint: randomUUID() } : { scanid: ticket.id, fingerPrint: randomUUID() };
      const reply = await t.post(path, body);
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ code: 1, msg: 'Scan id not found' });
    }
    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data.status).toBe('confirmed');
  });

  it('expires after three minutes by the server clock', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t);
    t.clock.advance(3 * 60 * 1000 - 1);
    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data.status).toBe('waiting');
    t.clock.advance(1);
    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data.status).toBe('expired');
    const phone = await h.loggedIn(t);
    const late = await t.post(CONFIRM, { scanid: ticket.id }, phone.headers);
    expect(late.status).toBe(410);
    expect(late.body).toMatchObject({ code: 1, msg: SCAN_EXPIRED_MSG });
  });

  it('still hands over a confirmation that came just before the expiry, within the grace period', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t);
    const phone = await h.loggedIn(t);
    t.clock.advance(3 * 60 * 1000 - 500);
    await t.post(CONFIRM, { scanid: ticket.id }, phone.headers);
    t.clock.advance(COLLECT_GRACE_MS - 1000);
    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data.status).toBe('confirmed');

    const late = await openTicket(t);
    await t.post(CONFIRM, { scanid: late.id }, phone.headers);
    t.clock.advance(3 * 60 * 1000 + COLLECT_GRACE_MS);
    expect((await t.post(VALIDATE, { id: late.id, fingerPrint: late.fingerPrint })).body.data.status).toBe('expired');
  });

  it('logs in by scan id once the ticket is confirmed, once, and hands the waiting visitor’s chats over', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversation = await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' }, visitor);
    const ticket = await openTicket(t);
    const early = await t.post(BY_SCAN_ID, { scanid: ticket.id, fingerPrint: ticket.fingerPrint }, visitor);
    expect(early.status).toBe(409);
    expect(early.body.msg).toBe('The scan code has not been confirmed yet.');

    const phone = await h.loggedIn(t);
    await t.post(CONFIRM, { scanid: ticket.id }, phone.headers);
    const login = await t.post(BY_SCAN_ID, { scanid: ticket.id, fingerPrint: ticket.fingerPrint }, visitor);
    expect(login.status).toBe(200);
    expect(login.body.data.userInfo.id).toBe(phone.user.id);
    const list = await t.post(CONVERSATIONS, {}, { authorization: `Bearer ${login.body.data.token}` });
    expect(list.body.data.list.map((item: { conversationId: string }) => item.conversationId)).toContain(
      conversation.body.data.conversationId,
    );

    expect((await t.post(BY_SCAN_ID, { scanid: ticket.id, fingerPrint: ticket.fingerPrint })).status).toBe(404);
    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data.status).toBe('expired');
  });

  it('limits how many tickets one address opens per minute', async () => {
    const t = h.makeApp({ config: { scanTicketsPerMinute: 3 } });
    for (let i = 0; i < 3; i += 1) expect((await t.get(REGISTER, { fingerPrint: randomUUID() })).status).toBe(200);
    const refused = await t.get(REGISTER, { fingerPrint: randomUUID() });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 1, msg: 'Too many scan codes requested. Please wait 60 seconds and try again.' });
    t.clock.advance(60 * 1000);
    expect((await t.get(REGISTER, { fingerPrint: randomUUID() })).status).toBe(200);
  });

  it('counts the tickets of one IPv6 /64 together, yet shows the approver the full address that asked', async () => {
    const config = { scanTicketsPerMinute: 2 };
    const first = h.makeApp({ config, address: '2001:db8:5ca9:1::1' });
    const sameHost = h.makeApp({ config, clock: first.clock, address: '2001:db8:5ca9:1:aaaa:bbbb:cccc:dddd' });
    await openTicket(first);
    const ticket = await openTicket(sameHost);
    const refused = await first.get(REGISTER, { fingerPrint: randomUUID() });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe('Too many scan codes requested. Please wait 60 seconds and try again.');
    await openTicket(h.makeApp({ config, clock: first.clock, address: '2001:db8:5ca9:2::1' }));

    const phone = await h.loggedIn(first);
    const details = await first.get(DETAILS, { scanid: ticket.id }, phone.headers);
    expect(details.body.data.address).toBe('2001:db8:5ca9:1:aaaa:bbbb:cccc:dddd');
  });

  it('refuses bad input with 400 and a clear message', async () => {
    const t = h.makeApp();
    const cases: [string, () => ReturnType<TestApp['get']>][] = [
      ['no fingerprint', () => t.get(REGISTER, {})],
      ['a short fingerprint', () => t.get(REGISTER, { fingerPrint: 'abc' })],
      ['a fingerprint with spaces', () => t.get(REGISTER, { fingerPrint: 'a b c d e f g h i j k l' })],
      ['no id', () => t.post(VALIDATE, { fingerPrint: randomUUID() })],
      ['no fingerprint when polling', () => t.post(VALIDATE, { id: 'x' })],
      ['a number id', () => t.post(VALIDATE, { id: 5, fingerPrint: randomUUID() })],
      ['malformed JSON', () => t.post(VALIDATE, '{"id":')],
      ['no scanid', () => t.post(BY_SCAN_ID, { fingerPrint: randomUUID() })],
    ];
    for (const [label, send] of cases) {
      const reply = await send();
      expect(reply.status, label).toBe(400);
      expect(reply.body.code, label).toBe(1);
      expect(reply.body.msg, label).toMatch(/^Invalid request/);
    }
    expect((await t.post(VALIDATE, { id: 'unknown', fingerPrint: randomUUID() })).status).toBe(404);
  });

  it('needs a signed-in user to confirm', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t);
    expect((await t.post(CONFIRM, { scanid: ticket.id })).status).toBe(401);
    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data.status).toBe('waiting');
  });

  it('shows the person asked to approve which browser asks, from where and until when, without deciding anything', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t, { 'user-agent': PHONE_UA });
    const phone = await h.loggedIn(t);
    const details = await t.get(DETAILS, { scanid: ticket.id }, phone.headers);
    expect(details.status).toBe(200);
    expect(details.body.data).toEqual({
      status: 'waiting',
      device: { browser: 'Chrome 131', os: 'Windows' },
      address: expect.any(String),
      createdAt: t.clock.now().toISOString(),
      expiresAt: ticket.expiresAt,
    });
    // Looking is not approving: the waiting browser still waits.
    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data).toEqual({ status: 'waiting' });
    expect((await t.get(DETAILS, { scanid: ticket.id })).status).toBe(401);
    expect((await t.get(DETAILS, { scanid: 'unknown-ticket' }, phone.headers)).status).toBe(404);
    t.clock.advance(3 * 60 * 1000);
    expect((await t.get(DETAILS, { scanid: ticket.id }, phone.headers)).body.data.status).toBe('expired');
  });

  it('records who approved which ticket, from which session, and when', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t);
    const phone = await h.loggedIn(t);
    t.clock.advance(5000);
    expect((await t.post(CONFIRM, { scanid: ticket.id }, phone.headers)).status).toBe(200);
    const [row] = await h.db.select().from(scanTickets).where(eq(scanTickets.id, ticket.id));
    const [session] = await h.db.select().from(sessions).where(eq(sessions.userId, phone.user.id));
    expect(row).toMatchObject({ status: 'confirmed', userId: phone.user.id, decidedBySession: session!.id, decidedAt: t.clock.now() });
    expect(t.logs.some((line) => line.includes(`scan login approved by user ${phone.user.id}`))).toBe(true);
    for (const secret of [session!.id, ticket.id, ticket.fingerPrint]) expect(t.lines.join('\n')).not.toContain(secret);
    expect((await t.get(DETAILS, { scanid: ticket.id }, phone.headers)).body.data.status).toBe('approved');
    // Someone else who has the link learns nothing of the decision.
    const other = await h.loggedIn(t);
    expect((await t.get(DETAILS, { scanid: ticket.id }, other.headers)).body.data.status).toBe('expired');
  });

  it('Deny tells the waiting browser it was declined, and it can never be approved after', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t);
    const phone = await h.loggedIn(t);
    expect((await t.post(DENY, { scanid: ticket.id }, phone.headers)).status).toBe(200);
    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data).toEqual({ status: 'denied' });
    const byScanId = await t.post(BY_SCAN_ID, { scanid: ticket.id, fingerPrint: ticket.fingerPrint });
    expect(byScanId.status).toBe(403);
    expect(byScanId.body.msg).toBe(SCAN_DENIED_MSG);
    expect((await t.post(CONFIRM, { scanid: ticket.id }, phone.headers)).status).toBe(409);
    const other = await h.loggedIn(t);
    expect((await t.post(CONFIRM, { scanid: ticket.id }, other.headers)).status).toBe(409);
    expect((await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint })).body.data.status).toBe('denied');
    expect((await t.get(DETAILS, { scanid: ticket.id }, phone.headers)).body.data.status).toBe('denied');
    const [row] = await h.db.select().from(scanTickets).where(eq(scanTickets.id, ticket.id));
    expect(row).toMatchObject({ status: 'denied', userId: phone.user.id });
    expect(row!.decidedBySession).toEqual(expect.any(String));
  });

  it('says an expired ticket expired, on approve and on deny', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t);
    const phone = await h.loggedIn(t);
    t.clock.advance(3 * 60 * 1000);
    for (const path of [CONFIRM, DENY]) {
      const reply = await t.post(path, { scanid: ticket.id }, phone.headers);
      expect(reply.status).toBe(410);
      expect(reply.body.msg).toBe(SCAN_EXPIRED_MSG);
    }
  });

  it('signs the waiting browser in as a scan session with its own browser and address', async () => {
    const t = h.makeApp();
    const ticket = await openTicket(t, { 'user-agent': PHONE_UA });
    const phone = await h.loggedIn(t);
    await t.post(CONFIRM, { scanid: ticket.id }, phone.headers);
    const login = await t.post(VALIDATE, { id: ticket.id, fingerPrint: ticket.fingerPrint }, { 'user-agent': PHONE_UA });
    const list = await t.get('/api/system/user/sessions', {}, { authorization: `Bearer ${login.body.data.token}` });
    const current = list.body.data.find((session: { current: boolean }) => session.current);
    expect(current).toMatchObject({ method: 'scan', device: { browser: 'Chrome 131', os: 'Windows' } });
  });
});
