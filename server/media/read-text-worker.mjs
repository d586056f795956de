// The worker thread's entry: a thread starts without the parent's TypeScript loader (the server
// runs under `node --import tsx`, tests under Vitest), so it registers tsx before loading the reader.
import { setPriority } from 'node:os';
import { register } from 'tsx/esm/api';

// On Linux a thread has its own nice value: reading a file yields the cores to the event loop
// (and, set first, to the loader's thread started next).
try {
  setPriority(19);
} catch {
  // not permitted here: the worker reads at the normal priority
}
register();
await import('./read-text-worker.ts');
