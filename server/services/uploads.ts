import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql, sum } from 'drizzle-orm';
import type { FileRef } from '../../src/contract/media';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { uploads, type StoredFileRef } from '../db/schema';
import type { Owner } from '../http/caller';
import { ApiError, tooManyRequests } from '../http/errors';
import { identityLockKey } from '../limits/identity-quotas';
import { withoutUnsafeChars } from '../http/unsafe-chars';
import { sniff } from '../media/sniff';
import type { FileStorage } from '../media/storage';
import { ownedBy, ownerColumns } from './ownership';

export type UploadRow = typeof uploads.$inferSelect;

export const fileUrl = (fileId: string) => `/api/media/file/${fileId}`;

export const toFileRef = (row: UploadRow): FileRef => ({
  fileId: row.id,
  name: cleanFileName(row.name),
  url: fileUrl(row.id),
  kind: row.kind,
  mimeType: row.mimeType,
  size: row.size,
});

/** A display name, in lists and downloads: no path, no control or bidi characters, at most 255 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = withoutUnsafeChars(base).trim();
  return [...(cleaned || 'file')].slice(0, 255).join('');
}

export async function storeUpload(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  owner: Owner,
  file: { name: string; bytes: Uint8Array },
  /** How much the owner may keep stored in all; none for what the server stores itself (avatars). */
  stored?: { limit: number; name: string },
): Promise<FileRef> {
  const id = randomUUID();
  const { kind, mimeType } = sniff(file.bytes);
  await storage.put(id, file.bytes, mimeType);
  return recordUpload(db, storage, clock, owner, { id, name: file.name, kind, mimeType, size: file.bytes.byteLength }, stored);
}

/**
 * Records bytes already stored under `file.id` as the owner's upload, within what they may keep
 * stored; when it cannot, the bytes are deleted and the refusal thrown.
 */
export async function recordUpload(
  db: Db,
  storage: FileStorage,
  clock: Clock,
  owner: Owner,
  file: { id: string; name: string; kind: FileRef['kind']; mimeType: string; size: number },
  stored?: { limit: number; name: string },
): Promise<FileRef> {
  try {
    const [row] = await db.transaction(async (tx) => {
      if (stored) await refuseOverStoredLimit(tx as unknown as Db, owner, file.size, stored);
      return tx
        .insert(uploads)
        .values({
          id: file.id,
          ...ownerColumns(owner),
          name: cleanFileName(file.name),
          kind: file.kind,
          mimeType: file.mimeType,
          size: file.size,
          storageKey: file.id,
          createdAt: clock.now(),
        })
        .returning();
    });
    return toFileRef(row!);
  } catch (error) {
    await storage.delete(file.id).catch(() => {});
    throw error;
  }
}

/** Stored files are kept until deleted: freeing room takes days, not seconds, so say a day. */
const STORED_RETRY_SECONDS = 24 * 3600;

/**
 * Refuses an upload that would take the owner past what they may keep stored. The advisory lock
 * (held until the transaction ends) makes one owner's concurrent uploads add up one at a time.
 */
async function refuseOverStoredLimit(tx: Db, owner: Owner, size: number, stored: { limit: number; name: string }): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${identityLockKey('stored', owner)}, 0))`);
  await refuseIfStoredOver(tx, owner, size, stored);
}

/**
 * Refuses when `size` more bytes would take the owner past what they may keep stored; alone (no
 * lock), it refuses an upload early, before its body is read.
 */
export async function refuseIfStoredOver(db: Db, owner: Owner, size: number, stored: { limit: number; name: string }): Promise<void> {
  const [row] = await db.select({ bytes: sum(uploads.size) }).from(uploads).where(ownedBy(uploads, owner));
  if (Number(row?.bytes ?? 0) + size > stored.limit) {
    throw tooManyRequests(
      `You have reached the limit of ${stored.name}. Please wait ${STORED_RETRY_SECONDS} seconds and try again.`,
      STORED_RETRY_SECONDS,
    );
  }
}

export async function findUpload(db: Db, fileId: string): Promise<UploadRow | undefined> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, fileId)).limit(1);
  return row;
}

/**
 * The stored references for files a sender attaches: each must be the sender's own upload.
 * What the client says about a file (name, kind, url) is ignored in favour of what was stored.
 */
export async function resolveOwnFiles(db: Db, owner: Owner, refs: { fileId: string }[]): Promise<StoredFileRef[]> {
  if (refs.length === 0) return [];
  const ids = [...new Set(refs.map((r) => r.fileId))];
  const rows = await db
    .select()
    .from(uploads)
    .where(and(inArray(uploads.id, ids), ownedBy(uploads, owner)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new ApiError(404, `Attached file not found among your uploads: ${id}`);
    return toFileRef(row);
  });
}
