import { and, eq, isNull } from 'drizzle-orm';
import type { LoginResult } from '../../src/contract/auth';
import { DECOY_HASH, verifyPassword } from '../auth/password';
import { hashToken, newToken } from '../auth/tokens';
import type { Db } from '../db/client';
import { conversations, sessions, uploads, users } from '../db/schema';
import type { Services } from '../deps';
import type { UserRow } from '../http/caller';
import { ApiError } from '../http/errors';
import { admitLoginAttempt } from '../limits/login-attempts';
import type { SignInOrigin } from './sessions';
import { toUserInfo } from './users';

export const LOGIN_FAILED_MSG = 'The account or the password is wrong.';
export const ACCOUNT_DISABLED_MSG = 'This account is disabled. Ask an admin.';

/** Opens a session and answers its token; only the token's hash is stored, beside where it signed in from. */
export async function openSession(
  services: Pick<Services, 'db' | 'clock' | 'config'>,
  userId: string,
  origin: SignInOrigin,
): Promise<string> {
  const token = newToken();
  const now = services.clock.now();
  await services.db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    method: origin.method,
    userAgent: origin.userAgent,
    address: origin.address,
    createdAt: now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + services.config.sessionTtlMs),
  });
  return token;
}

/** Logs a session out; its open streams on this instance end at once, on the others at their next check. */
export async function revokeSession(services: Pick<Services, 'db' | 'clock'> & Partial<Pick<Services, 'streams'>>, tokenHash: string): Promise<void> {
  await services.db
    .update(sessions)
    .set({ revokedAt: services.clock.now() })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
  await services.streams?.recheck();
}

/** A visitor who logs in keeps what they started: their conversations and uploads move to the account. */
export async function adoptVisitor(db: Db, visitorId: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(conversations)
      .set({ ownerUserId: userId, ownerVisitorId: null })
      .where(and(eq(conversations.ownerVisitorId, visitorId), isNull(conversations.ownerUserId)));
    await tx
      .update(uploads)
      .set({ ownerUserId: userId, ownerVisitorId: null })
      .where(and(eq(uploads.ownerVisitorId, visitorId), isNull(uploads.ownerUserId)));
  });
}

export const normalizeUsername = (username: string) => username.trim().toLowerCase();

export async function passwordLogin(
  services: Services,
  input: { username: string; password: string; clientAddress: string; visitorId?: string; origin: SignInOrigin },
): Promise<LoginResult> {
  const username = normalizeUsername(input.username);
  const attempt = await admitLoginAttempt(services, username, input.clientAddress);
  const [user] = await services.db.select().from(users).where(eq(users.username, username)).limit(1);
  const valid = await verifyPassword(input.password, user?.passwordHash ?? DECOY_HASH);
  if (!user || !valid) throw new ApiError(401, LOGIN_FAILED_MSG);
  await attempt.succeeded();
  return finishLogin(services, user, input.visitorId, input.origin);
}

/** What every successful login does, whatever its type: open a session, adopt the visitor. */
export async function finishLogin(
  services: Services,
  user: UserRow,
  visitorId: string | undefined,
  origin: SignInOrigin,
): Promise<LoginResult> {
  // Said only once the credentials were right, so it tells nothing about other accounts.
  if (user.disabledAt) throw new ApiError(403, ACCOUNT_DISABLED_MSG);
  const token = await openSession(services, user.id, origin);
  if (visitorId) await adoptVisitor(services.db, visitorId, user.id);
  return { token, userInfo: toUserInfo(user) };
}
