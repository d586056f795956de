import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Static imports of a built chunk (`import{a}from"./x.js"`, `import"./x.js"`), never `import("./x.js")`. */
const staticImports = (code) => {
  const found = new Set();
  for (const match of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
    found.add(match[1]);
  }
  return [...found];
};

/**
 * The JavaScript a visitor downloads to see the home page of a build: the entry module of
 * index.html with its modulepreloads, the home screen's chunk, the default interface language's
 * bundle, and everything those import statically. Answers each file with its gzip size.
 */
export const homePageJs = (distDir, { locale = 'zh-CN' } = {}) => {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const roots = [
    ...[...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+\.js)"/g)].map((match) => match[1]),
    ...[...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map((match) => match[1]),
  ];
  const assets = readdirSync(join(distDir, 'assets'));
  // The first page loads only the shell of its language (src/i18n/shell.ts).
  const lazyRoots = [/^home-screen-[\w-]+\.js$/, new RegExp(`^_?locale-shell-${locale}-[\\w-]+\\.js$`)];
  for (const pattern of lazyRoots) {
    const name = assets.find((file) => pattern.test(file));
    if (!name) throw new Error(`no chunk matches ${pattern} in ${distDir}/assets`);
    roots.push(`assets/${name}`);
  }
  const seen = new Map();
  const visit = (path) => {
    if (seen.has(path)) return;
    const code = readFileSync(join(distDir, path));
    seen.set(path, gzipSync(code, { level: 9 }).length);
    const folder = path.slice(0, path.lastIndexOf('/') + 1);
    for (const relative of staticImports(code.toString('utf8'))) visit(folder + relative.slice(2));
  };
  roots.forEach(visit);
  const files = [...seen].map(([path, gzip]) => ({ path, gzip })).sort((a, b) => b.gzip - a.gzip);
  return { files, gzip: files.reduce((sum, file) => sum + file.gzip, 0) };
};

/** Spec target: at most 120 kB gzip of JavaScript for the home page. */
export const HOME_PAGE_JS_TARGET = 120_000;
