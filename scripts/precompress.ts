import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text the server sends as it is built; images and fonts (already compressed) are left alone. */
export const PRECOMPRESSED_TYPES = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.webmanifest', '.txt', '.ttf']);
/** Below this, a compressed copy saves less than its headers cost. */
export const PRECOMPRESS_MIN_BYTES = 512;
/**
 * Brotli's best (quality 11) costs about a second a megabyte: spent on the files a page loads
 * first, while the megabytes only diagrams load (Mermaid) get quality 6, within a few percent of
 * it in a tenth of the time.
 */
const HIGHEST_QUALITY_UP_TO_BYTES = 256 * 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build: the server then answers `Accept-Encoding` with bytes made once at build time
 * instead of compressing on every request (server/http/spa.ts). A copy that is not smaller is
 * not written.
 */
export async function precompress(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const files = (await filesUnder(dir)).filter((file) => PRECOMPRESSED_TYPES.has(extname(file).toLowerCase()));
  let count = 0;
  let bytes = 0;
  let brotliBytes = 0;
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < PRECOMPRESS_MIN_BYTES) return;
      const body = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: body.byteLength <= HIGHEST_QUALITY_UP_TO_BYTES ? 11 : 6, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }),
        gzipAsync(body, { level: 9 }),
      ]);
      if (br.byteLength < body.byteLength) await writeFile(`${file}.br`, br);
      if (gz.byteLength < body.byteLength) await writeFile(`${file}.gz`, gz);
      count += 1;
      bytes += body.byteLength;
      brotliBytes += Math.min(br.byteLength, body.byteLength);
    }),
  );
  return { files: count, bytes, brotliBytes };
}

/** Vite plugin: precompresses the build once everything (the service worker included) is written. */
export const precompressBuild = (): Plugin => {
  let outDir = 'dist';
  let building = false;
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      building = config.command === 'build';
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        if (!building) return;
        await precompress(outDir);
      },
    },
  };
};
