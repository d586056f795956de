import { and, eq, gt } from 'drizzle-orm';
import { NICKNAME_MAX, type UserInfo } from '../../src/contract/users';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { scanTickets, users } from '../db/schema';
import type { UserRow } from '../http/caller';
import { notFound } from '../http/errors';
import { withoutUnsafeChars } from '../http/unsafe-chars';

/** A sign-in provider's display name as a nickname: trimmed, cut to the nickname's length, null when empty. */
// A provider's name is not checked like a typed one: a NUL would fail the insert, bidi controls mislead.
export const nicknameFromProvider = (name: string): string | null =>
  [...withoutUnsafeChars(name).trim()].slice(0, NICKNAME_MAX).join('') || null;

export function toUserInfo(row: UserRow): UserInfo {
  return {
    id: row.id,
    username: row.username,
    nickname: row.nickname || row.username,
    avatar: row.avatar,
    ...(row.wechatId ? { wechatId: row.wechatId } : {}),
    ...(row.companyId ? { companyId: row.companyId } : {}),
  };
}

/** Changes nickname, avatar or WeChat id; the username is not in the request and never changes. */
export async function updateUser(
  db: Db,
  clock: Clock,
  user: UserRow,
  input: { nickname?: string; avatar?: string; wechatId?: string },
): Promise<UserInfo> {
  const [row] = await db
    .update(users)
    .set({
      ...(input.nickname !== undefined ? { nickname: input.nickname } : {}),
      ...(input.avatar !== undefined ? { avatar: input.avatar } : {}),
      ...(input.wechatId !== undefined ? { wechatId: input.wechatId === '' ? null : input.wechatId } : {}),
      updatedAt: clock.now(),
    })
    .where(eq(users.id, user.id))
    .returning();
  return toUserInfo(row!);
}

/** Confirms a waiting, unexpired scan ticket with this user; the waiting browser then logs in. */
export async function confirmScanTicket(db: Db, clock: Clock, user: UserRow, scanId: string): Promise<void> {
  const confirmed = await db
    .update(scanTickets)
    .set({ status: 'confirmed', userId: user.id })
    .where(and(eq(scanTickets.id, scanId), eq(scanTickets.status, 'waiting'), gt(scanTickets.expiresAt, clock.now())))
    .returning({ id: scanTickets.id });
  if (confirmed.length === 0) throw notFound('Scan id');
}
