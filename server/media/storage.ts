import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where upload bytes live; the database keeps only their metadata and key. */
export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** Null when nothing is stored under the key. */
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9_-]{1,128}$/;
function checkKey(key: string) {
  if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key: ${key}`);
}

export function createDiskStorage(dir: string): FileStorage {
  return {
    async put(key, bytes) {
      checkKey(key);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, key), bytes, { mode: 0o600 });
    },
    async get(key) {
      checkKey(key);
      try {
        return new Uint8Array(await readFile(join(dir, key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      checkKey(key);
      await rm(join(dir, key), { force: true });
    },
  };
}

export function createMemoryStorage(): FileStorage {
  const files = new Map<string, Uint8Array>();
  return {
    put: async (key, bytes) => void files.set(key, bytes),
    get: async (key) => files.get(key) ?? null,
    delete: async (key) => void files.delete(key),
  };
}
