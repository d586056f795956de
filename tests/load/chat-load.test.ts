import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/start';
import { quickRuntime } from './chat-driver';
import { generousLimits } from './generous-limits';
import { oneVisitor, percentile } from './visitor.mjs';

/**
 * 200 chat streams open at the same time against the reference server on loopback. The agent
 * sends its first piece, then holds every answer until all 200 are open, so they truly overlap.
 */
const STREAMS = 200;

let server: RunningServer;
let dataDir: string;
let allOpen: () => void;
const everyoneOpen = new Promise<void>((resolve) => (allOpen = resolve));
const runtime = quickRuntime({ hold: () => everyoneOpen });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kraken-load-'));
  server = await startServer({ dataDir, host: '127.0.0.1', env: {}, config: generousLimits, runtime, spaDir: null, log: () => undefined });
});

afterAll(async () => {
  allOpen();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the reference server under load', () => {
  it(`holds ${STREAMS} concurrent chat streams with no errors, and reports time to first event`, async () => {
    const started = performance.now();
    // The answers are let go once every stream is open, or once those still missing have ended
    // without opening (refused or failed): waiting on the streams, not on a clock, so a busy
    // machine is slower but never wrong.
    let ended = 0;
    const watch = setInterval(() => {
      if (runtime.open + ended >= STREAMS) allOpen();
    }, 5);
    const results = await Promise.all(
      Array.from({ length: STREAMS }, () =>
        oneVisitor(server.url).finally(() => {
          ended += 1;
        }),
      ),
    );
    clearInterval(watch);
    const elapsed = performance.now() - started;

    const firstEvent = results.map((result) => result.firstEventMs);
    const errors = results.filter((result) => !result.ok);
    console.log(
      `[load] ${STREAMS} concurrent streams: ${results.length - errors.length} complete, ${errors.length} failed; ` +
        `max open at once ${runtime.maxOpen}; time to first event p50 ${percentile(firstEvent, 50).toFixed(0)} ms, ` +
        `p99 ${percentile(firstEvent, 99).toFixed(0)} ms; all done in ${elapsed.toFixed(0)} ms`,
    );
    expect(errors.map((error) => error.error)).toEqual([]);
    expect(runtime.maxOpen).toBe(STREAMS);
    expect(firstEvent.every((ms) => Number.isFinite(ms))).toBe(true);
  }, 120_000);
});
