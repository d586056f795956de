import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { users, wechatIdentities } from '../db/schema';
import type { UserRow } from '../http/caller';
import { withoutUnsafeChars } from '../http/unsafe-chars';
import { nicknameFromProvider } from '../services/users';
import type { WechatProfile } from './provider';

/** WeChat accounts have no password: no password (and no scrypt hash) ever matches this. */
export const NO_PASSWORD = '!wechat';


async function linkedUser(db: Db, appId: string, profile: WechatProfile): Promise<UserRow | undefined> {
  const [byOpenid] = await db
    .select({ user: users })
    .from(wechatIdentities)
    .innerJoin(users, eq(users.id, wechatIdentities.userId))
    .where(and(eq(wechatIdentities.appId, appId), eq(wechatIdentities.openid, profile.openid)))
    .limit(1);
  if (byOpenid) return byOpenid.user;
  if (!profile.unionid) return undefined;
  const [byUnionid] = await db
    .select({ user: users })
    .from(wechatIdentities)
    .innerJoin(users, eq(users.id, wechatIdentities.userId))
    .where(eq(wechatIdentities.unionid, profile.unionid))
    .limit(1);
  return byUnionid?.user;
}

/**
 * The account a WeChat user signs in as. Known by openid (this app) or unionid (another app of
 * the same WeChat account): that account, with WeChat's latest nickname and avatar remembered on
 * the link. Unknown: a new account named after them, with WeChat's nickname and avatar.
 */
export async function userForWechatProfile(db: Db, clock: Clock, appId: string, profile: WechatProfile): Promise<UserRow> {
  const now = clock.now();
  const known = await linkedUser(db, appId, profile);
  const link = {
    appId,
    openid: profile.openid,
    unionid: profile.unionid ?? null,
    nickname: withoutUnsafeChars(profile.nickname),
    avatar: profile.avatar,
    createdAt: now,
    updatedAt: now,
  };
  if (known) {
    await db
      .insert(wechatIdentities)
      .values({ ...link, userId: known.id })
      .onConflictDoUpdate({
        target: [wechatIdentities.appId, wechatIdentities.openid],
        set: { nickname: link.nickname, avatar: link.avatar, unionid: link.unionid, updatedAt: now },
      });
    return known;
  }
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          id: randomUUID(),
          username: `wechat-${profile.openid}`,
          passwordHash: NO_PASSWORD,
          nickname: nicknameFromProvider(profile.nickname),
          avatar: profile.avatar,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await tx.insert(wechatIdentities).values({ ...link, userId: user!.id });
      return user!;
    });
  } catch (error) {
    // Two first logins of the same person at once: the other one created the account.
    const raced = await linkedUser(db, appId, profile);
    if (raced) return raced;
    throw error;
  }
}
