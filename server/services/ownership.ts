import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Owner } from '../http/caller';

type OwnedTable = { ownerUserId: PgColumn; ownerVisitorId: PgColumn };

/** Rows owned by exactly this owner: a user's, or a visitor's not yet adopted by an account. */
export function ownedBy(table: OwnedTable, owner: Owner): SQL {
  return owner.userId !== undefined
    ? eq(table.ownerUserId, owner.userId)
    : and(eq(table.ownerVisitorId, owner.visitorId), isNull(table.ownerUserId))!;
}

export const ownerColumns = (owner: Owner) => ({
  ownerUserId: owner.userId ?? null,
  ownerVisitorId: owner.visitorId ?? null,
});
