import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/password';
import { auditLog, users } from '../db/schema';
import { openHarness } from '../test/harness';
import { runCommand } from './commands';

/** `npm run admin`: the first admin made, and a locked-out account mended, from the server's shell. */

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());
const clock = { now: () => new Date() };

describe('npm run admin', () => {
  it('creates an admin of the default organisation with a password printed once, who can sign in and administer', async () => {
    const lines = await runCommand(h.db, clock, ['create-user', '--email', 'Boss@Example.com', '--role', 'admin']);
    expect(lines[0]).toBe('created boss@example.com (admin of kraken)');
    const password = lines.find((line) => line.startsWith('password: '))!.slice('password: '.length);
    const t = h.makeApp();
    const login = await t.post('/api/system/auth/login', { username: 'boss@example.com', password });
    expect(login.body.data.userInfo).toMatchObject({ role: 'admin', companyId: 'kraken' });
    const users = await t.post('/api/admin/user/list', { keyword: 'boss@' }, { authorization: `Bearer ${login.body.data.token}` });
    expect(users.body.data.total).toBe(1);
  });

  it('prints no password it was given, refuses an existing account, an unknown role or organisation, and a weak password', async () => {
    const lines = await runCommand(h.db, clock, ['create-user', '--email', 'ops@example.com', '--role', 'operator', '--org', 'northwind', '--password', 'chosen pass 1']);
    expect(lines.join('\n')).not.toContain('chosen pass 1');
    await expect(runCommand(h.db, clock, ['create-user', '--email', 'ops@example.com'])).rejects.toThrow(/exists already/);
    await expect(runCommand(h.db, clock, ['create-user', '--email', 'x@example.com', '--role', 'root'])).rejects.toThrow(/--role/);
    await expect(runCommand(h.db, clock, ['create-user', '--email', 'x@example.com', '--org', 'nowhere', '--role', 'operator'])).rejects.toThrow(/no organisation/);
    await expect(runCommand(h.db, clock, ['create-user', '--email', 'x@example.com', '--password', '1234567890'])).rejects.toThrow(/onlyDigits/);
    await expect(runCommand(h.db, clock, ['make-me-admin'])).rejects.toThrow(/unknown command/);
  });

  it('resets a password, signs the account out everywhere and records it in the audit log', async () => {
    const t = h.makeApp();
    const person = await h.loggedIn(t);
    const lines = await runCommand(h.db, clock, ['reset-password', '--email', person.username]);
    expect(lines[0]).toContain('1 session(s) signed out');
    const password = lines[1]!.slice('password: '.length);
    const [row] = await h.db.select().from(users).where(eq(users.id, person.user.id));
    expect(await verifyPassword(password, row!.passwordHash)).toBe(true);
    expect((await t.get('/api/system/user/get-user-info', {}, person.headers)).status).toBe(401);
    const entries = await h.db.select().from(auditLog).where(eq(auditLog.target, person.user.id));
    expect(entries.map((entry) => `${entry.actorName}: ${entry.action}`)).toContain('npm run admin: user.passwordReset');
  });

  it('keeps the audit log append-only: the database refuses to change or delete an entry', async () => {
    await expect(h.db.update(auditLog).set({ action: 'nothing happened' })).rejects.toThrow();
    await expect(h.db.delete(auditLog)).rejects.toThrow();
    expect((await h.db.select().from(auditLog)).length).toBeGreaterThan(0);
  });
});
