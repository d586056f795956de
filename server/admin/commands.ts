import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { accountSchema } from '../../src/contract/auth';
import { ROLES, type Role } from '../../src/contract/users';
import * as v from 'valibot';
import { hashPassword } from '../auth/password';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { companies, users } from '../db/schema';
import { DEFAULT_COMPANY_ID } from '../publishing/directory';
import { checkNewPassword } from '../services/accounts';
import { revokeSessions } from '../services/sessions';
import { audit, COMMAND_LINE_ACTOR } from '../services/audit';
import { normalizeUsername } from '../services/auth';
import { createUser } from '../seed/users';

/** What a command prints, line by line; a password appears here only when the command made it. */
export type CommandResult = string[];

export const USAGE = [
  'usage:',
  '  npm run admin -- create-user --email <address or phone> [--role member|operator|admin] [--org <organisation id>] [--password <password>]',
  '  npm run admin -- reset-password --email <address or phone> [--password <password>]',
  'Without --password a password is generated and printed once. With the embedded database, stop the server first.',
];

/** Reads `--name value` pairs. */
export function parseFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"`);
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${arg} needs a value`);
    flags[arg.slice(2)] = value;
    i += 1;
  }
  return flags;
}

const generatedPassword = () => randomBytes(12).toString('base64url');

function accountName(flags: Record<string, string>): string {
  const raw = flags.email ?? flags.phone ?? flags.username;
  if (!raw) throw new Error('--email is required');
  const parsed = v.safeParse(accountSchema, raw);
  if (!parsed.success) throw new Error(`"${raw}" is neither an e-mail address nor a phone number`);
  return normalizeUsername(parsed.output);
}

export async function createUserCommand(db: Db, clock: Clock, flags: Record<string, string>): Promise<CommandResult> {
  const username = accountName(flags);
  const role = (flags.role ?? 'member') as Role;
  if (!(ROLES as readonly string[]).includes(role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
  const companyId = flags.org ?? (role === 'member' ? null : DEFAULT_COMPANY_ID);
  if (companyId) {
    const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).limit(1);
    if (!company) throw new Error(`no organisation "${companyId}"`);
  }
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  if (existing) throw new Error(`an account "${username}" exists already (reset its password with reset-password)`);
  const password = flags.password ?? generatedPassword();
  checkNewPassword(password, username);
  const user = await createUser(db, clock, { username, password, role, companyId });
  await audit(db, clock.now(), COMMAND_LINE_ACTOR, 'user.create', user.id, { role, companyId: companyId ?? '' });
  return [
    `created ${username} (${role}${companyId ? ` of ${companyId}` : ''})`,
    ...(flags.password ? [] : [`password: ${password}`, 'It is shown only now; change it on the account page after signing in.']),
  ];
}

export async function resetPasswordCommand(db: Db, clock: Clock, flags: Record<string, string>): Promise<CommandResult> {
  const username = accountName(flags);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.username, username)).limit(1);
  if (!user) throw new Error(`no account "${username}"`);
  const password = flags.password ?? generatedPassword();
  checkNewPassword(password, username);
  await db.update(users).set({ passwordHash: await hashPassword(password), disabledAt: null, updatedAt: clock.now() }).where(eq(users.id, user.id));
  const ended = await revokeSessions({ db, clock }, user.id);
  await audit(db, clock.now(), COMMAND_LINE_ACTOR, 'user.passwordReset', user.id, { sessionsEnded: String(ended) });
  return [`reset the password of ${username}; ${ended} session(s) signed out`, ...(flags.password ? [] : [`password: ${password}`])];
}

export async function runCommand(db: Db, clock: Clock, args: string[]): Promise<CommandResult> {
  const [command, ...rest] = args;
  if (command === 'create-user') return createUserCommand(db, clock, parseFlags(rest));
  if (command === 'reset-password') return resetPasswordCommand(db, clock, parseFlags(rest));
  throw new Error(command ? `unknown command "${command}"` : 'no command given');
}
