import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SERVER_BUILD_DIR } from '../../scripts/build-server.mjs';

// The server's build (made once per run by build-server.global.ts) is what `npm start` and
// `npm run serve` run: every process and thread it starts must find its entry beside it.

const built = () => readdirSync(SERVER_BUILD_DIR).filter((name) => name.endsWith('.mjs'));

describe("the server's build", () => {
  it('holds the entry of every process and thread its code starts', () => {
    const referenced = new Set<string>();
    for (const file of built()) {
      // Named beside the code: `new URL('./x.mjs', import.meta.url)` or a path joined with 'x.mjs'.
      for (const match of readFileSync(join(SERVER_BUILD_DIR, file), 'utf8').matchAll(/["'](?:\.\/)?([\w-]+\.mjs)["']/g)) referenced.add(match[1]!);
    }
    // The database's creator and the file reader's thread at least; none missing.
    expect([...referenced].sort()).toEqual(expect.arrayContaining(['create-embedded-main.mjs', 'read-text-worker.mjs']));
    for (const entry of referenced) expect(built(), `${entry} is started by the server's code`).toContain(entry);
  });

  it('needs only production dependencies (`npm ci --omit=dev` installs what it imports)', () => {
    const { dependencies } = JSON.parse(readFileSync(join(SERVER_BUILD_DIR, '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const imported = new Set<string>();
    for (const file of built()) {
      const code = readFileSync(join(SERVER_BUILD_DIR, file), 'utf8');
      for (const match of code.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)["']([^"'.][^"']*)["']/g)) {
        const specifier = match[1]!;
        if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) continue;
        imported.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((name) => !(name in dependencies))).toEqual([]);
  });

  it("reads a file's text in the built worker thread, with plain node and no TypeScript loader", async () => {
    const bytes = new TextEncoder().encode('hello from a built worker');
    const worker = new Worker(join(SERVER_BUILD_DIR, 'read-text-worker.mjs'), {
      workerData: { bytes, kind: 'text', limits: { maxChars: 1000, pdfMaxPages: 1 } },
      execArgv: [],
    });
    const read = await new Promise<{ text: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(read.text).toBe('hello from a built worker');
  });
});
