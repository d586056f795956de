import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openDb } from './client';
import { seedCatalog } from '../seed/seed';

/**
 * Creates, migrates and seeds a new embedded database in a process of its own. Creating one
 * (initdb) grows the database's WebAssembly memory by some 450 MB that a process never gives
 * back; made elsewhere, the server opens the finished database and starts small
 * (docs/performance.md, "Idle memory").
 */
export function createEmbeddedDatabase(pgliteDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), pgliteDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`creating the embedded database failed (exit ${code}): ${errors.trim().slice(-2000)}`))));
  });
}

async function main(pgliteDir: string) {
  const database = await openDb({ pgliteDir });
  try {
    await database.migrate();
    await seedCatalog(database.db);
  } finally {
    await database.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(process.argv[2]!).catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}
