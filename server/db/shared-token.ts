import { and, eq, gt, sql } from 'drizzle-orm';
import type { Clock } from '../config';
import type { Db } from './client';
import { providerTokens } from './schema';

/** A credential as a provider hands it out: the value and how long it says it lives. */
export type FreshToken = { value: string; expiresInSeconds: number };

/**
 * One credential shared by every instance on the database (table provider_tokens): any instance
 * reads the stored value while it is valid; when it is not, one instance at a time fetches a new
 * one under a transaction-level advisory lock, and the others, once they get the lock, find it
 * stored and use it. Providers that keep only the newest token (WeChat) are thus asked once,
 * not once per instance, and no instance revokes another's token.
 */
export type SharedToken = {
  /** The stored value while it is valid, else null. */
  read(): Promise<string | null>;
  /**
   * A valid value: the stored one, or one fetched now by `fetchFresh` under the lock. With
   * `unless`, a stored value equal to it counts as stale (the provider refused it), so it is
   * replaced, unless another instance replaced it first. `fetchFresh` runs inside a transaction:
   * it must not query the database (the embedded database has one connection).
   */
  refresh(fetchFresh: () => Promise<FreshToken>, unless?: string): Promise<string>;
  forget(): Promise<void>;
};

export function sharedToken(db: Db, clock: Clock, key: string, options: { expiryMarginMs: number }): SharedToken {
  return {
    async read() {
      const [row] = await db
        .select({ value: providerTokens.value })
        .from(providerTokens)
        .where(and(eq(providerTokens.key, key), gt(providerTokens.expiresAt, clock.now())))
        .limit(1);
      return row?.value ?? null;
    },

    refresh(fetchFresh, unless) {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`provider-token:${key}`}, 0))`);
        const [row] = await tx
          .select({ value: providerTokens.value, expiresAt: providerTokens.expiresAt })
          .from(providerTokens)
          .where(eq(providerTokens.key, key))
          .limit(1);
        const now = clock.now();
        if (row && row.expiresAt > now && row.value !== unless) return row.value;
        const fresh = await fetchFresh();
        const expiresAt = new Date(now.getTime() + Math.max(0, fresh.expiresInSeconds * 1000 - options.expiryMarginMs));
        await tx
          .insert(providerTokens)
          .values({ key, value: fresh.value, expiresAt, updatedAt: now })
          .onConflictDoUpdate({ target: providerTokens.key, set: { value: fresh.value, expiresAt, updatedAt: now } });
        return fresh.value;
      });
    },

    async forget() {
      await db.delete(providerTokens).where(eq(providerTokens.key, key));
    },
  };
}
