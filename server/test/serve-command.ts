import { join } from 'node:path';

/**
 * What `npm run serve` runs, as arguments to `process.execPath`: the server's build, which the test
 * run makes once before any file starts (server/test/build-server.global.ts).
 */
export const SERVE_ARGS = [join(process.cwd(), 'scripts', 'serve.mjs')];
