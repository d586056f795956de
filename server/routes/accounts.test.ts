import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../seed/users';
import { openHarness, type TestApp } from '../test/harness';

/** Making, joining, securing and leaving an account, as its person and as an attacker would. */

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const SIGNUP = '/api/system/auth/signup';
const LOGIN = '/api/system/auth/login';
const fresh = () => `new-${Math.random().toString(36).slice(2, 10)}@test.local`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function invitation(t: TestApp, role: 'member' | 'operator' | 'admin', companyId = 'northwind') {
  const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
  const reply = await t.post('/api/admin/invitation/create', { companyId, role, note: 'for Ada' }, admin.headers);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const token = new URL(reply.body.data.path, 'http://x').searchParams.get('invitation')!;
  return { token, id: reply.body.data.invitation.id as string, admin };
}

describe('sign-up', () => {
  it('under an open policy makes a member of no company, signed in at once, who cannot operate', async () => {
    const t = h.makeApp({ config: { signup: 'open' } });
    const username = fresh();
    const reply = await t.post(SIGNUP, { username, password: 'correct horse 1', nickname: 'Ada' });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.data.userInfo).toMatchObject({ username, nickname: 'Ada', role: 'member' });
    expect(reply.body.data.userInfo.companyId).toBeUndefined();
    const me = await t.get('/api/system/user/get-user-info', {}, bearer(reply.body.data.token));
    expect(me.body.data.username).toBe(username);
    expect((await t.get('/api/kraken/session/verify', {}, bearer(reply.body.data.token))).status).toBe(403);
    const again = await t.post(SIGNUP, { username: username.toUpperCase(), password: 'another pass 2' });
    expect(again.status).toBe(409);
  });

  it('refuses weak passwords with the rule, and says which policy refused', async () => {
    const open = h.makeApp({ config: { signup: 'open' } });
    for (const [password, rule] of [
      ['short1', 'password.tooShort'],
      ['12345678901', 'password.onlyDigits'],
    ]) {
      const reply = await open.post(SIGNUP, { username: fresh(), password });
      expect(reply.status).toBe(400);
      expect(reply.body.msg).toContain(rule);
    }
    const username = fresh();
    expect((await open.post(SIGNUP, { username, password: username })).body.msg).toContain('password.sameAsAccount');
    const invite = h.makeApp({ config: { signup: 'invite' } });
    const refused = await invite.post(SIGNUP, { username: fresh(), password: 'long enough 1' });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/invitation/);
    const closed = h.makeApp({ config: { signup: 'closed' } });
    const { token } = await invitation(closed, 'member');
    expect((await closed.post(SIGNUP, { username: fresh(), password: 'long enough 1', invitation: token })).status).toBe(403);
    expect((await closed.get('/api/system/auth/login-options')).body.data.signup).toBe('closed');
  });

  it('with an invitation joins its company with its role, once; a revoked or used link is gone', async () => {
    const t = h.makeApp({ config: { signup: 'invite' } });
    const { token, admin } = await invitation(t, 'operator');
    const preview = await t.get('/api/system/auth/invitation', { token });
    expect(preview.body.data).toMatchObject({ companyName: 'Northwind Media', role: 'operator' });
    const joined = await t.post(SIGNUP, { username: fresh(), password: 'long enough 1', invitation: token });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.data.userInfo).toMatchObject({ role: 'operator', companyId: 'northwind', companyName: 'Northwind Media' });
    expect((await t.get('/api/kraken/session/verify', {}, bearer(joined.body.data.token))).status).toBe(200);
    const reused = await t.post(SIGNUP, { username: fresh(), password: 'long enough 1', invitation: token });
    expect(reused.status).toBe(410);
    expect((await t.get('/api/system/auth/invitation', { token })).status).toBe(410);
    const second = await invitation(t, 'admin');
    expect((await t.post('/api/admin/invitation/revoke', { id: second.id }, admin.headers)).status).toBe(200);
    expect((await t.post(SIGNUP, { username: fresh(), password: 'long enough 1', invitation: second.token })).status).toBe(410);
    expect((await t.get('/api/system/auth/invitation', { token: 'A'.repeat(43) })).status).toBe(404);
  });

  it('an expired invitation is gone, and a signed-in account can accept a fresh one', async () => {
    const t = h.makeApp({ config: { signup: 'invite' } });
    const { token } = await invitation(t, 'operator');
    t.clock.advance(8 * 24 * 3600 * 1000);
    expect((await t.get('/api/system/auth/invitation', { token })).status).toBe(410);
    const person = await h.loggedIn(t);
    const fresh = await invitation(t, 'operator');
    const accepted = await t.post('/api/system/user/invitation/accept', { token: fresh.token }, person.headers);
    expect(accepted.body.data).toMatchObject({ role: 'operator', companyId: 'northwind' });
  });
});

describe('passwords', () => {
  it('a change needs the current password and signs out the account\'s other sessions', async () => {
    const t = h.makeApp();
    const me = await h.loggedIn(t);
    const other = await t.post(LOGIN, { username: me.username, password: me.password });
    const wrong = await t.post('/api/system/user/password', { currentPassword: 'not it at all', newPassword: 'a new pass 22' }, me.headers);
    expect(wrong.status).toBe(403);
    const changed = await t.post('/api/system/user/password', { currentPassword: me.password, newPassword: 'a new pass 22' }, me.headers);
    expect(changed.body.data).toEqual({ revoked: 1 });
    expect((await t.get('/api/system/user/get-user-info', {}, bearer(other.body.data.token))).status).toBe(401);
    expect((await t.get('/api/system/user/get-user-info', {}, me.headers)).status).toBe(200);
    expect((await t.post(LOGIN, { username: me.username, password: me.password })).status).toBe(401);
    expect((await t.post(LOGIN, { username: me.username, password: 'a new pass 22' })).status).toBe(200);
  });

  it('a reset link an admin issues works once, for that account, and signs it out everywhere', async () => {
    const t = h.makeApp();
    const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    const person = await h.loggedIn(t);
    const link = await t.post('/api/admin/user/reset-link', { id: person.user.id }, admin.headers);
    const token = new URL(link.body.data.path, 'http://x').searchParams.get('token')!;
    expect((await t.get('/api/system/auth/password-reset', { token })).body.data.username).toBe(person.username);
    expect((await t.post('/api/system/auth/password-reset', { token, newPassword: 'reset pass 33' })).status).toBe(200);
    expect((await t.get('/api/system/user/get-user-info', {}, person.headers)).status).toBe(401);
    expect((await t.post(LOGIN, { username: person.username, password: 'reset pass 33' })).status).toBe(200);
    expect((await t.post('/api/system/auth/password-reset', { token, newPassword: 'again pass 44' })).status).toBe(410);
    const notAdmin = await t.post('/api/admin/user/reset-link', { id: admin.user.id }, person.headers);
    expect(notAdmin.status).toBe(401);
    const member = await h.loggedIn(t, { companyId: 'kraken' });
    expect((await t.post('/api/admin/user/reset-link', { id: admin.user.id }, member.headers)).status).toBe(403);
  });

  it('asking a reset by mail tells nothing about which accounts exist', async () => {
    const t = h.makeApp();
    const known = await h.newUser();
    const a = await t.post('/api/system/auth/password-reset/mail', { username: known.username });
    const b = await t.post('/api/system/auth/password-reset/mail', { username: fresh() });
    expect(a.status).toBe(b.status);
    expect(a.body).toEqual(b.body);
  });
});

describe('leaving', () => {
  it('exports everything the account holds, then deletes it with its conversations, uploads, shares and sessions', async () => {
    const t = h.makeApp();
    const me = await h.loggedIn(t);
    const created = await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback', source: 'agent', title: 'My notes' }, me.headers);
    const conversationId = created.body.data.conversationId as string;
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'note.txt');
    const uploaded = (await (await t.raw('/api/media/upload', { method: 'POST', headers: me.headers, body: form })).json()) as { data: { fileId: string } };
    const exported = await t.get('/api/system/user/export', {}, me.headers);
    expect(exported.body.data.user.username).toBe(me.username);
    expect(exported.body.data.conversations.map((c: { title: string }) => c.title)).toContain('My notes');
    expect(exported.body.data.uploads).toEqual([expect.objectContaining({ id: uploaded.data.fileId, name: 'note.txt' })]);

    expect((await t.post('/api/system/user/delete', { confirm: 'someone-else@test.local' }, me.headers)).status).toBe(400);
    expect((await t.post('/api/system/user/delete', { confirm: me.username }, me.headers)).status).toBe(200);
    expect((await t.get('/api/system/user/get-user-info', {}, me.headers)).status).toBe(401);
    expect((await t.post(LOGIN, { username: me.username, password: me.password })).status).toBe(401);
    const rows = await h.db.execute(`select count(*)::int as n from conversations where id = '${conversationId}'` as never);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    expect(await t.storage.get(uploaded.data.fileId)).toBeNull();
  });

  it('the last admin cannot leave, nor be demoted or disabled, and no admin can demote themselves', async () => {
    const t = h.makeApp();
    await h.db.execute(`update users set role = 'member' where role = 'admin'` as never);
    const only = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    expect((await t.post('/api/system/user/delete', { confirm: only.username }, only.headers)).status).toBe(409);
    const self = await t.post('/api/admin/user/update', { id: only.user.id, role: 'member' }, only.headers);
    expect(self.status).toBe(409);
    const second = await createUser(h.db, t.clock, { username: fresh(), password: 'second pass 1', role: 'admin', companyId: 'kraken' });
    expect((await t.post('/api/admin/user/update', { id: second.id, disabled: true }, only.headers)).status).toBe(200);
    expect((await t.post('/api/system/user/delete', { confirm: only.username }, only.headers)).status).toBe(409);
  });
});

describe('a reset link by mail', () => {
  it('goes to an e-mail account that exists, in the asker\'s language, leads to this site and works once; other asks send nothing and answer the same', async () => {
    const { SMTPServer } = await import('smtp-server');
    const received: { to: string; text: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    const { createMailer } = await import('../mail/mailer');
    const mailer = createMailer({ url: `smtp://127.0.0.1:${port}`, from: 'no-reply@chat.example.com', publicUrl: 'https://chat.example.com' });
    try {
      const t = h.makeApp({ mailer });
      expect((await t.get('/api/system/auth/login-options')).body.data.resetByMail).toBe(true);
      const person = await h.loggedIn(t);
      const asked = await t.post('/api/system/auth/password-reset/mail', { username: person.username }, { 'accept-language': 'fr-FR,fr;q=0.9' });
      const unknown = await t.post('/api/system/auth/password-reset/mail', { username: fresh() }, { host: 'evil.example' });
      expect(asked.body).toEqual(unknown.body);
      await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
      const [mail] = received;
      expect(mail!.to).toBe(person.username);
      const unfolded = mail!.text.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      expect(unfolded).toContain('valable une fois'); // in the asker's language
      const token = /https:\/\/chat\.example\.com\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(unfolded)?.[1];
      expect(token).toBeDefined();
      expect((await t.post('/api/system/auth/password-reset', { token, newPassword: 'mailed pass 55' })).status).toBe(200);
      expect((await t.post('/api/system/auth/password-reset', { token, newPassword: 'mailed pass 66' })).status).toBe(410);
      expect((await t.post(LOGIN, { username: person.username, password: 'mailed pass 55' })).status).toBe(200);
      for (let i = 0; i < 4; i += 1) await t.post('/api/system/auth/password-reset/mail', { username: person.username });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(received.length).toBeLessThanOrEqual(3);
    } finally {
      mailer.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('needs PUBLIC_URL with SMTP_URL, so no link follows a forged Host', async () => {
    const { mailSettingsFromEnv } = await import('../mail/mailer');
    expect(mailSettingsFromEnv({})).toBeNull();
    expect(() => mailSettingsFromEnv({ SMTP_URL: 'smtp://mail.example.com:587' })).toThrow(/PUBLIC_URL/);
    expect(mailSettingsFromEnv({ SMTP_URL: 'smtp://mail.example.com:587', PUBLIC_URL: 'https://chat.example.com/' })).toEqual({
      url: 'smtp://mail.example.com:587',
      from: 'no-reply@chat.example.com',
      publicUrl: 'https://chat.example.com',
    });
  });
});

describe('organisations', () => {
  it('an admin adds one, whose name is its own (409 for a taken name, in any case)', async () => {
    const t = h.makeApp();
    const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    const made = await t.post('/api/admin/organisation/create', { name: 'Acme Studio' }, admin.headers);
    expect(made.body.data).toMatchObject({ name: 'Acme Studio', members: 0 });
    expect((await t.post('/api/admin/organisation/create', { name: 'acme studio' }, admin.headers)).status).toBe(409);
    const listed = await t.get('/api/admin/organisation/list', {}, admin.headers);
    expect(listed.body.data.map((o: { name: string }) => o.name)).toContain('Acme Studio');
  });
});
