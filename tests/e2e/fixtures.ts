import { test as base, expect, type Page } from '@playwright/test';
import { startE2EServer, type E2EServer } from './e2e-server';

/**
 * Every browser test talks to its worker's own server, started once per worker: specs in
 * different workers share no account, chat, session or limit.
 */
export const test = base.extend<{ answers: E2EServer['answers'] }, { krakenServer: E2EServer }>({
  krakenServer: [
    async ({}, use) => {
      const server = await startE2EServer();
      // `demoAccount()` and the specs' own checks read the worker's server from here.
      process.env.E2E_BASE_URL = server.url;
      process.env.E2E_DEMO_USERNAME = server.demo.username;
      process.env.E2E_DEMO_PASSWORD = server.demo.password;
      await use(server);
      await server.close();
    },
    // starting a server (database, migrations, seed) is not a test's time
    { scope: 'worker', auto: true, timeout: 60_000 },
  ],
  baseURL: async ({ krakenServer }, use) => {
    await use(krakenServer.url);
  },
  /**
   * A test that must act while an answer is still being written (watch it grow, Stop it) calls
   * `answers.hold()` before asking: the worker's answers stop at the end of their first line until
   * `answers.release()`, so no pace of the machine can end them first. A spec whose answers must
   * be its own calls `answers.writeWith(runtime)` (in a `beforeEach`). Every test ends with its
   * answers let go and written by the offline responder again.
   */
  answers: [
    async ({ krakenServer }, use) => {
      await use(krakenServer.answers);
      krakenServer.answers.release();
      krakenServer.answers.writeWith();
    },
    // every test ends with its answers let go and written by the offline responder again, even one
    // that never asked for this fixture
    { auto: true },
  ],
});

export type HeldAnswers = E2EServer['answers'];

export const demoAccount = () => ({
  username: process.env.E2E_DEMO_USERNAME ?? '',
  password: process.env.E2E_DEMO_PASSWORD ?? '',
});

export const useEnglish = async (page: Page) => {
  await page.addInitScript(() => localStorage.setItem('umi_locale', 'en-US'));
};

export const logIn = async (page: Page) => {
  const { username, password } = demoAccount();
  await page.getByLabel('Phone number or e-mail').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
};

export { expect };
