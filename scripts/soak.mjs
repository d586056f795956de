#!/usr/bin/env node
// `npm run soak`: 5,000 chat streams through the reference server on 127.0.0.1, then checks that
// the heap after garbage collection is back near where it started (no leak per stream).
// Bounded: SOAK_STREAMS (default 5000) streams, SOAK_CONCURRENCY (default 20) at a time, and at
// most SOAK_MAX_SECONDS (default 480); SOAK_HEAP_BOUND_MB (default 32) of growth is allowed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  // Re-run with a collector we can call and a loader for the server's TypeScript.
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const { startServer } = await import('../server/start.ts');
const { quickRuntime } = await import('../tests/load/chat-driver.ts');
const { oneVisitor, percentile } = await import('../tests/load/visitor.mjs');
const { generousLimits } = await import('../tests/load/generous-limits.ts');

const number = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
const STREAMS = number('SOAK_STREAMS', 5000);
const CONCURRENCY = number('SOAK_CONCURRENCY', 20);
const MAX_SECONDS = number('SOAK_MAX_SECONDS', 480);
const HEAP_BOUND_MB = number('SOAK_HEAP_BOUND_MB', 32);
const WARM_UP = Math.min(200, Math.floor(STREAMS / 10));

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const settle = async () => {
  for (let i = 0; i < 4; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return process.memoryUsage();
};

const dataDir = mkdtempSync(join(tmpdir(), 'kraken-soak-'));
const runtime = quickRuntime();
// Thousands of visitors from 127.0.0.1: the public quotas would refuse nearly all of them.
const server = await startServer({ dataDir, host: '127.0.0.1', env: {}, config: generousLimits, runtime, spaDir: null, log: () => undefined });
const deadline = Date.now() + MAX_SECONDS * 1000;
let done = 0;
let failed = 0;
const firstEvent = [];
const errors = new Map();

const run = async (count) => {
  let next = 0;
  const worker = async () => {
    while (next < count && Date.now() < deadline) {
      next += 1;
      const result = await oneVisitor(server.url);
      done += 1;
      if (result.ok) firstEvent.push(result.firstEventMs);
      else {
        failed += 1;
        errors.set(result.error, (errors.get(result.error) ?? 0) + 1);
      }
      if (done % 500 === 0) {
        const heap = process.memoryUsage();
        console.log(`[soak] ${done} streams, ${failed} failed, heap ${mb(heap.heapUsed)} MB, rss ${mb(heap.rss)} MB`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, worker));
};

let exitCode = 0;
try {
  const started = Date.now();
  await run(WARM_UP);
  const baseline = await settle();
  console.log(`[soak] baseline after ${WARM_UP} warm-up streams: heap ${mb(baseline.heapUsed)} MB, rss ${mb(baseline.rss)} MB, external ${mb(baseline.external)} MB`);
  await run(STREAMS - WARM_UP);
  const after = await settle();
  const seconds = (Date.now() - started) / 1000;
  const growth = after.heapUsed - baseline.heapUsed;
  console.log(`[soak] ${done} streams in ${seconds.toFixed(1)} s (${(done / seconds).toFixed(0)} a second), ${failed} failed, ${CONCURRENCY} at a time`);
  console.log(`[soak] time to first event: p50 ${percentile(firstEvent, 50).toFixed(0)} ms, p99 ${percentile(firstEvent, 99).toFixed(0)} ms`);
  console.log(`[soak] heap after GC: ${mb(baseline.heapUsed)} → ${mb(after.heapUsed)} MB (${growth >= 0 ? '+' : ''}${mb(growth)} MB, bound ${HEAP_BOUND_MB} MB); rss ${mb(after.rss)} MB; external ${mb(after.external)} MB`);
  console.log(`[soak] streams still open in the agent: ${runtime.open}`);
  if (done < STREAMS) {
    console.error(`[soak] FAILED: only ${done} of ${STREAMS} streams ran within ${MAX_SECONDS} s`);
    exitCode = 1;
  }
  if (failed > 0) {
    console.error(`[soak] FAILED: ${failed} streams failed: ${JSON.stringify([...errors])}`);
    exitCode = 1;
  }
  if (growth > HEAP_BOUND_MB * 1024 * 1024) {
    console.error(`[soak] FAILED: the heap grew by ${mb(growth)} MB`);
    exitCode = 1;
  }
  if (runtime.open !== 0) {
    console.error('[soak] FAILED: answers were left open');
    exitCode = 1;
  }
  if (exitCode === 0) console.log('[soak] passed');
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
