import { and, eq } from 'drizzle-orm';
import { NICKNAME_MAX, type UserInfo } from '../../src/contract/users';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { companies, uploads, users } from '../db/schema';
import type { UserRow } from '../http/caller';
import { badRequest } from '../http/errors';
import { withoutUnsafeChars } from '../http/unsafe-chars';

/** A sign-in provider's display name as a nickname: trimmed, cut to the nickname's length, null when empty. */
// A provider's name is not checked like a typed one: a NUL would fail the insert, bidi controls mislead.
export const nicknameFromProvider = (name: string): string | null =>
  [...withoutUnsafeChars(name).trim()].slice(0, NICKNAME_MAX).join('') || null;

export function toUserInfo(row: UserRow, companyName?: string): UserInfo {
  return {
    role: row.role,
    id: row.id,
    username: row.username,
    nickname: row.nickname || row.username,
    avatar: row.avatar,
    ...(row.wechatId ? { wechatId: row.wechatId } : {}),
    ...(row.companyId ? { companyId: row.companyId } : {}),
    ...(row.companyId && companyName ? { companyName } : {}),
  };
}

/** The user's details with their organisation's name, for the account's own page. */
export async function describeUser(db: Db, row: UserRow): Promise<UserInfo> {
  if (!row.companyId) return toUserInfo(row);
  const [company] = await db.select({ name: companies.name }).from(companies).where(eq(companies.id, row.companyId)).limit(1);
  return toUserInfo(row, company?.name);
}

export const AVATAR_NOT_OWN_IMAGE = 'The avatar must be an image you uploaded here (/api/media/file/<id>), or empty for no avatar.';
const OWN_FILE_PATH = /^\/api\/media\/file\/([A-Za-z0-9-]{1,64})$/;

/**
 * An avatar is shown to others and, if it were a link, fetched by whoever trusts it: so only
 * the person's own image upload, nothing, or what they already have (the form sends it back).
 */
async function checkAvatar(db: Db, user: UserRow, avatar: string): Promise<void> {
  if (avatar === '' || avatar === user.avatar) return;
  const fileId = OWN_FILE_PATH.exec(avatar)?.[1];
  if (fileId) {
    const [own] = await db
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(eq(uploads.id, fileId), eq(uploads.ownerUserId, user.id), eq(uploads.kind, 'image')))
      .limit(1);
    if (own) return;
  }
  throw badRequest(AVATAR_NOT_OWN_IMAGE);
}

/** Changes nickname, avatar or WeChat id; the username is not in the request and never changes. */
export async function updateUser(
  db: Db,
  clock: Clock,
  user: UserRow,
  input: { nickname?: string; avatar?: string; wechatId?: string },
): Promise<UserInfo> {
  if (input.avatar !== undefined) await checkAvatar(db, user, input.avatar);
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
  return describeUser(db, row!);
}
