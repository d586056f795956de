#!/usr/bin/env node
// The server's build: its TypeScript compiled once into dist-server/, beside dist/ (the SPA), so
// production runs it with plain `node` instead of a TypeScript loader that would transform every
// module at each start (docs/performance.md, "The idle memory of a default start").
// Packages stay in node_modules; only the server's own modules are bundled. Each entry lands flat in
// dist-server/, where the code that starts it looks for it (`new URL('./<entry>.mjs', import.meta.url)`,
// a TypeScript-loading shim of the same name beside the sources), and the migrations beside them,
// where server/db/client.ts looks for them.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUILD_DIR = join(ROOT, 'dist-server');

/** Each process or thread the server starts, by its file in dist-server/. */
const ENTRIES = {
  main: 'server/main.ts',
  'create-embedded-main': 'server/db/create-embedded-main.ts',
  'read-text-worker': 'server/media/read-text-worker.ts',
};

/** What the build was made from (scripts/serve.mjs refuses a build older than its sources). */
export const BUILD_INPUTS = join(SERVER_BUILD_DIR, 'inputs.json');

export async function buildServer() {
  const startedAt = Date.now();
  rmSync(SERVER_BUILD_DIR, { recursive: true, force: true });
  mkdirSync(SERVER_BUILD_DIR, { recursive: true });
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: SERVER_BUILD_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: '[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    metafile: true,
  });
  cpSync(join(ROOT, 'server', 'db', 'migrations'), join(SERVER_BUILD_DIR, 'migrations'), { recursive: true });
  const inputs = [...Object.keys(metafile.inputs), 'server/db/migrations'];
  writeFileSync(BUILD_INPUTS, `${JSON.stringify({ builtAt: startedAt, inputs }, null, 1)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  buildServer().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
