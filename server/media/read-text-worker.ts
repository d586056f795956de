import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { readText, type ReadLimits } from './read-text';

/** One file read in this worker thread, started by text-reader.ts, which bounds its time and memory. */
export type ReadJob = { bytes: Uint8Array; kind: 'pdf' | 'text'; limits: ReadLimits };

// On Linux a thread has its own nice value: reading a file yields the cores to the event loop.
try {
  setPriority(19);
} catch {
  // not permitted here: the file is read at the normal priority
}

const job = workerData as ReadJob;
parentPort!.postMessage(await readText(job.bytes, job.kind, job.limits));
