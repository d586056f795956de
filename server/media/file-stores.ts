import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { S3Settings } from '../config';
import type { Db } from '../db/client';
import { describeError } from '../http/log-line';
import { createDatabaseStorage } from './database-storage';
import { createDiskStorage, type FileStorage } from './storage';

/** Uploads (attachments, task images, avatars) and the desktop installers, in one kind of store. */
export type FileStores = {
  kind: 's3' | 'database' | 'disk';
  /** For the start-up summary; never holds a secret. */
  label: string;
  uploads: FileStorage;
  downloads: FileStorage;
  /** Whether the store can be used now: null, or why not (for the start and /readyz). */
  check(): Promise<string | null>;
};

export type FileStoresOptions = {
  s3: S3Settings | null;
  /** PostgreSQL shared by every instance; with the embedded database, files stay on disk. */
  db: Db;
  driver: 'pglite' | 'postgres';
  uploadsDir: string;
  downloadsDir: string;
  log: (line: string) => void;
};

/**
 * A shared store over the data directory that held files before it: a file found only on this
 * machine's disk (stored by an earlier version, or an installer copied into DOWNLOADS_DIR) is
 * copied into the shared store on first read, so every instance finds it from then on.
 */
export function withEarlierDisk(shared: FileStorage, disk: FileStorage, log: (line: string) => void): FileStorage {
  const moveIn = async (key: string): Promise<boolean> => {
    const earlier = await disk.open(key);
    if (!earlier) return false;
    try {
      // Copied, not moved: an operator's own files (installers) stay where they put them.
      await shared.put(key, { stream: Readable.fromWeb(earlier.body as WebReadableStream), size: earlier.size }, earlier.contentType);
      return true;
    } catch (error) {
      log(`files: could not copy ${key} from disk into the shared store: ${describeError(error)}`);
      await earlier.body.cancel().catch(() => undefined);
      return false;
    }
  };
  const storage: FileStorage = {
    put: (key, source, contentType) => shared.put(key, source, contentType),
    async get(key) {
      const found = await shared.get(key);
      if (found) return found;
      return (await moveIn(key)) ? shared.get(key) : disk.get(key);
    },
    async stat(key) {
      const found = await shared.stat(key);
      if (found) return found;
      return (await moveIn(key)) ? shared.stat(key) : disk.stat(key);
    },
    async open(key) {
      const found = await shared.open(key);
      if (found) return found;
      return (await moveIn(key)) ? shared.open(key) : disk.open(key);
    },
    async delete(key) {
      await shared.delete(key);
      await disk.delete(key);
    },
  };
  return storage;
}

/**
 * Object storage when it is configured; else PostgreSQL, which every instance already shares, so
 * two servers need no other service; else the data directory, with the one embedded database.
 */
export async function openFileStores(options: FileStoresOptions): Promise<FileStores> {
  const diskUploads = createDiskStorage(options.uploadsDir);
  const diskDownloads = createDiskStorage(options.downloadsDir);
  const overDisk = (uploads: FileStorage, downloads: FileStorage) => ({
    uploads: withEarlierDisk(uploads, diskUploads, options.log),
    downloads: withEarlierDisk(downloads, diskDownloads, options.log),
  });
  if (options.s3) {
    // Loaded only when used: the SDK is large and most servers keep files elsewhere.
    const { createS3Storage, probeBucket, s3Client } = await import('./s3-storage');
    const client = s3Client(options.s3);
    const { bucket } = options.s3;
    return {
      kind: 's3',
      check: () => probeBucket(client, bucket),
      label: `S3-compatible bucket ${options.s3.bucket} at ${options.s3.endpoint}`,
      ...overDisk(createS3Storage(client, options.s3.bucket, 'uploads/'), createS3Storage(client, options.s3.bucket, 'downloads/')),
    };
  }
  if (options.driver === 'postgres') {
    return {
      kind: 'database',
      // The database's own check covers it.
      check: async () => null,
      label: 'PostgreSQL (DATABASE_URL)',
      ...overDisk(createDatabaseStorage(options.db, 'uploads/'), createDatabaseStorage(options.db, 'downloads/')),
    };
  }
  return {
    kind: 'disk',
    // The disk's room is checked with the embedded database's (server/http/health.ts).
    check: async () => null,
    label: `disk, ${options.uploadsDir}`,
    uploads: diskUploads,
    downloads: diskDownloads,
  };
}
