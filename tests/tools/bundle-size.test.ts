import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HOME_PAGE_JS_TARGET, homePageJs } from '../../scripts/home-page-js.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const outDir = mkdtempSync(join(tmpdir(), 'kraken-size-'));

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the home page bundle', () => {
  it('downloads at most 120 kB of gzipped JavaScript; the chat machine, market, markdown, formulas, diagrams, history and toasts come later', () => {
    // Built as `npm start` builds it, source maps and all: what a visitor downloads.
    const build = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: ROOT,
      encoding: 'utf8',
      // Vitest sets NODE_ENV=test, which would build React's development bundles.
      env: { ...process.env, NODE_ENV: 'production', SERVE_SOURCEMAPS: '' },
    });
    expect(build.status, build.stderr).toBe(0);

    const { files, gzip } = homePageJs(outDir);
    const names = files.map((file) => file.path.replace(/^assets\//, ''));
    for (const lazy of [/^agents-market-/, /^markdown-/, /^chat-screen-/, /^chat-runtime-/, /^toaster-/, /^highlighter-/, /^katex/, /^mermaid/]) {
      expect(names.some((name) => lazy.test(name)), `${lazy} must not load with the home page`).toBe(false);
    }
    const listing = files.map((file) => `${file.path} ${(file.gzip / 1000).toFixed(1)} kB`).join('\n');
    expect(gzip, `home page JavaScript is ${(gzip / 1000).toFixed(1)} kB gzip:\n${listing}`).toBeLessThanOrEqual(HOME_PAGE_JS_TARGET);

    // Source maps of the pages are written, but no JavaScript names one, the service worker's
    // included: the server answers 404 for them unless SERVE_SOURCEMAPS is on.
    expect(readdirSync(join(outDir, 'assets')).some((name) => name.endsWith('.js.map'))).toBe(true);
    const shipped = [
      ...readdirSync(outDir).filter((name) => name.endsWith('.js')),
      ...readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.js')).map((name) => `assets/${name}`),
    ];
    expect(shipped).toContain('sw.js');
    const naming = shipped.filter((path) => readFileSync(join(outDir, path), 'utf8').includes('sourceMappingURL'));
    expect(naming).toEqual([]);

    // The Stately inspector is for development only: not a byte of it ships.
    const withInspector = shipped.filter((path) => /createBrowserInspector|@statelyai\/inspect/.test(readFileSync(join(outDir, path), 'utf8')));
    expect(withInspector).toEqual([]);
  }, 120_000);
});
