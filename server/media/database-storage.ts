import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { storedFileChunks, storedFiles } from '../db/schema';
import { checkKey, readAll, type FileStorage, type PutSource } from './storage';

/** Rows of at most this many bytes: a reader holds one at a time, however large the file. */
export const CHUNK_BYTES = 1024 * 1024;

/** Cuts what is written into CHUNK_BYTES pieces, whether it comes whole or as a stream. */
async function* chunksOf(source: PutSource): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    for (let at = 0; at < source.byteLength; at += CHUNK_BYTES) yield source.subarray(at, at + CHUNK_BYTES);
    return;
  }
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const part of source.stream as AsyncIterable<Buffer>) {
    pending.push(part);
    pendingBytes += part.byteLength;
    while (pendingBytes >= CHUNK_BYTES) {
      const joined = Buffer.concat(pending);
      yield joined.subarray(0, CHUNK_BYTES);
      pending = [joined.subarray(CHUNK_BYTES)];
      pendingBytes = joined.byteLength - CHUNK_BYTES;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

/**
 * PostgreSQL without object storage: the bytes in the database every instance already shares.
 * A file is written in one transaction, so readers see all of it or none of it.
 */
export function createDatabaseStorage(db: Db, prefix: string): FileStorage {
  const keyOf = (key: string) => {
    checkKey(key);
    return `${prefix}${key}`;
  };
  const storage: FileStorage = {
    async put(key, source, contentType) {
      const stored = keyOf(key);
      await db.transaction(async (tx) => {
        await tx.delete(storedFiles).where(eq(storedFiles.key, stored));
        await tx.insert(storedFiles).values({ key: stored, size: 0, contentType });
        let seq = 0;
        let size = 0;
        for await (const bytes of chunksOf(source)) {
          await tx.insert(storedFileChunks).values({ key: stored, seq, bytes });
          seq += 1;
          size += bytes.byteLength;
        }
        await tx.update(storedFiles).set({ size }).where(eq(storedFiles.key, stored));
      });
    },
    async get(key) {
      const object = await storage.open(key);
      return object ? readAll(object.body) : null;
    },
    async stat(key) {
      const [file] = await db.select().from(storedFiles).where(eq(storedFiles.key, keyOf(key))).limit(1);
      return file ? { size: file.size, contentType: file.contentType } : null;
    },
    async open(key) {
      const stored = keyOf(key);
      const [file] = await db.select().from(storedFiles).where(eq(storedFiles.key, stored)).limit(1);
      if (!file) return null;
      let seq = 0;
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const [chunk] = await db
            .select({ bytes: storedFileChunks.bytes })
            .from(storedFileChunks)
            .where(and(eq(storedFileChunks.key, stored), eq(storedFileChunks.seq, seq)))
            .limit(1);
          seq += 1;
          if (chunk) {
            sent += chunk.bytes.byteLength;
            controller.enqueue(new Uint8Array(chunk.bytes));
          } else if (sent < file.size) {
            // Deleted while being read: a short download must not pass for a whole one.
            controller.error(new Error(`stored file ${stored} went away while it was being read`));
          } else controller.close();
        },
        // Read a row only when the reader asks for it: a slow download holds one chunk, no more.
      }, { highWaterMark: 0 });
      return { body, size: file.size, contentType: file.contentType };
    },
    async delete(key) {
      await db.delete(storedFiles).where(eq(storedFiles.key, keyOf(key)));
    },
  };
  return storage;
}
