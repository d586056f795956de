import { createHash } from 'node:crypto';
import type { Services } from '../deps';
import { addressLimitKey } from '../http/client-address';
import { refusal } from './quotas';

/** The first pause once an account is being guessed at from everywhere; it doubles from there. */
const FIRST_PAUSE_MS = 500;

/** An attempt counts as a failure unless it is told it succeeded. */
export type AdmittedLogin = { succeeded(): Promise<void> };

/** How long to pause before answering an account that has had `failures` failures in the window. */
export function loginPauseMs(failures: number, config: Pick<Services['config'], 'loginMaxFailures' | 'loginSlowdownMaxMs'>): number {
  const beyond = failures - config.loginMaxFailures;
  if (beyond <= 0) return 0;
  return Math.min(config.loginSlowdownMaxMs, FIRST_PAUSE_MS * 2 ** Math.min(beyond - 1, 20));
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;

/**
 * Admits one password attempt, or refuses it with 429. Failures lock an (account, address) pair,
 * never the account itself, so strangers guessing cannot lock its owner out; one address is held
 * to a looser limit across accounts (an office shares one). An account guessed at from many
 * addresses is only slowed down: every answer for it waits a little longer, up to a few seconds.
 */
export async function admitLoginAttempt(services: Services, username: string, address: string): Promise<AdmittedLogin> {
  const { config, counters, clock } = services;
  // Hashed: a password typed into the account box by mistake never lands in the table.
  const account = createHash('sha256').update(username).digest('hex').slice(0, 32);
  // An IPv6 address counts by its /64: its host can move to another address in it at every guess.
  const from = addressLimitKey(address);
  const pairKey = `login:pair:${account}:${from}`;
  const addressKey = `login:address:${from}`;
  const accountKey = `login:account:${account}`;
  const windowMs = config.loginWindowMs;
  const now = clock.now();

  // Counted before the password is checked, and kept unless it is right: a burst of concurrent
  // guesses cannot all slip in while the first ones are still being verified, since the upsert
  // hands each attempt its own number.
  const counted = await counters.add([
    { key: pairKey, windowMs },
    { key: accountKey, windowMs },
  ]);
  const pair = counted.get(pairKey)!;
  if (pair.count > config.loginMaxFailures) {
    await counters.takeBack([accountKey]);
    throw refusal('Too many failed logins.', pair.resetsAt, now);
  }
  const fromAddress = (await counters.add([{ key: addressKey, windowMs }])).get(addressKey)!;
  if (fromAddress.count > config.loginMaxFailuresPerAddress) {
    await counters.takeBack([pairKey, accountKey]);
    throw refusal('Too many failed logins.', fromAddress.resetsAt, now);
  }

  const failures = counted.get(accountKey)!.count - 1;
  const pause = loginPauseMs(failures, config);
  if (pause > 0) {
    if (isPowerOfTwo(failures - config.loginMaxFailures)) {
      const addresses = await counters.countOpen(`login:pair:${account}:`);
      services.log(`login: slowing down an account after ${failures} failures from ${addresses} addresses`);
    }
    await services.sleep(pause);
  }

  return {
    async succeeded() {
      await counters.forget(pairKey);
      await counters.takeBack([addressKey, accountKey]);
    },
  };
}
