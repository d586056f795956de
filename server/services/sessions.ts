import { and, desc, eq, gt, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Session, SignInMethod } from '../../src/contract/users';
import { sessions } from '../db/schema';
import type { Services } from '../deps';
import { clientAddress } from '../http/client-address';
import { notFound } from '../http/errors';
import { describeUserAgent, USER_AGENT_MAX } from '../http/user-agent';

/** Where a session was opened from: shown to its owner on the account page. */
export type SignInOrigin = { method: SignInMethod; userAgent: string | null; address: string };

/** `last used` is refreshed at most this often: a write per request would cost more than it tells. */
export const LAST_USED_RESOLUTION_MS = 5 * 60 * 1000;

/** The browser and address of the request signing in. */
export function signInOriginOf(c: Context, services: Pick<Services, 'config'>, method: SignInMethod): SignInOrigin {
  return {
    method,
    userAgent: c.req.header('user-agent')?.slice(0, USER_AGENT_MAX) ?? null,
    address: clientAddress(c, services.config.trustProxy),
  };
}

const active = (userId: string, now: Date) =>
  and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now));

/** Every session of the user still signed in, the most recently used first; `current` marks the caller's. */
export async function listSessions(
  services: Pick<Services, 'db' | 'clock'>,
  userId: string,
  currentSessionId: string,
): Promise<Session[]> {
  const rows = await services.db
    .select()
    .from(sessions)
    .where(active(userId, services.clock.now()))
    // Sessions opened before "last used" was recorded have none: their sign-in time stands in.
    .orderBy(desc(sql`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`));
  return rows.map((row) => ({
    id: row.id,
    device: describeUserAgent(row.userAgent),
    address: row.address ?? '',
    ...(row.method ? { method: row.method as SignInMethod } : {}),
    signedInAt: row.createdAt.toISOString(),
    lastUsedAt: (row.lastUsedAt ?? row.createdAt).toISOString(),
    current: row.id === currentSessionId,
  }));
}

/** Who signs sessions out: with `streams` (a server's), their open streams end at once rather than at the next check. */
type Revoking = Pick<Services, 'db' | 'clock'> & Partial<Pick<Services, 'streams'>>;

/** Signs out one of the user's own sessions; anyone else's id is unknown (404), never revoked. */
export async function revokeSessionById(services: Revoking, userId: string, sessionId: string): Promise<void> {
  const now = services.clock.now();
  const revoked = await services.db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), active(userId, now)))
    .returning({ id: sessions.id });
  if (revoked.length === 0) throw notFound('Session');
  await services.streams?.recheck();
}

/** Signs out every session of the user, or every one but `keep`; answers how many. */
export async function revokeSessions(services: Revoking, userId: string, keep?: string): Promise<number> {
  const now = services.clock.now();
  const revoked = await services.db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(active(userId, now), keep === undefined ? undefined : ne(sessions.id, keep)))
    .returning({ id: sessions.id });
  if (revoked.length > 0) await services.streams?.recheck();
  return revoked.length;
}

/** Signs out every session of the user but the one making the call; answers how many. */
export const revokeOtherSessions = (services: Revoking, userId: string, currentSessionId: string): Promise<number> =>
  revokeSessions(services, userId, currentSessionId);

/** Records that the session was used now, unless that was already recorded within the resolution. */
export async function touchSession(services: Pick<Services, 'db' | 'clock'>, tokenHash: string, lastUsedAt: Date | null): Promise<void> {
  const now = services.clock.now();
  if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await services.db
    .update(sessions)
    .set({ lastUsedAt: now })
    .where(and(eq(sessions.tokenHash, tokenHash), or(isNull(sessions.lastUsedAt), lte(sessions.lastUsedAt, stale))));
}
