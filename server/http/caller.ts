import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Context } from 'hono';
import { hashToken } from '../auth/tokens';
import { sessions, users } from '../db/schema';
import type { Services } from '../deps';
import { touchSession } from '../services/sessions';
import { badRequest, unauthorized } from './errors';

export type { Caller, Owner, UserRow } from './identity';
import type { Caller, Owner } from './identity';

export const VISITOR_HEADER = 'x-visitor-id';
export const VISITOR_ID = /^[A-Za-z0-9-]{16,64}$/;

/** The X-Visitor-Id header, checked; undefined when absent. */
export function visitorIdOf(c: Context): string | undefined {
  const raw = c.req.header(VISITOR_HEADER)?.trim();
  if (!raw) return undefined;
  if (!VISITOR_ID.test(raw)) throw badRequest('X-Visitor-Id must be 16 to 64 letters, digits or dashes (a random UUID).');
  return raw;
}

/**
 * Only the Authorization header authenticates; a cookie alone never does (one exception: reading
 * one's own files, see routes/media.ts). A token that is present but unknown, expired or revoked
 * is refused, rather than quietly downgraded to a visitor.
 */
export async function resolveCaller(c: Context, services: Services): Promise<Caller> {
  const header = c.req.header('authorization');
  if (header !== undefined && header.trim() !== '') {
    const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})\s*$/i.exec(header);
    if (!match) throw unauthorized('The Authorization header must be "Bearer <token>".');
    return callerOfToken(services, match[1]!);
  }
  const visitorId = visitorIdOf(c);
  return visitorId ? { kind: 'visitor', visitorId } : { kind: 'anonymous' };
}

/** The signed-in caller a session token names; 401 when it is unknown, expired, revoked or its account disabled. */
export async function callerOfToken(services: Services, token: string): Promise<Extract<Caller, { kind: 'user' }>> {
  const tokenHash = hashToken(token);
  const [row] = await services.db
    .select({ user: users, sessionId: sessions.id, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, services.clock.now())))
    .limit(1);
  if (!row) throw unauthorized('Your session has expired or was ended. Please log in again.');
  // Disabling signs the account out everywhere too; this refuses a session that slipped past it.
  if (row.user.disabledAt) throw unauthorized('This account is disabled. Ask an admin.');
  await touchSession(services, tokenHash, row.lastUsedAt);
  return { kind: 'user', user: row.user, tokenHash, sessionId: row.sessionId };
}

/** The signed-in caller, for calls only an account may make; 401 for a visitor or nobody. */
export function signedIn(caller: Caller, message?: string): Extract<Caller, { kind: 'user' }> {
  if (caller.kind !== 'user') throw unauthorized(message);
  return caller;
}

/** The owner for things the caller creates or reads; nobody cannot own anything. */
export function ownerOf(caller: Caller): Owner {
  if (caller.kind === 'user') return { userId: caller.user.id };
  if (caller.kind === 'visitor') return { visitorId: caller.visitorId };
  throw unauthorized('Please log in, or send an X-Visitor-Id header to continue as a visitor.');
}
