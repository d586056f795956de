import { createReadStream, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { configFromEnv } from '../config';
import { openDb, type DbHandle } from '../db/client';
import { downloadsDirOf } from '../routes/app';
import { openFileStores } from './file-stores';
import { isSafeKey } from './storage';

/**
 * Puts installers where every instance serves them from: the bucket, the database, or this
 * machine's DOWNLOADS_DIR, as the server would choose with the same settings. Answers what was
 * stored, for the caller to print.
 */
export async function putDownloads(env: NodeJS.ProcessEnv, paths: string[]): Promise<string[]> {
  const config = configFromEnv(env);
  for (const path of paths) {
    if (!isSafeKey(basename(path))) throw new Error(`${basename(path)}: an installer's name is letters, digits, ".", "-" and "_", starting with a letter or digit`);
    if (!statSync(path).isFile()) throw new Error(`${path} is not a file`);
  }
  // The database is opened only when it holds the files: the embedded one belongs to its server.
  const database: DbHandle | null = !config.s3 && env.DATABASE_URL ? await openDb({ databaseUrl: env.DATABASE_URL }) : null;
  try {
    const dataDir = resolve(env.DATA_DIR?.trim() || '.data');
    const files = await openFileStores({
      s3: config.s3,
      db: database?.db as never,
      driver: database ? 'postgres' : 'pglite',
      uploadsDir: join(dataDir, 'uploads'),
      downloadsDir: downloadsDirOf({ DOWNLOADS_DIR: env.DOWNLOADS_DIR, DATA_DIR: dataDir }),
      log: (line) => console.warn(line),
    });
    const stored: string[] = [];
    for (const path of paths) {
      const name = basename(path);
      await files.downloads.put(name, { stream: createReadStream(path), size: statSync(path).size }, 'application/octet-stream');
      stored.push(`${name} → ${files.label}`);
    }
    return stored;
  } finally {
    await database?.close();
  }
}
