import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import type { Caller, Owner } from '../http/identity';
import { tooManyRequests } from '../http/errors';
import { metrics } from '../observability/metrics';

/** One open answer or resume stream: `ended` fires when its session is signed out; `close` frees its place. */
export type StreamSlot = { ended: AbortSignal; close(): void };

/**
 * The answer and resume streams open on this instance. Each identity may hold a few at once;
 * a stream of a signed-in caller ends soon after its session does (logout, a revocation from
 * the account page, the console or a password change, on any instance): the sessions of the
 * open streams are read again every `checkMs`, in one query, and at once after a sign-out here.
 */
export type OpenStreams = {
  /** A place for one more stream of the caller; 429 with Retry-After past `perIdentity`. */
  open(caller: Caller, owner: Owner): StreamSlot;
  /** Reads the open streams' sessions now and ends those signed out. */
  recheck(): Promise<void>;
};

type Entry = { identity: string; tokenHash: string | null; controller: AbortController };

/** How long a refused stream is asked to wait: a place frees as soon as one of the caller's streams ends. */
const RETRY_AFTER_SECONDS = 5;

const identityOf = (owner: Owner) => (owner.userId !== undefined ? `user:${owner.userId}` : `visitor:${owner.visitorId}`);

export function createOpenStreams(db: Db, clock: Clock, limits: { perIdentity: number; checkMs: number }): OpenStreams {
  const open = new Set<Entry>();
  const perIdentity = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let checking: Promise<void> | null = null;

  const signedIn = () => [...open].filter((entry) => entry.tokenHash !== null);

  async function check(): Promise<void> {
    const watched = signedIn();
    if (watched.length === 0) return;
    const hashes = [...new Set(watched.map((entry) => entry.tokenHash!))];
    const rows = await db
      .select({ tokenHash: sessions.tokenHash })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(inArray(sessions.tokenHash, hashes), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now()), isNull(users.disabledAt)));
    const live = new Set(rows.map((row) => row.tokenHash));
    for (const entry of watched) if (!live.has(entry.tokenHash!)) entry.controller.abort();
  }

  /** One check at a time; a sign-out during a check is read by the next one. */
  const recheck = async (): Promise<void> => {
    while (checking) await checking;
    checking = check().finally(() => (checking = null));
    return checking;
  };

  const watch = () => {
    if (timer || signedIn().length === 0) return;
    timer = setInterval(() => void recheck().catch(() => {}), limits.checkMs);
    timer.unref?.();
  };
  const unwatch = () => {
    if (!timer || signedIn().length > 0) return;
    clearInterval(timer);
    timer = null;
  };

  return {
    open(caller, owner) {
      const identity = identityOf(owner);
      const count = perIdentity.get(identity) ?? 0;
      if (count >= limits.perIdentity) {
        throw tooManyRequests(
          `You have ${limits.perIdentity} answer streams open, the most one person may have at once. Close one, or wait ${RETRY_AFTER_SECONDS} seconds and try again.`,
          RETRY_AFTER_SECONDS,
        );
      }
      const entry: Entry = { identity, tokenHash: caller.kind === 'user' ? caller.tokenHash : null, controller: new AbortController() };
      open.add(entry);
      perIdentity.set(identity, count + 1);
      metrics.streamOpened();
      watch();
      let closed = false;
      return {
        ended: entry.controller.signal,
        close() {
          if (closed) return;
          closed = true;
          metrics.streamClosed();
          open.delete(entry);
          const left = (perIdentity.get(identity) ?? 1) - 1;
          if (left > 0) perIdentity.set(identity, left);
          else perIdentity.delete(identity);
          unwatch();
        },
      };
    },
    recheck,
  };
}
