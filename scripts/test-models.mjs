#!/usr/bin/env node
// `npm run test:models`: every model-based test. The Vitest model tests (paths generated from the
// production machines, played on screens and actors) run beside the browser walks of
// tests/e2e/models.spec.ts; the production build those need is made first unless dist/ is
// newer than every source file. One closing line, like `npm test`.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const bin = (name) => join('node_modules', '.bin', name);
const walk = (path) =>
  statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => walk(join(path, name))) : [path];
const newest = (paths) => Math.max(...paths.filter(existsSync).flatMap(walk).map((file) => statSync(file).mtimeMs));
const buildIsCurrent = () =>
  existsSync('dist/index.html') && statSync('dist/index.html').mtimeMs > newest(['src', 'public', 'index.html', 'vite.config.ts', 'uno.config.ts']);

/** Runs a command, its output kept until it ends so two runs do not interleave. */
const run = (label, command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, FORCE_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      console.log(`\n▶ ${label}\n${output}`);
      resolve(code ?? 1);
    });
  });

const started = Date.now();
const [vitest, browser] = await Promise.all([
  run('model tests in jsdom and on actors (vitest)', bin('vitest'), ['run', 'model.test']),
  (async () => {
    if (!buildIsCurrent()) {
      const built = await run('production build (vite)', bin('vite'), ['build', '--logLevel', 'warn']);
      if (built !== 0) return built;
    }
    return run('model walks in Chromium (playwright)', process.execPath, [bin('playwright'), 'test', 'tests/e2e/models.spec.ts']);
  })(),
]);
const seconds = Math.round((Date.now() - started) / 1000);
const failed = [vitest, browser].filter((code) => code !== 0).length;
console.log(`\nModel-based tests: ${failed ? 'FAILED' : 'passed'} in ${Math.floor(seconds / 60)} min ${seconds % 60} s`);
process.exit(failed ? 1 : 0);
