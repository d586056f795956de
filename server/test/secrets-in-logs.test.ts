import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../mail/mailer';
import { openHarness } from './harness';

/**
 * A full run at LOG_LEVEL=debug of every call that makes or carries a secret, each secret then
 * looked for in every line the server wrote: none may be there, whoever wrote the line.
 */

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const queryOf = (path: string, name: string) => new URL(path, 'http://x').searchParams.get(name)!;

describe('the log of a full run at debug level', () => {
  it('holds no share token, scan id, fingerprint, session token or id, reset or invitation link, OAuth code or state', async () => {
    const secrets = new Map<string, string>();
    const keep = (what: string, value: string) => {
      expect(value, what).toBeTruthy();
      secrets.set(what, value);
      return value;
    };
    // A mail server that refuses, echoing the message it was given: the link comes back in an error.
    const mailed: string[] = [];
    const mailer: Mailer = {
      async sendResetLink(to, path) {
        mailed.push(path);
        throw new Error(`554 message refused for ${to}: "Open https://chat.example.com${path} to choose a new password"`);
      },
      close() {},
    };
    const t = h.makeApp({ config: { logLevel: 'debug' }, mailer });
    const get = (path: string, headers: Record<string, string> = {}) => t.raw(path, { headers });

    // Sessions: the bearer tokens, and the public ids listed on the account page.
    const admin = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
    const person = await h.loggedIn(t);
    keep('admin session token', admin.token);
    keep('session token', person.token);
    const sessions = (await t.get('/api/system/user/sessions', {}, person.headers)).body.data as { id: string }[];
    keep('session id', sessions[0]!.id);
    const second = await t.post('/api/system/auth/login', { username: person.username, password: person.password });
    keep('second session token', second.body.data.token);

    // A share link, opened by the API, the SPA's path and a path that does not exist.
    const conversationId = (await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' }, person.headers)).body.data.conversationId;
    const share = await t.post('/api/workflow/agent-im/share/create', { conversationId, showOwnerName: false }, person.headers);
    expect(share.status, JSON.stringify(share.body)).toBe(200);
    const shareToken = keep('share token', share.body.data.token);
    expect((await t.get('/api/workflow/share/detail', { token: shareToken })).status).toBe(200);
    await get(`/share/${shareToken}`);
    await get(`/api/share/${shareToken}`);
    await get(`/api/workflow/share/${shareToken}?token=${shareToken}`);

    // Scan login: the browser's fingerprint, the ticket's id, approved by a session of the phone.
    const fingerPrint = keep('fingerprint', randomUUID());
    const ticket = await t.get('/api/system/open-visit/user/wx/register-login', { fingerPrint });
    const scanId = keep('scan id', ticket.body.data.id);
    await get(`/scan-approval?scanid=${scanId}`);
    expect((await t.get('/api/system/user/scan-ticket', { scanid: scanId }, person.headers)).status).toBe(200);
    expect((await t.post('/api/system/user/update-scanid', { scanid: scanId }, person.headers)).status).toBe(200);
    const collected = await t.post('/api/system/open-visit/user/wx/validate-login', { id: scanId, fingerPrint });
    expect(collected.body.data.status).toBe('confirmed');
    keep('scan-login session token', collected.body.data.token);
    await t.post('/api/system/auth/wx-login-by-scanid', { scanid: scanId, fingerPrint });

    // A reset link issued by an admin, and one mailed (whose sending fails, naming the link).
    const resetLink = await t.post('/api/admin/user/reset-link', { id: person.user.id }, admin.headers);
    const resetToken = keep('reset token', queryOf(resetLink.body.data.path, 'token'));
    await get(resetLink.body.data.path);
    expect((await t.get('/api/system/auth/password-reset', { token: resetToken })).status).toBe(200);
    await t.post('/api/system/auth/password-reset/mail', { username: admin.username });
    await expect.poll(() => t.logs.some((line) => line.startsWith('mail:'))).toBe(true);
    keep('mailed reset token', queryOf(mailed[0]!, 'token'));

    // An invitation link.
    const invitation = await t.post('/api/admin/invitation/create', { companyId: 'kraken', role: 'member', note: 'for Ada' }, admin.headers);
    const invitationToken = keep('invitation token', queryOf(invitation.body.data.path, 'invitation'));
    await get(invitation.body.data.path);
    await t.get('/api/system/auth/invitation', { token: invitationToken });

    // WeChat's code and state on the way back from its consent page.
    await t.get('/api/system/auth/wx-login', { code: keep('wechat code', `code-${randomUUID()}`), state: keep('oauth state', `state-${randomUUID()}`) });

    // Signing out one session by its id, and another by logging out.
    expect((await t.post('/api/system/user/sessions/revoke', { id: secrets.get('session id') }, bearer(second.body.data.token))).status).toBe(200);
    await t.post('/api/system/auth/logout', undefined, bearer(second.body.data.token));

    // Every line as written, each of its fields with its message.
    const log = t.lines.join('\n');
    expect(t.lines.length).toBeGreaterThan(25);
    for (const [what, value] of secrets) expect(log, `${what} in the log`).not.toContain(value);
    // The lines still say what happened.
    const messages = t.logs.join('\n');
    expect(messages).toContain('GET /share/[hidden] 404');
    expect(messages).toContain(`scan login approved by user ${person.user.id}`);
    expect(messages).toContain('mail: a reset link could not be sent');
  });
});
