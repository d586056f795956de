import { randomUUID } from 'node:crypto';
import { and, eq, inArray, or, sql, sum, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FileRef } from '../../src/contract/media';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { conversations, messages, tasks, uploads, users, type StoredFileRef } from '../db/schema';
import type { Owner } from '../http/caller';
import { ApiError, notFound, tooManyRequests } from '../http/errors';
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

/** What deleting uploads needs: the bytes' store, and where to say what could not be removed. */
export type UploadDeletion = { db: Db; storage: FileStorage; log: (line: string) => void };

/** Rows whose jsonb list of file references holds one of these ids. */
const refersToAny = (column: PgColumn, ids: string[]): SQL =>
  or(...ids.map((id) => sql`${column} @> ${JSON.stringify([{ fileId: id }])}::jsonb`))!;

/** Of these uploads, the ones still used: by one of the owner's messages, a task's images, or an avatar. */
async function stillUsed(db: Db, owner: Owner, ids: string[]): Promise<Set<string>> {
  const wanted = new Set(ids);
  const [attached, pictured, avatars] = await Promise.all([
    db
      .select({ files: messages.files })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(and(ownedBy(conversations, owner), refersToAny(messages.files, ids))),
    db.select({ images: tasks.images }).from(tasks).where(refersToAny(tasks.images, ids)),
    db.select({ avatar: users.avatar }).from(users).where(inArray(users.avatar, ids.map(fileUrl))),
  ]);
  const used = [
    ...attached.flatMap((row) => row.files.map((file) => file.fileId)),
    ...pictured.flatMap((row) => row.images.map((image) => image.fileId)),
    ...avatars.map((row) => row.avatar.slice(fileUrl('').length)),
  ];
  return new Set(used.filter((id) => wanted.has(id)));
}

/**
 * Deletes the owner's uploads among `ids` (their rows, their text, then their bytes), except
 * those still used elsewhere; what they took counts no more against what the owner may keep.
 */
export async function deleteUnusedUploads(deps: UploadDeletion, owner: Owner, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const used = await stillUsed(deps.db, owner, ids);
  await deleteUploads(deps, owner, ids.filter((id) => !used.has(id)));
}

/** Deletes one of the owner's uploads, wherever it is used; 404 for anyone else's. */
export async function deleteOwnUpload(deps: UploadDeletion, owner: Owner, fileId: string): Promise<void> {
  if ((await deleteUploads(deps, owner, [fileId])) === 0) throw notFound('File');
}

async function deleteUploads(deps: UploadDeletion, owner: Owner, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const gone = await deps.db
    .delete(uploads)
    .where(and(inArray(uploads.id, ids), ownedBy(uploads, owner)))
    .returning({ id: uploads.id, key: uploads.storageKey });
  for (const file of gone) {
    await deps.storage.delete(file.key).catch((error: unknown) => deps.log(`uploads: the bytes of deleted upload ${file.id} could not be removed: ${(error as Error).message}`));
  }
  return gone.length;
}
