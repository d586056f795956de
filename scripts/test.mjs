#!/usr/bin/env node
// `npm test`: every suite, browser tests included, then one closing line `N passed, N failed`.
// Production build → unit and server tests (Vitest) → Chromium check → browser tests (Playwright).
// The build comes first so that it is the only one: tests/tools/bundle-size.test.ts measures dist/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';

const bin = (name) => join('node_modules', '.bin', name);
const run = (label, command, args) => {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  return result.status ?? 1;
};
const readJson = (path) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
};

mkdirSync('.tmp', { recursive: true });
const vitestReport = join('.tmp', 'vitest.json');
const playwrightReport = join('.tmp', 'playwright.json');
const aloneReport = join('.tmp', 'playwright-alone.json');
for (const report of [vitestReport, playwrightReport, aloneReport]) rmSync(report, { force: true });

const steps = [];
steps.push(run('production build (vite)', bin('vite'), ['build', '--logLevel', 'warn']));
steps.push(run('unit, machine, screen and server tests (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]));
ensureChromium();
steps.push(run('browser tests in Chromium against the real server (playwright)', bin('playwright'), ['test', '--grep-invert', '@alone']));
// Tests that measure the page's main-thread tasks, with the machine to themselves.
process.env.E2E_WORKERS = '1';
process.env.E2E_REPORT = aloneReport;
steps.push(run('browser tests that measure the main thread, one at a time (playwright)', bin('playwright'), ['test', '--grep', '@alone']));

const vitest = readJson(vitestReport);
let passed = 0;
let failed = 0;
let skipped = 0;
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += vitest.numFailedTests ?? 0;
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
} else {
  failed += 1;
  console.error('vitest wrote no report');
}
for (const [name, report] of [['playwright', readJson(playwrightReport)], ['playwright (alone)', readJson(aloneReport)]]) {
  if (report?.stats) {
    passed += (report.stats.expected ?? 0) + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected ?? 0;
    skipped += report.stats.skipped ?? 0;
  } else if (existsSync(bin('playwright'))) {
    failed += 1;
    console.error(`${name} wrote no report`);
  }
}
const stepFailed = steps.some((status) => status !== 0);
if (stepFailed && failed === 0) failed = 1;

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || stepFailed ? 1 : 0);
