import { tooManyRequests } from '../http/errors';

/**
 * Counts failures per key in a sliding window. Kept in memory: a restart forgets them, which is
 * acceptable for one reference server; several instances would need a shared store.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** Milliseconds until the key may try again; 0 when it may try now. */
  blockedFor(key: string, now: number): number {
    const list = this.recent(key, now);
    if (list.length < this.maxFailures) return 0;
    return this.windowMs - (now - list[list.length - this.maxFailures]!);
  }

  fail(key: string, now: number): void {
    this.failures.set(key, [...this.recent(key, now), now]);
  }

  /** Takes back one failure recorded at `at` (an attempt counted up front that succeeded). */
  forgive(key: string, at: number): void {
    const list = this.failures.get(key);
    const index = list?.indexOf(at) ?? -1;
    if (!list || index < 0) return;
    list.splice(index, 1);
    if (list.length === 0) this.failures.delete(key);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}

/** One limiter and the key an attempt counts under in it. */
export type Limit = readonly [FailureLimiter, string];

/** Refuses with 429 while any of the limits is reached: `<what> Please wait N seconds and try again.` */
export function refuseWhileBlocked(limits: readonly Limit[], now: number, what: string): void {
  const waitMs = Math.max(...limits.map(([limiter, key]) => limiter.blockedFor(key, now)));
  if (waitMs > 0) throw tooManyRequests(`${what} Please wait ${Math.ceil(waitMs / 1000)} seconds and try again.`);
}

/** Counts one attempt against a limit of attempts (not only failures), refusing it once the limit is reached. */
export function countAttempt(limit: Limit, now: number, what: string): void {
  refuseWhileBlocked([limit], now, what);
  limit[0].fail(limit[1], now);
}
