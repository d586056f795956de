import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The child's entry, beside this module's code: from the sources a shim that loads the TypeScript
 * (server/db/create-embedded-main.mjs), in the server's build the compiled entry itself
 * (dist-server/create-embedded-main.mjs, scripts/build-server.mjs). Resolved from the module's
 * path string: test environments may replace the global URL class.
 */
const CHILD_ENTRY = join(dirname(fileURLToPath(import.meta.url)), 'create-embedded-main.mjs');

/**
 * Creates, migrates and seeds a new embedded database in a process of its own. Creating one
 * (initdb) grows the database's WebAssembly memory by some 450 MB that a process never gives
 * back; made elsewhere, the server opens the finished database and starts small
 * (docs/performance.md, "Idle memory").
 */
export function createEmbeddedDatabase(pgliteDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD_ENTRY, pgliteDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`creating the embedded database failed (exit ${code}): ${errors.trim().slice(-2000)}`))));
  });
}
