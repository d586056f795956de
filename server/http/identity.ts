import type { users } from '../db/schema';

// Who is calling and who owns what, as types alone: a module any service can name them from
// without reaching the request code (server/http/caller.ts) and what it depends on.

export type UserRow = typeof users.$inferSelect;

/** Who is calling: a signed-in user, a visitor known by the X-Visitor-Id header, or nobody. */
export type Caller =
  /** `sessionId` is the session's public id (see the sessions calls), `tokenHash` its key. */
  | { kind: 'user'; user: UserRow; tokenHash: string; sessionId: string }
  | { kind: 'visitor'; visitorId: string }
  | { kind: 'anonymous' };

/** Who owns a conversation or an upload. */
export type Owner = { userId: string; visitorId?: undefined } | { visitorId: string; userId?: undefined };
