import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { hashPassword, verifyPassword } from '../auth/password';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import type { UserRow } from '../http/caller';
import { normalizeUsername } from '../services/auth';

export type NewUser = { username: string; password: string; nickname?: string; companyId?: string | null };

export async function createUser(db: Db, clock: Clock, input: NewUser): Promise<UserRow> {
  const now = clock.now();
  const [row] = await db
    .insert(users)
    .values({
      id: randomUUID(),
      username: normalizeUsername(input.username),
      passwordHash: await hashPassword(input.password),
      nickname: input.nickname ?? null,
      companyId: input.companyId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/** Creates the account, or makes an existing one accept this password. */
export async function ensureUser(db: Db, clock: Clock, input: NewUser): Promise<UserRow> {
  const [existing] = await db.select().from(users).where(eq(users.username, normalizeUsername(input.username))).limit(1);
  if (!existing) return createUser(db, clock, input);
  if (await verifyPassword(input.password, existing.passwordHash)) return existing;
  const [row] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.password), updatedAt: clock.now() })
    .where(eq(users.id, existing.id))
    .returning();
  return row!;
}
