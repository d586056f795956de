import { count, desc, eq } from 'drizzle-orm';
import type { AuditEntry } from '../../src/contract/admin';
import type { Page } from '../../src/contract/paging';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import type { Caller } from '../http/caller';

/** Who did something: a signed-in person from one of their sessions, or the server itself. */
export type Actor = { id: string | null; name: string; sessionId: string | null; companyId: string | null };

export const SCHEDULER_ACTOR: Actor = { id: null, name: 'scheduler', sessionId: null, companyId: null };
export const COMMAND_LINE_ACTOR: Actor = { id: null, name: 'npm run admin', sessionId: null, companyId: null };

export function actorOf(caller: Extract<Caller, { kind: 'user' }>): Actor {
  const { user } = caller;
  return { id: user.id, name: user.nickname || user.username, sessionId: caller.sessionId, companyId: user.companyId };
}

/**
 * Appends one entry to the audit log. The table refuses updates and deletes, so an entry once
 * written stays; `details` holds short strings only (never a secret, a token or a password).
 */
export async function audit(
  db: Db,
  at: Date,
  actor: Actor,
  action: string,
  target: string | null,
  details: Record<string, string> = {},
): Promise<void> {
  await db.insert(auditLog).values({
    at,
    actorId: actor.id,
    actorName: actor.name,
    sessionId: actor.sessionId,
    companyId: actor.companyId,
    action,
    target,
    details,
  });
}

export async function listAudit(db: Db, query: { current: number; pageSize: number; action?: string }): Promise<Page<AuditEntry>> {
  const where = query.action ? eq(auditLog.action, query.action) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.seq))
      .limit(query.pageSize)
      .offset((query.current - 1) * query.pageSize),
    db.select({ value: count() }).from(auditLog).where(where),
  ]);
  return {
    list: rows.map((row) => ({
      id: String(row.seq),
      at: row.at.toISOString(),
      actorId: row.actorId,
      actorName: row.actorName,
      sessionId: row.sessionId,
      action: row.action,
      target: row.target,
      details: row.details,
    })),
    total: total?.value ?? 0,
    current: query.current,
    pageSize: query.pageSize,
  };
}
