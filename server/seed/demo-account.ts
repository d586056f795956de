import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../config';
import { and, eq, isNull, ne, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { normalizeUsername } from '../services/auth';
import { acceptsPassword, createUserIfAbsent, ensureUser } from './users';

export const DEMO_COMPANY_ID = 'kraken';
export const GENERATED_DEMO_USERNAME = 'demo@kraken.local';
export const DEMO_ACCOUNT_FILE = 'demo-account.json';

/**
 * The account printed at start, and where its password comes from:
 * - `env`: DEMO_USERNAME / DEMO_PASSWORD, which the account is made to accept;
 * - `generated`: this start created the account with a new password;
 * - `stored`: the password kept in DATA_DIR/demo-account.json, which the account still accepts;
 * - `existing`: the account was created elsewhere (another instance) or its password changed
 *   since: it is not known here, and not printed.
 */
export type DemoAccount =
  | { username: string; password: string; source: 'env' | 'generated' | 'stored' }
  | { username: string; password: null; source: 'existing' }
  /** A start reachable from other machines makes no demo account of its own. */
  | { username: null; password: null; source: 'none' }
  /**
   * Reachable from other machines, and a demo admin made by an earlier start on this DATA_DIR (on
   * loopback, where its password was printed) still takes that password: a door to close.
   */
  | { username: string; password: null; source: 'exposed' };

const NEW_DEMO = { nickname: 'Demo', companyId: DEMO_COMPANY_ID, role: 'admin' as const };

/**
 * The demo account is the admin of the default company: an account made by an older version
 * (a member, as every account then was) is made so again.
 */
async function makeAdmin(db: Db, clock: Clock, username: string): Promise<void> {
  await db
    .update(users)
    .set({ role: 'admin', companyId: DEMO_COMPANY_ID, updatedAt: clock.now() })
    .where(and(eq(users.username, normalizeUsername(username)), or(ne(users.role, 'admin'), isNull(users.companyId))));
}

async function readStored(file: string): Promise<{ username: string; password: string } | null> {
  const stored = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as { username?: string; password?: string },
    () => null,
  );
  return stored?.username && stored.password ? { username: stored.username, password: stored.password } : null;
}

/**
 * Makes sure the demo account exists. A start never changes an existing account's password,
 * unless DEMO_PASSWORD says which one to set: with several instances on one database, only the
 * instance that creates the account knows (and prints) a generated password, and the others
 * say the account exists. The database keeps only a hash, so a generated password is kept in
 * DATA_DIR/demo-account.json (mode 0600) to be printed again by later starts on that folder.
 */
export async function ensureDemoAccount(
  db: Db,
  clock: Clock,
  options: { dataDir: string; username?: string; password?: string; reachable?: boolean },
): Promise<DemoAccount> {
  const demo = await ensureDemo(db, clock, options);
  if (demo.username && demo.source !== 'exposed') await makeAdmin(db, clock, demo.username);
  return demo;
}

async function ensureDemo(
  db: Db,
  clock: Clock,
  options: { dataDir: string; username?: string; password?: string; reachable?: boolean },
): Promise<DemoAccount> {
  // DEMO_PASSWORD alone is for the default account; DEMO_USERNAME alone names the account whose
  // password is generated.
  if (options.password) {
    const username = options.username ?? GENERATED_DEMO_USERNAME;
    await ensureUser(db, clock, { username, password: options.password, ...NEW_DEMO });
    return { username, password: options.password, source: 'env' };
  }
  // Reachable from other machines, an admin with a known password is a door: the first admin is
  // made with `npm run admin -- create-user` instead.
  const file = join(options.dataDir, DEMO_ACCOUNT_FILE);
  const kept = await readStored(file);
  if (options.reachable) {
    if (kept && (await acceptsPassword(db, kept.username, kept.password))) return { username: kept.username, password: null, source: 'exposed' };
    return { username: null, password: null, source: 'none' };
  }
  // A password kept for another account than the one asked for says nothing about this one.
  const stored = kept && (!options.username || kept.username === options.username) ? kept : null;
  const username = options.username ?? stored?.username ?? GENERATED_DEMO_USERNAME;
  const password = stored?.password ?? randomBytes(12).toString('base64url');
  const created = await createUserIfAbsent(db, clock, { username, password, ...NEW_DEMO });
  if (stored) {
    if (created || (await acceptsPassword(db, username, password))) return { username, password, source: 'stored' };
    return { username, password: null, source: 'existing' };
  }
  if (!created) return { username, password: null, source: 'existing' };
  await mkdir(options.dataDir, { recursive: true });
  await writeFile(file, JSON.stringify({ username, password }, null, 2) + '\n', { mode: 0o600 });
  await chmod(file, 0o600);
  return { username, password, source: 'generated' };
}

/** What `npm start` prints about the demo account: its password only where it is known. */
export function demoAccountLines(demo: DemoAccount, dataDir: string, options: { reachable?: boolean } = {}): string[] {
  if (demo.source === 'exposed') {
    return [
      `  !! ${demo.username}, a demo admin made by an earlier start on this machine, still takes the password`,
      `     that start printed, and other machines reach this server now. Give it a new one (it is shown once`,
      `     and the account is signed out everywhere): npm run admin -- reset-password --email ${demo.username}`,
    ];
  }
  if (demo.source === 'none') {
    return ['  no demo account on a server reachable from other machines; make the first admin with:', '    npm run admin -- create-user --email <address> --role admin'];
  }
  if (options.reachable) {
    return [`  demo account (an admin; its password is never printed on a server reachable from other machines):`, `    username: ${demo.username}`];
  }
  if (demo.password === null) {
    return [
      `  demo account (it exists already; its password is shown only by the start that created it):`,
      `    username: ${demo.username}`,
      `    password: set DEMO_USERNAME=${demo.username} and DEMO_PASSWORD=<a password> to choose it`,
    ];
  }
  const where =
    demo.source === 'env' ? 'from DEMO_USERNAME / DEMO_PASSWORD' : `${demo.source === 'generated' ? 'generated now, ' : ''}kept in ${dataDir}/demo-account.json`;
  return [`  demo account (${where}):`, `    username: ${demo.username}`, `    password: ${demo.password}`];
}
