import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A stored file opened for reading: its bytes come as they are read, never all at once. */
export type StoredObject = { body: ReadableStream<Uint8Array>; size: number; contentType: string };

/**
 * What is written: bytes in memory, or a stream, of a known size (an installer) or not (an upload
 * as it arrives; a store that must know the size first collects it).
 */
export type PutSource = Uint8Array | { stream: Readable; size?: number };

/**
 * Where file bytes live; the database keeps only uploads' metadata and key. One store holds one
 * area (uploads, or the desktop downloads). Keys are made by the server (an upload's id, an
 * installer's checked name), never taken from what a user typed.
 */
export interface FileStorage {
  put(key: string, source: PutSource, contentType: string): Promise<void>;
  /** The whole file (publishing connectors send images in one piece); null when nothing is stored. */
  get(key: string): Promise<Uint8Array | null>;
  /** Size and type without the bytes; null when nothing is stored. */
  stat(key: string): Promise<{ size: number; contentType: string } | null>;
  /** The file as a stream with its size and type; null when nothing is stored. */
  open(key: string): Promise<StoredObject | null>;
  /** Removes the bytes; nothing stored under the key is not an error. */
  delete(key: string): Promise<void>;
}

/** One file name, no path: a letter or digit first, so never `.` or `..`, and never a slash. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function checkKey(key: string): void {
  if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
}

export const isSafeKey = (key: string) => SAFE_KEY.test(key);

/** Collects a stream into one array; for the few callers that need the whole file. */
export async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of body as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

const sourceBytes = async (source: PutSource): Promise<Uint8Array> =>
  source instanceof Uint8Array ? source : readAll(Readable.toWeb(source.stream) as ReadableStream<Uint8Array>);

const webStream = (bytes: Uint8Array): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

/**
 * Local disk, with the embedded database: one server owns its data directory. Files keep no type
 * of their own on disk; callers that need one know it (an upload's row, an installer).
 */
export function createDiskStorage(dir: string): FileStorage {
  const pathOf = (key: string) => {
    checkKey(key);
    return join(dir, key);
  };
  const storage: FileStorage = {
    async put(key, source) {
      const path = pathOf(key);
      await mkdir(dir, { recursive: true });
      if (source instanceof Uint8Array) {
        await writeFile(path, source, { mode: 0o600 });
        return;
      }
      // Written aside and renamed, so a reader never sees half an installer.
      const partial = `${path}.partial`;
      try {
        await pipeline(source.stream, createWriteStream(partial, { mode: 0o600 }));
      } catch (error) {
        // A stream cut on its way (an upload past its limit) leaves nothing behind.
        await rm(partial, { force: true });
        throw error;
      }
      await rename(partial, path);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async stat(key) {
      try {
        const info = await stat(pathOf(key));
        return info.isFile() ? { size: info.size, contentType: 'application/octet-stream' } : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async open(key) {
      const found = await storage.stat(key);
      if (!found) return null;
      return { body: Readable.toWeb(createReadStream(pathOf(key))) as ReadableStream<Uint8Array>, ...found };
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
  return storage;
}

/** For tests: one process, nothing kept. */
export function createMemoryStorage(): FileStorage {
  const files = new Map<string, { bytes: Uint8Array; contentType: string }>();
  return {
    async put(key, source, contentType) {
      checkKey(key);
      files.set(key, { bytes: await sourceBytes(source), contentType });
    },
    get: async (key) => files.get(key)?.bytes ?? null,
    async stat(key) {
      const file = files.get(key);
      return file ? { size: file.bytes.byteLength, contentType: file.contentType } : null;
    },
    async open(key) {
      const file = files.get(key);
      return file ? { body: webStream(file.bytes), size: file.bytes.byteLength, contentType: file.contentType } : null;
    },
    delete: async (key) => void files.delete(key),
  };
}
