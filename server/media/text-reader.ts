import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ReadLimits, ReadText } from './read-text';
import type { ReadJob } from './read-text-worker';

/** How files are read off the event loop (config: `attachments.read*`). */
export type TextReaderLimits = {
  /** Files read at once by this instance, one worker thread each. */
  concurrency: number;
  /** Files waiting for a worker; past it a read fails as `busy` at once. */
  queueMax: number;
  /** A worker still reading after this long is stopped. */
  timeoutMs: number;
  /** The worker's JavaScript heap; past it the worker is stopped. */
  heapMb: number;
  /** Characters read from one file before reading stops. */
  stopAfterChars: number;
};

export type TextReader = {
  /** Never throws for what the file holds: a file that cannot be read answers with an error. */
  read(bytes: Uint8Array, kind: 'pdf' | 'text', limits: Pick<ReadLimits, 'maxChars' | 'pdfMaxPages'>): Promise<ReadText>;
  /** Reads running and waiting, for tests and the operator. */
  load(): { running: number; waiting: number };
};

// Resolved from the module's path string: test environments may replace the global URL class.
const WORKER_ENTRY = join(dirname(fileURLToPath(import.meta.url)), 'read-text-worker.mjs');

const failed = (error: ReadText['error']): ReadText => ({ text: '', chars: 0, error });

/** One file in a new worker thread, ended by its answer, its heap limit or the clock. */
function readInWorker(job: ReadJob, limits: TextReaderLimits): Promise<ReadText> {
  return new Promise((resolve) => {
    // Its own loader, not the parent's flags (the entry registers tsx), and the heap bound.
    const worker = new Worker(WORKER_ENTRY, {
      workerData: job,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: Math.max(4, Math.round(limits.heapMb / 8)) },
    });
    let settled = false;
    const settle = (read: ReadText) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(read);
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(failed('too_long_to_read')), limits.timeoutMs);
    worker.on('message', (read: ReadText) => settle(read));
    worker.on('error', (error: Error & { code?: string }) => settle(failed(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'too_large_to_read' : 'unreadable')));
    worker.on('exit', () => settle(failed('unreadable')));
  });
}

/**
 * Reads files' text in worker threads, at most `concurrency` at once and `queueMax` waiting, so a
 * file built to be slow or huge costs one worker for at most `timeoutMs` and `heapMb`, never the
 * event loop. A worker reads one file and ends: its memory (pdf.js included) goes with it.
 */
export function createTextReader(limits: TextReaderLimits): TextReader {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = () => {
    running -= 1;
    const start = waiting.shift();
    if (start) {
      running += 1;
      start();
    }
  };
  return {
    async read(bytes, kind, readLimits) {
      if (running >= limits.concurrency) {
        if (waiting.length >= limits.queueMax) return failed('busy');
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else running += 1;
      try {
        return await readInWorker({ bytes, kind, limits: { ...readLimits, stopAfterChars: limits.stopAfterChars } }, limits);
      } finally {
        next();
      }
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}
