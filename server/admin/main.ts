import { mkdirSync } from 'node:fs';
import { systemClock } from '../config';
import { openDb, pgliteDirOf } from '../db/client';
import { lockDataDir } from '../data-dir-lock';
import { seedCatalog } from '../seed/seed';
import { runCommand, USAGE } from './commands';

/** `npm run admin -- <command>`: accounts made and mended from the server's shell, on either database. */
async function main() {
  const env = process.env;
  const databaseUrl = env.DATABASE_URL;
  const dataDir = env.DATA_DIR || './.data';
  if (!databaseUrl) mkdirSync(dataDir, { recursive: true });
  const lock = databaseUrl ? null : lockDataDir(dataDir);
  const database = await openDb(databaseUrl ? { databaseUrl } : { pgliteDir: pgliteDirOf(dataDir) });
  try {
    await database.migrate();
    await seedCatalog(database.db);
    for (const line of await runCommand(database.db, systemClock, process.argv.slice(2))) console.log(line);
  } finally {
    await database.close();
    lock?.release();
  }
}

main().catch((error: unknown) => {
  console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
  for (const line of USAGE) console.error(line);
  process.exit(1);
});
