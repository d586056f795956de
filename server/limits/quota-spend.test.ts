import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors';
import { testClock } from '../test/harness';
import { openSharedTestDb } from '../test/test-db';
import { createCounters, type Counters } from './counters';
import { spend, type Quota } from './quotas';

/**
 * Quotas spent by bursts of requests at once, on two instances over one database (on PostgreSQL
 * two connection pools, as two server processes have): what fits is always let through, what
 * does not is refused with 429 and leaves nothing counted, whatever the interleaving.
 */

const DAY = 24 * 60 * 60 * 1000;

let shared: Awaited<ReturnType<typeof openSharedTestDb>>;
let instances: [Counters, Counters];
const clock = testClock();
beforeAll(async () => {
  shared = await openSharedTestDb();
  instances = [createCounters(shared.a.db, clock), createCounters(shared.b.db, clock)];
});
afterAll(() => shared.close());

let n = 0;
/** A visitor's day and their address's, as an upload spends them: fresh keys for each test. */
function uploadDay(visitorLimit: number, addressLimit: number): Quota[] {
  n += 1;
  return [
    { key: `spend-test:${n}:visitor`, limit: visitorLimit, windowMs: DAY, name: `${visitorLimit} bytes a day for a visitor` },
    { key: `spend-test:${n}:address`, limit: addressLimit, windowMs: DAY, name: `${addressLimit} bytes a day from one address` },
  ];
}

/** Spends `amounts` all at once, alternating instances; answers which were let through and which refused with 429. */
async function burst(quotas: Quota[], amounts: number[]) {
  const outcomes = await Promise.allSettled(amounts.map((amount, index) => spend(instances[index % 2]!, quotas, amount, clock.now())));
  const others = outcomes.filter((outcome) => outcome.status === 'rejected' && !(outcome.reason instanceof ApiError && outcome.reason.status === 429));
  expect(others.map((outcome) => String((outcome as PromiseRejectedResult).reason))).toEqual([]);
  return {
    through: amounts.filter((_, index) => outcomes[index]!.status === 'fulfilled'),
    refused: amounts.filter((_, index) => outcomes[index]!.status === 'rejected'),
  };
}

const total = async (quota: Quota) => (await instances[0].read(quota.key))?.count ?? 0;

describe('spending a quota under a burst', () => {
  it('lets exactly as many through as fit when 40 equal spends arrive at once, and counts no more', async () => {
    const quotas = uploadDay(100, 1000);
    const { through, refused } = await burst(quotas, Array.from({ length: 40 }, () => 7));
    expect(through).toHaveLength(14);
    expect(refused).toHaveLength(26);
    expect(await total(quotas[0]!)).toBe(98);
    expect(await total(quotas[1]!)).toBe(98);
  });

  it('never refuses a spend that fits because of others being refused at the same moment', async () => {
    const quotas = uploadDay(100, 1000);
    await spend(instances[0], quotas, 90, clock.now());
    // 40 spends that can never fit race 10 that all fit, exactly, together.
    const amounts = Array.from({ length: 50 }, (_, index) => (index % 5 === 0 ? 1 : 20));
    const { through, refused } = await burst(quotas, amounts);
    expect(through).toEqual(Array.from({ length: 10 }, () => 1));
    expect(refused).toHaveLength(40);
    expect(await total(quotas[0]!)).toBe(100);
    expect(await total(quotas[1]!)).toBe(100);
  });

  it('spends against every quota or none: what one quota refuses is not left counted in the other', async () => {
    const quotas = uploadDay(1000, 100);
    const { through } = await burst(quotas, Array.from({ length: 30 }, () => 30));
    expect(through).toHaveLength(3);
    expect(await total(quotas[0]!)).toBe(90);
    expect(await total(quotas[1]!)).toBe(90);
    // the window's end is told, and a new window has room again
    await expect(spend(instances[1], quotas, 30, clock.now())).rejects.toMatchObject({
      status: 429,
      retryAfterSeconds: DAY / 1000,
      message: expect.stringMatching(/^You have reached the limit of 100 bytes a day from one address\./),
    });
    clock.advance(DAY);
    await spend(instances[1], quotas, 100, clock.now());
    expect(await total(quotas[0]!)).toBe(100);
  });

  it('refuses a spend larger than the whole quota without counting it', async () => {
    const quotas = uploadDay(100, 1000);
    await expect(spend(instances[0], quotas, 101, clock.now())).rejects.toMatchObject({ status: 429 });
    expect(await total(quotas[0]!)).toBe(0);
    expect(await total(quotas[1]!)).toBe(0);
  });
});
