import { and, eq, isNull, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Owner } from '../http/caller';
import { slot } from '../db/prebuilt';

type OwnedTable = { ownerUserId: PgColumn; ownerVisitorId: PgColumn };

/** Whose rows: a user's, or a visitor's. */
export type OwnerKind = 'user' | 'visitor';

export const ownerKindOf = (owner: Owner): OwnerKind => (owner.userId !== undefined ? 'user' : 'visitor');
/** The user's id or the visitor's, whichever the owner is. */
export const ownerIdOf = (owner: Owner): string => owner.userId ?? owner.visitorId;

/** Rows owned by the owner of this kind and id: a user's, or a visitor's not yet adopted by an account. */
const ownedByKind = (table: OwnedTable, kind: OwnerKind, id: string | SQLWrapper): SQL =>
  kind === 'user' ? eq(table.ownerUserId, id) : and(eq(table.ownerVisitorId, id), isNull(table.ownerUserId))!;

/** Rows owned by exactly this owner: a user's, or a visitor's not yet adopted by an account. */
export const ownedBy = (table: OwnedTable, owner: Owner): SQL => ownedByKind(table, ownerKindOf(owner), ownerIdOf(owner));

/** `ownedBy` in a prebuilt statement: the owner's id is its `ownerId` slot (`ownerIdOf`). */
export const ownedBySlot = (table: OwnedTable, kind: OwnerKind): SQL => ownedByKind(table, kind, slot('ownerId'));

export const ownerColumns = (owner: Owner) => ({
  ownerUserId: owner.userId ?? null,
  ownerVisitorId: owner.visitorId ?? null,
});
