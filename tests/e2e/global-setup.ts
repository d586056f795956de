import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../server/start';

export const E2E_DEMO = { username: 'e2e-demo@kraken.local', password: 'e2e-Password-2026' };

/**
 * One real server for the browser tests: the built SPA, a fresh embedded database in a temp
 * folder, the offline responder answering with a short delay so streaming is visible.
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'kraken-e2e-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    env: { ...process.env, LLM_BASE_URL: '', DATABASE_URL: '' },
    // Every browser test logs in from 127.0.0.1: with the production limit (5 failures a minute per
    // address) the wrong-password steps of different specs would lock out the next spec. The
    // limit itself is proven by the server suites (server/test/abuse.test.ts, routes/auth.test.ts).
    config: { offlineTokenDelayMs: 5, loginMaxFailures: 1000 },
    demo: E2E_DEMO,
    // Several builds can coexist: E2E_SPA_DIR points the tests at one of them (default dist/).
    ...(process.env.E2E_SPA_DIR ? { spaDir: process.env.E2E_SPA_DIR } : {}),
    log: () => undefined,
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DEMO_USERNAME = E2E_DEMO.username;
  process.env.E2E_DEMO_PASSWORD = E2E_DEMO.password;
  return async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
