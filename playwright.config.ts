import { defineConfig, devices } from '@playwright/test';
import { chromiumPath } from './scripts/chromium-path.mjs';

/**
 * Browser tests run in Debian's Chromium (no browser download) against the real server: each
 * worker starts its own (tests/e2e/fixtures.ts), so spec files run two at a time, one per core,
 * and the tests of one file in order.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // A test's timeout says it hung, not that it was slow: the longer flows (two answers and an undo
  // window, a whole task, a share read by a stranger) take 20-24 s on CI's two cores with two
  // workers, and up to 32 s measured with a second suite running beside them.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: process.env.E2E_REPORT ?? '.tmp/playwright.json' }]],
  use: {
    // The app's service worker would answer in place of the routes tests set up; the installable
    // app's own spec allows it.
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath() ?? undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined } },
  ],
});
