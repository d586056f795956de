import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { LoginResult } from '../../src/contract/auth';
import type { ScanStatus, ScanTicket } from '../../src/contract/wechat';
import { scanTickets, users } from '../db/schema';
import type { Services } from '../deps';
import { ApiError, notFound } from '../http/errors';
import { finishLogin } from '../services/auth';

/** A confirmation that arrives just before the expiry can still be collected this long after it. */
export const COLLECT_GRACE_MS = 60 * 1000;
/** Tickets are deleted this long after they expired. */
const KEEP_EXPIRED_MS = 60 * 60 * 1000;

const hashFingerPrint = (fingerPrint: string) => createHash('sha256').update(fingerPrint).digest('base64url');

type TicketRow = typeof scanTickets.$inferSelect;

/** Opens a ticket for the browser holding `fingerPrint`; only that browser can collect the login. */
export async function openScanTicket(services: Services, fingerPrint: string): Promise<ScanTicket> {
  const now = services.clock.now();
  await services.db.delete(scanTickets).where(lt(scanTickets.expiresAt, new Date(now.getTime() - KEEP_EXPIRED_MS)));
  const id = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + services.config.scanTicketTtlMs);
  await services.db.insert(scanTickets).values({
    id,
    fingerPrint: hashFingerPrint(fingerPrint),
    status: 'waiting',
    createdAt: now,
    expiresAt,
  });
  return { id, expiresAt: expiresAt.toISOString() };
}

/** The ticket, only for the browser that opened it; anyone else is told it does not exist. */
async function ownTicket(services: Services, id: string, fingerPrint: string): Promise<TicketRow> {
  const [row] = await services.db.select().from(scanTickets).where(eq(scanTickets.id, id)).limit(1);
  if (!row || row.fingerPrint !== hashFingerPrint(fingerPrint)) throw notFound('Scan id');
  return row;
}

const collectable = (row: TicketRow, now: Date) =>
  row.status === 'confirmed' && now.getTime() < row.expiresAt.getTime() + COLLECT_GRACE_MS;

/** Marks a confirmed ticket used, once (whoever comes second finds it consumed), and logs its user in. */
async function consume(services: Services, row: TicketRow, visitorId: string | undefined): Promise<LoginResult | null> {
  const [taken] = await services.db
    .update(scanTickets)
    .set({ status: 'consumed' })
    .where(and(eq(scanTickets.id, row.id), eq(scanTickets.status, 'confirmed')))
    .returning({ userId: scanTickets.userId });
  if (!taken?.userId) return null;
  const [user] = await services.db.select().from(users).where(eq(users.id, taken.userId)).limit(1);
  if (!user) return null;
  return finishLogin(services, user, visitorId);
}

/**
 * Where a ticket stands for the browser polling it: waiting, expired (also once used), or
 * confirmed, which answers the token and the user exactly once.
 */
export async function checkScanTicket(
  services: Services,
  input: { id: string; fingerPrint: string; visitorId?: string },
): Promise<ScanStatus> {
  const now = services.clock.now();
  const row = await ownTicket(services, input.id, input.fingerPrint);
  if (row.status === 'waiting' && now < row.expiresAt) return { status: 'waiting' };
  if (collectable(row, now)) {
    const login = await consume(services, row, input.visitorId);
    if (login) return { status: 'confirmed', ...login };
  }
  return { status: 'expired' };
}

/** Logs in with a confirmed ticket (the alternative to collecting it from validate-login). */
export async function loginWithScanTicket(
  services: Services,
  input: { scanid: string; fingerPrint: string; visitorId?: string },
): Promise<LoginResult> {
  const now = services.clock.now();
  const row = await ownTicket(services, input.scanid, input.fingerPrint);
  if (row.status === 'waiting' && now < row.expiresAt) {
    throw new ApiError(409, 'The scan code has not been confirmed yet.');
  }
  const login = collectable(row, now) ? await consume(services, row, input.visitorId) : null;
  if (!login) throw notFound('Scan id');
  return login;
}
