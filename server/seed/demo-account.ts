import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { ensureUser } from './users';

export const DEMO_COMPANY_ID = 'kraken';
export const GENERATED_DEMO_USERNAME = 'demo@kraken.local';
export const DEMO_ACCOUNT_FILE = 'demo-account.json';

export type DemoAccount = { username: string; password: string; source: 'env' | 'generated' | 'stored' };

/**
 * The account printed at start: DEMO_USERNAME / DEMO_PASSWORD when given, otherwise one generated
 * on the first run. The database keeps only a hash, so a generated password is kept in
 * DATA_DIR/demo-account.json (mode 0600) to be printed again on later starts.
 */
export async function ensureDemoAccount(
  db: Db,
  clock: Clock,
  options: { dataDir: string; username?: string; password?: string },
): Promise<DemoAccount> {
  let account: DemoAccount;
  if (options.username && options.password) {
    account = { username: options.username, password: options.password, source: 'env' };
  } else {
    const file = join(options.dataDir, DEMO_ACCOUNT_FILE);
    const stored = await readFile(file, 'utf8').then(
      (text) => JSON.parse(text) as { username?: string; password?: string },
      () => null,
    );
    if (stored?.username && stored.password) {
      account = { username: stored.username, password: stored.password, source: 'stored' };
    } else {
      account = { username: GENERATED_DEMO_USERNAME, password: randomBytes(12).toString('base64url'), source: 'generated' };
      await mkdir(options.dataDir, { recursive: true });
      await writeFile(file, JSON.stringify({ username: account.username, password: account.password }, null, 2) + '\n', { mode: 0o600 });
      await chmod(file, 0o600);
    }
  }
  await ensureUser(db, clock, { username: account.username, password: account.password, nickname: 'Demo', companyId: DEMO_COMPANY_ID });
  return account;
}
