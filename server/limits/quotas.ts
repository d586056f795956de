import { tooManyRequests, type ApiError } from '../http/errors';
import type { Counters } from './counters';

/** A limit on how much one identity or address may spend in a window, e.g. 20 questions a minute. */
export type Quota = {
  key: string;
  limit: number;
  windowMs: number;
  /** How a person reads the limit: "20 questions a minute for a visitor". */
  name: string;
};

/** `<sentence> Please wait N seconds and try again.`, with N in Retry-After too. */
export function refusal(sentence: string, resetsAt: Date, now: Date): ApiError {
  const seconds = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
  return tooManyRequests(`${sentence} Please wait ${seconds} seconds and try again.`, seconds);
}

/**
 * Spends `amount` against every quota, or against none: each is added to only if it stays within
 * its limit (one statement, see `Counters.spend`); when one of them has no room, what the others
 * just counted is given back and the request is refused with the quota that frees up last.
 */
export async function spend(counters: Counters, quotas: readonly Quota[], amount: number, now: Date): Promise<void> {
  const tallies = await counters.spend(quotas, amount);
  const refused = quotas
    .map((quota) => ({ quota, tally: tallies.get(quota.key)! }))
    .filter(({ tally }) => !tally.spent)
    .sort((a, b) => b.tally.resetsAt.getTime() - a.tally.resetsAt.getTime());
  if (refused.length === 0) return;
  await counters.takeBack(
    quotas.filter((quota) => tallies.get(quota.key)!.spent).map((quota) => quota.key),
    amount,
  );
  const [{ quota, tally }] = refused as [(typeof refused)[number]];
  throw refusal(`You have reached the limit of ${quota.name}.`, tally.resetsAt, now);
}

/** Spends one against every quota, then does `work`; what it failed at (a refused input) is given back. */
export async function spendOnce<T>(counters: Counters, quotas: readonly Quota[], now: Date, work: () => Promise<T>): Promise<T> {
  await spend(counters, quotas, 1, now);
  try {
    return await work();
  } catch (error) {
    await counters.takeBack(quotas.map((quota) => quota.key));
    throw error;
  }
}

/** Counts one attempt at something limited per window (not only failures), refusing it past the limit. */
export async function countAttempt(counters: Counters, quota: Omit<Quota, 'name'>, sentence: string, now: Date): Promise<void> {
  const tally = (await counters.add([quota])).get(quota.key)!;
  if (tally.count > quota.limit) throw refusal(sentence, tally.resetsAt, now);
}
