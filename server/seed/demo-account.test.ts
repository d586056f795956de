import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../config';
import { openSharedTestDb } from '../test/test-db';
import { DEMO_ACCOUNT_FILE, GENERATED_DEMO_USERNAME, demoAccountLines, ensureDemoAccount } from './demo-account';
import { acceptsPassword, ensureUser } from './users';

/** Each instance has its own data folder; they share the database. */
let shared: Awaited<ReturnType<typeof openSharedTestDb>>;
beforeAll(async () => {
  shared = await openSharedTestDb();
});
afterAll(() => shared.close());

const folder = () => mkdtempSync(join(tmpdir(), 'kraken-demo-'));
const accepts = (password: string) => acceptsPassword(shared.a.db, GENERATED_DEMO_USERNAME, password);

describe('the demo account, with several instances on one database', () => {
  let firstDir: string;
  let firstPassword: string;

  it('is created by one of the instances started together, which alone prints its password', async () => {
    const dirs = [folder(), folder()];
    const [one, two] = await Promise.all([
      ensureDemoAccount(shared.a.db, systemClock, { dataDir: dirs[0]! }),
      ensureDemoAccount(shared.b.db, systemClock, { dataDir: dirs[1]! }),
    ]);
    const sources = [one!.source, two!.source].sort();
    expect(sources).toEqual(['existing', 'generated']);
    const creator = one!.source === 'generated' ? 0 : 1;
    const created = [one!, two!][creator]!;
    const other = [one!, two!][1 - creator]!;
    expect(other).toEqual({ username: GENERATED_DEMO_USERNAME, password: null, source: 'existing' });
    expect(existsSync(join(dirs[1 - creator]!, DEMO_ACCOUNT_FILE))).toBe(false);
    expect(await accepts(created.password!)).toBe(true);
    firstDir = dirs[creator]!;
    firstPassword = created.password!;
  });

  it('a later start elsewhere leaves its password alone and says how to choose one', async () => {
    const later = await ensureDemoAccount(shared.b.db, systemClock, { dataDir: folder() });
    expect(later.source).toBe('existing');
    expect(await accepts(firstPassword)).toBe(true);
    const lines = demoAccountLines(later, '/srv/kraken').join('\n');
    expect(lines).toContain(GENERATED_DEMO_USERNAME);
    expect(lines).toContain('DEMO_PASSWORD');
    expect(lines).not.toContain(firstPassword);
  });

  it('a restart on the creating folder prints the kept password again', async () => {
    const again = await ensureDemoAccount(shared.a.db, systemClock, { dataDir: firstDir });
    expect(again).toEqual({ username: GENERATED_DEMO_USERNAME, password: firstPassword, source: 'stored' });
    expect(demoAccountLines(again, firstDir).join('\n')).toContain(`password: ${firstPassword}`);
  });

  it('a kept password the account no longer accepts is neither printed nor put back', async () => {
    await ensureUser(shared.a.db, systemClock, { username: GENERATED_DEMO_USERNAME, password: 'changed by its owner' });
    const after = await ensureDemoAccount(shared.a.db, systemClock, { dataDir: firstDir });
    expect(after).toEqual({ username: GENERATED_DEMO_USERNAME, password: null, source: 'existing' });
    expect(await accepts('changed by its owner')).toBe(true);
    expect(await accepts(firstPassword)).toBe(false);
    expect(JSON.parse(readFileSync(join(firstDir, DEMO_ACCOUNT_FILE), 'utf8')).password).toBe(firstPassword);
  });

  it('DEMO_PASSWORD chooses the password, on whichever instance it is given', async () => {
    const chosen = await ensureDemoAccount(shared.b.db, systemClock, { dataDir: folder(), username: GENERATED_DEMO_USERNAME, password: 'chosen by the operator' });
    expect(chosen).toEqual({ username: GENERATED_DEMO_USERNAME, password: 'chosen by the operator', source: 'env' });
    expect(await accepts('chosen by the operator')).toBe(true);
  });

  it('DEMO_PASSWORD alone is the default account\'s password, not ignored', async () => {
    const chosen = await ensureDemoAccount(shared.b.db, systemClock, { dataDir: folder(), password: 'given without a name' });
    expect(chosen).toEqual({ username: GENERATED_DEMO_USERNAME, password: 'given without a name', source: 'env' });
    expect(await accepts('given without a name')).toBe(true);
  });

  it('DEMO_USERNAME alone names the account whose password is generated, whatever another account kept', async () => {
    const dir = folder();
    writeFileSync(join(dir, DEMO_ACCOUNT_FILE), JSON.stringify({ username: 'someone-else@kraken.local', password: 'not-for-this-one' }));
    const named = await ensureDemoAccount(shared.a.db, systemClock, { dataDir: dir, username: 'named@kraken.local' });
    expect(named).toMatchObject({ username: 'named@kraken.local', source: 'generated' });
    expect(named.password).not.toBe('not-for-this-one');
    expect(await acceptsPassword(shared.a.db, 'named@kraken.local', named.password!)).toBe(true);
  });

  it('a kept file on a new database creates the account with the kept password', async () => {
    const dir = folder();
    writeFileSync(join(dir, DEMO_ACCOUNT_FILE), JSON.stringify({ username: 'kept@kraken.local', password: 'kept-password-1' }));
    const kept = await ensureDemoAccount(shared.a.db, systemClock, { dataDir: dir });
    expect(kept).toEqual({ username: 'kept@kraken.local', password: 'kept-password-1', source: 'stored' });
    expect(await acceptsPassword(shared.a.db, 'kept@kraken.local', 'kept-password-1')).toBe(true);
  });
});

describe('DEMO_USERNAME and DEMO_PASSWORD given to instances started together', () => {
  it('every start succeeds, one creates the account, and it accepts the password', async () => {
    const username = 'together@kraken.local';
    const password = 'together-Password-2026';
    const starts = await Promise.allSettled(
      [shared.a.db, shared.b.db, shared.a.db].map((db) => ensureDemoAccount(db, systemClock, { dataDir: folder(), username, password })),
    );
    expect(starts.map((start) => (start.status === 'rejected' ? String(start.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    expect(await acceptsPassword(shared.a.db, username, password)).toBe(true);
  });
});

describe('the demo account and who may do what', () => {
  it('is the admin of the default organisation, even when an older version made it a member', async () => {
    const dir = folder();
    const demo = await ensureDemoAccount(shared.a.db, systemClock, { dataDir: dir, username: 'older-demo@kraken.local', password: 'older-Password-1' });
    expect(demo.source).toBe('env');
    await ensureUser(shared.a.db, systemClock, { username: 'older-demo@kraken.local', password: 'older-Password-1' });
    const { users } = await import('../db/schema');
    const { eq } = await import('drizzle-orm');
    await shared.a.db.update(users).set({ role: 'member', companyId: null }).where(eq(users.username, 'older-demo@kraken.local'));
    await ensureDemoAccount(shared.a.db, systemClock, { dataDir: dir, username: 'older-demo@kraken.local', password: 'older-Password-1' });
    const [row] = await shared.a.db.select().from(users).where(eq(users.username, 'older-demo@kraken.local'));
    expect(row).toMatchObject({ role: 'admin', companyId: 'kraken' });
  });

  it('a server reachable from other machines makes none and prints no password, only how to make the first admin', async () => {
    const dir = folder();
    const demo = await ensureDemoAccount(shared.a.db, systemClock, { dataDir: dir, username: 'never-made@kraken.local', reachable: true });
    expect(demo).toEqual({ username: null, password: null, source: 'none' });
    expect(existsSync(join(dir, DEMO_ACCOUNT_FILE))).toBe(false);
    expect(await acceptsPassword(shared.a.db, 'never-made@kraken.local', 'anything')).toBe(false);
    expect(demoAccountLines(demo, dir, { reachable: true }).join('\n')).toMatch(/npm run admin -- create-user/);
    const chosen = await ensureDemoAccount(shared.a.db, systemClock, { dataDir: dir, username: 'chosen@kraken.local', password: 'chosen-Password-1', reachable: true });
    const lines = demoAccountLines(chosen, dir, { reachable: true }).join('\n');
    expect(lines).toContain('chosen@kraken.local');
    expect(lines).not.toContain('chosen-Password-1');
  });

  it('a server that became reachable names a demo admin still taking the password a loopback start printed, until it is changed', async () => {
    const dir = folder();
    const username = 'was-local@kraken.local';
    const local = await ensureDemoAccount(shared.a.db, systemClock, { dataDir: dir, username });
    expect(local.source).toBe('generated');
    const exposed = await ensureDemoAccount(shared.a.db, systemClock, { dataDir: dir, username, reachable: true });
    expect(exposed).toEqual({ username, password: null, source: 'exposed' });
    const lines = demoAccountLines(exposed, dir, { reachable: true }).join('\n');
    expect(lines).toContain(`npm run admin -- reset-password --email ${username}`);
    expect(lines).not.toContain(local.password!);
    await ensureUser(shared.a.db, systemClock, { username, password: 'a-New-Password-9', nickname: 'Demo', companyId: 'kraken', role: 'admin' });
    expect(await ensureDemoAccount(shared.a.db, systemClock, { dataDir: dir, username, reachable: true })).toEqual({ username: null, password: null, source: 'none' });
  });
});
