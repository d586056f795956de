// The worker thread's entry: a thread starts without the parent's TypeScript loader (the server
// runs under `node --import tsx`, tests under Vitest), so it registers tsx before loading the reader.
import { register } from 'tsx/esm/api';

register();
await import('./read-text-worker.ts');
