import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { hashPassword, verifyPassword } from '../auth/password';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { Role } from '../../src/contract/users';
import type { UserRow } from '../http/caller';
import { normalizeUsername } from '../services/auth';

export type NewUser = { username: string; password: string; nickname?: string; companyId?: string | null; role?: Role };

/** The row of a new account: its username normalised, its password hashed. */
async function newUserRow(clock: Clock, input: NewUser) {
  const now = clock.now();
  return {
    id: randomUUID(),
    username: normalizeUsername(input.username),
    passwordHash: await hashPassword(input.password),
    nickname: input.nickname ?? null,
    companyId: input.companyId ?? null,
    role: input.role ?? 'member',
    createdAt: now,
    updatedAt: now,
  };
}

export async function createUser(db: Db, clock: Clock, input: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(await newUserRow(clock, input)).returning();
  return row!;
}

/**
 * Creates the account unless one with this username exists (created by another instance a moment
 * ago, say): answers the new row, or null and the existing account is left as it is.
 */
export async function createUserIfAbsent(db: Db, clock: Clock, input: NewUser): Promise<UserRow | null> {
  // Hashing costs tens of milliseconds: not spent at every start when the account is there.
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.username, normalizeUsername(input.username))).limit(1);
  if (existing) return null;
  const [row] = await db
    .insert(users)
    .values(await newUserRow(clock, input))
    .onConflictDoNothing({ target: users.username })
    .returning();
  return row ?? null;
}

/** Whether the account of this username accepts this password. */
export async function acceptsPassword(db: Db, username: string, password: string): Promise<boolean> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.username, normalizeUsername(username))).limit(1);
  return row ? verifyPassword(password, row.hash) : false;
}

/** Creates the account, or makes an existing one accept this password. */
export async function ensureUser(db: Db, clock: Clock, input: NewUser): Promise<UserRow> {
  // Instances started together each try: the one whose insert lands made it, the others read it.
  const created = await createUserIfAbsent(db, clock, input);
  if (created) return created;
  const [existing] = await db.select().from(users).where(eq(users.username, normalizeUsername(input.username))).limit(1);
  if (!existing) throw new Error(`the account ${input.username} could be neither created nor found`);
  if (await verifyPassword(input.password, existing.passwordHash)) return existing;
  const [row] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.password), updatedAt: clock.now() })
    .where(eq(users.id, existing.id))
    .returning();
  return row!;
}
