import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOME_PAGE_JS_TARGET, homePageJs } from '../../scripts/home-page-js.mjs';

/**
 * The spec's target is HOME_PAGE_JS_TARGET (120 kB gzip, printed by `npm run bench` (a)); this
 * test holds the first page at 121.5 kB so that it cannot grow further while the 0.8 kB it is over
 * (2026-11-28: the message box's counter, the visitor's file cookie, the header's way back to
 * the page, drafts carried through a login) is won back (docs/performance.md).
 */
const HOME_PAGE_JS_LIMIT = HOME_PAGE_JS_TARGET + 1_500;

const ROOT = resolve(import.meta.dirname, '..', '..');
const DIST = join(ROOT, 'dist');
/** What a build is made from: a `dist/` older than any of these is not the build of this tree. */
const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'uno.config.ts', 'package-lock.json'].map((path) => join(ROOT, path));

const filesUnder = (path: string): string[] => (statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => filesUnder(join(path, name))) : [path]);
const newestSource = () => Math.max(...SOURCES.filter(existsSync).flatMap(filesUnder).map((file) => statSync(file).mtimeMs));
const distIsCurrent = () => existsSync(join(DIST, 'index.html')) && statSync(join(DIST, 'index.html')).mtimeMs > newestSource();

let ownBuild: string | null = null;
afterAll(() => {
  if (ownBuild) rmSync(ownBuild, { recursive: true, force: true });
});

/**
 * The build to measure: `dist/`, which `npm test` makes once before Vitest (scripts/test.mjs), so
 * the run builds the SPA once; run alone with no `dist/` or one older than the sources, the test
 * builds its own into a temporary folder, as `npm start` builds, and leaves `dist/` alone.
 */
const buildToMeasure = (): string => {
  if (distIsCurrent()) return DIST;
  ownBuild = mkdtempSync(join(tmpdir(), 'kraken-size-'));
  console.log(`dist/ is missing or older than the sources: building into ${ownBuild} (npm run build first to measure dist/)`);
  const build = spawnSync('npx', ['vite', 'build', '--outDir', ownBuild, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: ROOT,
    encoding: 'utf8',
    // Vitest sets NODE_ENV=test, which would build React's development bundles.
    env: { ...process.env, NODE_ENV: 'production', SERVE_SOURCEMAPS: '' },
  });
  expect(build.status, build.stderr).toBe(0);
  return ownBuild;
};

describe('the home page bundle', () => {
  it('downloads at most 120 kB of gzipped JavaScript; the chat machine, market, markdown, formulas, diagrams, history and toasts come later', () => {
    // Built as `npm start` builds it, source maps and all: what a visitor downloads.
    const outDir = buildToMeasure();

    const { files, gzip } = homePageJs(outDir);
    const names = files.map((file) => file.path.replace(/^assets\//, ''));
    for (const lazy of [/^agents-market-/, /^markdown-/, /^chat-screen-/, /^chat-runtime-/, /^toaster-/, /^highlighter-/, /^katex/, /^mermaid/]) {
      expect(names.some((name) => lazy.test(name)), `${lazy} must not load with the home page`).toBe(false);
    }
    const listing = files.map((file) => `${file.path} ${(file.gzip / 1000).toFixed(1)} kB`).join('\n');
    expect(gzip, `home page JavaScript is ${(gzip / 1000).toFixed(1)} kB gzip:\n${listing}`).toBeLessThanOrEqual(HOME_PAGE_JS_LIMIT);

    // Source maps of the pages are written, but no JavaScript names one, the service worker's
    // included: the server answers 404 for them unless SERVE_SOURCEMAPS is on.
    expect(readdirSync(join(outDir, 'assets')).some((name) => name.endsWith('.js.map'))).toBe(true);
    const shipped = [
      ...readdirSync(outDir).filter((name) => name.endsWith('.js')),
      ...readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.js')).map((name) => `assets/${name}`),
    ];
    expect(shipped).toContain('sw.js');
    const naming = shipped.filter((path) => readFileSync(join(outDir, path), 'utf8').includes('sourceMappingURL'));
    expect(naming, `${outDir} names its source maps: was it built with SERVE_SOURCEMAPS on? Build it as npm start does`).toEqual([]);

    // The Stately inspector is for development only: not a byte of it ships.
    const withInspector = shipped.filter((path) => /createBrowserInspector|@statelyai\/inspect/.test(readFileSync(join(outDir, path), 'utf8')));
    expect(withInspector).toEqual([]);
  }, 120_000);
});
