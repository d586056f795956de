import { openDb } from './client';
import { seedCatalog } from '../seed/seed';

/** The process createEmbeddedDatabase starts: creates, migrates and seeds the database in argv[2]. */
async function main(pgliteDir: string | undefined) {
  if (!pgliteDir) throw new Error('usage: create-embedded-main <pglite directory>');
  const database = await openDb({ pgliteDir });
  try {
    await database.migrate();
    await seedCatalog(database.db);
  } finally {
    await database.close();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
