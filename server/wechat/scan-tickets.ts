import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { LoginResult } from '../../src/contract/auth';
import type { ScanApproval } from '../../src/contract/users';
import type { ScanStatus, ScanTicket } from '../../src/contract/wechat';
import { scanTickets, users } from '../db/schema';
import type { Services } from '../deps';
import type { UserRow } from '../http/caller';
import { ApiError, notFound } from '../http/errors';
import { describeUserAgent } from '../http/user-agent';
import { finishLogin } from '../services/auth';
import type { SignInOrigin } from '../services/sessions';

/** A confirmation that arrives just before the expiry can still be collected this long after it. */
export const COLLECT_GRACE_MS = 60 * 1000;
/** Tickets are deleted this long after they expired. */
const KEEP_EXPIRED_MS = 60 * 60 * 1000;

export const SCAN_EXPIRED_MSG = 'This login code has expired. Ask for a new code on the other device.';
export const SCAN_DECIDED_MSG = 'This login code was already answered.';
export const SCAN_DENIED_MSG = 'The login was declined on the other device.';

const hashFingerPrint = (fingerPrint: string) => createHash('sha256').update(fingerPrint).digest('base64url');

type TicketRow = typeof scanTickets.$inferSelect;

/**
 * Opens a ticket for the browser holding `fingerPrint`; only that browser can collect the login.
 * Its browser and address are kept so the person asked to approve can see who is asking.
 */
export async function openScanTicket(services: Services, fingerPrint: string, origin: SignInOrigin): Promise<ScanTicket> {
  const now = services.clock.now();
  await services.db.delete(scanTickets).where(lt(scanTickets.expiresAt, new Date(now.getTime() - KEEP_EXPIRED_MS)));
  const id = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + services.config.scanTicketTtlMs);
  await services.db.insert(scanTickets).values({
    id,
    fingerPrint: hashFingerPrint(fingerPrint),
    status: 'waiting',
    userAgent: origin.userAgent,
    address: origin.address,
    createdAt: now,
    expiresAt,
  });
  return { id, expiresAt: expiresAt.toISOString() };
}

async function ticketById(services: Services, id: string): Promise<TicketRow | undefined> {
  const [row] = await services.db.select().from(scanTickets).where(eq(scanTickets.id, id)).limit(1);
  return row;
}

/** The ticket, only for the browser that opened it; anyone else is told it does not exist. */
async function ownTicket(services: Services, id: string, fingerPrint: string): Promise<TicketRow> {
  const row = await ticketById(services, id);
  if (!row || row.fingerPrint !== hashFingerPrint(fingerPrint)) throw notFound('Scan id');
  return row;
}

const collectable = (row: TicketRow, now: Date) =>
  row.status === 'confirmed' && now.getTime() < row.expiresAt.getTime() + COLLECT_GRACE_MS;

/** Marks a confirmed ticket used, once (whoever comes second finds it consumed), and logs its user in. */
async function consume(
  services: Services,
  row: TicketRow,
  visitorId: string | undefined,
  origin: SignInOrigin,
): Promise<LoginResult | null> {
  const [taken] = await services.db
    .update(scanTickets)
    .set({ status: 'consumed' })
    .where(and(eq(scanTickets.id, row.id), eq(scanTickets.status, 'confirmed')))
    .returning({ userId: scanTickets.userId });
  if (!taken?.userId) return null;
  const [user] = await services.db.select().from(users).where(eq(users.id, taken.userId)).limit(1);
  if (!user) return null;
  return finishLogin(services, user, visitorId, origin);
}

/**
 * Where a ticket stands for the browser polling it: waiting, denied, expired (also once used), or
 * confirmed, which answers the token and the user exactly once.
 */
export async function checkScanTicket(
  services: Services,
  input: { id: string; fingerPrint: string; visitorId?: string; origin: SignInOrigin },
): Promise<ScanStatus> {
  const now = services.clock.now();
  const row = await ownTicket(services, input.id, input.fingerPrint);
  if (row.status === 'waiting' && now < row.expiresAt) return { status: 'waiting' };
  if (row.status === 'denied') return { status: 'denied' };
  if (collectable(row, now)) {
    const login = await consume(services, row, input.visitorId, input.origin);
    if (login) return { status: 'confirmed', ...login };
  }
  return { status: 'expired' };
}

/** Logs in with a confirmed ticket (the alternative to collecting it from validate-login). */
export async function loginWithScanTicket(
  services: Services,
  input: { scanid: string; fingerPrint: string; visitorId?: string; origin: SignInOrigin },
): Promise<LoginResult> {
  const now = services.clock.now();
  const row = await ownTicket(services, input.scanid, input.fingerPrint);
  if (row.status === 'waiting' && now < row.expiresAt) {
    throw new ApiError(409, 'The scan code has not been confirmed yet.');
  }
  if (row.status === 'denied') throw new ApiError(403, SCAN_DENIED_MSG);
  const login = collectable(row, now) ? await consume(services, row, input.visitorId, input.origin) : null;
  if (!login) throw notFound('Scan id');
  return login;
}

/** A decided ticket reads as decided only to whoever decided; everyone else learns nothing of it. */
function decisionFor(row: TicketRow, user: UserRow, now: Date): ScanApproval['status'] {
  if (row.status === 'waiting') return now < row.expiresAt ? 'waiting' : 'expired';
  if (row.userId !== user.id) return 'expired';
  if (row.status === 'denied') return 'denied';
  return row.status === 'confirmed' || row.status === 'consumed' ? 'approved' : 'expired';
}

/** What the signed-in person sees before approving: which browser asks, from where, until when. */
export async function describeScanTicket(services: Services, user: UserRow, scanId: string): Promise<ScanApproval> {
  const row = await ticketById(services, scanId);
  if (!row) throw notFound('Scan id');
  return {
    status: decisionFor(row, user, services.clock.now()),
    device: describeUserAgent(row.userAgent),
    address: row.address ?? '',
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * Approves or declines a waiting, unexpired ticket: only ever from a person's click on the
 * approval page, never from opening a link. Records who decided, from which session, and when.
 */
export async function decideScanTicket(
  services: Services,
  decider: { user: UserRow; sessionId: string },
  scanId: string,
  decision: 'confirmed' | 'denied',
): Promise<void> {
  const now = services.clock.now();
  const decided = await services.db
    .update(scanTickets)
    .set({ status: decision, userId: decider.user.id, decidedAt: now, decidedBySession: decider.sessionId })
    .where(and(eq(scanTickets.id, scanId), eq(scanTickets.status, 'waiting'), gt(scanTickets.expiresAt, now)))
    .returning({ id: scanTickets.id });
  if (decided.length > 0) {
    // The deciding session is kept on the ticket; its id, like the ticket's, stays out of the log.
    services.log(`scan login ${decision === 'confirmed' ? 'approved' : 'declined'} by user ${decider.user.id}`);
    return;
  }
  const row = await ticketById(services, scanId);
  if (!row) throw notFound('Scan id');
  if (row.status === 'waiting') throw new ApiError(410, SCAN_EXPIRED_MSG);
  throw new ApiError(409, SCAN_DECIDED_MSG);
}
