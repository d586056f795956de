import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer, type StartOptions } from '../../server/start';
import { endpoints } from '../../src/contract/endpoints';
import { startInstance, type Instance } from '../cluster/harness';
import { freePort } from './e2e-server';
import { expect, test, useEnglish } from './fixtures';

/**
 * The server restarts while someone is mid-session: the page stays, what they typed stays, a
 * send while it is down comes back to the box, and once it is up the next action goes through
 * with the same session.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const DEMO = { username: 'restart-demo@kraken.local', password: 'restart-Password-2026' };

let server: RunningServer | undefined;
let options: StartOptions;

test.beforeAll(async () => {
  // an embedded database's first start can take long on a busy machine
  test.setTimeout(120_000);
  options = {
    port: await freePort(),
    host: '127.0.0.1',
    dataDir: mkdtempSync(join(tmpdir(), 'kraken-restart-')),
    env: { ...process.env, LLM_BASE_URL: '', DATABASE_URL: '' },
    config: { offlineTokenDelayMs: 1 },
    demo: DEMO,
    spaDir: process.env.E2E_SPA_DIR ?? join(REPO, 'dist'),
    log: () => undefined,
  };
  server = await startServer(options);
});

test.afterAll(async () => {
  await server?.close();
  rmSync(options.dataDir, { recursive: true, force: true });
});

test('the chat keeps working through a server restart, and nothing typed is lost', async ({ page }) => {
  test.setTimeout(60_000);
  await useEnglish(page);
  const origin = server!.url;
  await page.goto(`${origin}/login`);
  await page.getByLabel('Phone number or e-mail').fill(DEMO.username);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();

  await page.goto(`${origin}/chat`);
  const box = page.getByRole('textbox', { name: /Ask anything/ });
  const complete = page.locator('li[data-role="assistant"][data-status="complete"]');
  await box.fill('Asked before the restart');
  await box.press('Enter');
  await expect(complete).toHaveCount(1);
  await expect(page).toHaveURL(/\/chat\/[^/]+$/);
  const conversationUrl = page.url();

  await box.fill('Typed while the server restarts');
  await server!.close();
  server = undefined;

  // A send while the server is down: the question comes back to the box, said so.
  await box.press('Enter');
  await expect(page.getByRole('alert')).toContainText('Could not reach the server');
  await expect(box).toHaveValue('Typed while the server restarts');
  await box.press('End');
  await box.pressSequentially(' (and a little more)');

  server = await startServer(options);
  expect(server.url).toBe(origin);

  // The next action goes through on the same session, and the question is sent once.
  const sent = page.waitForRequest((request) => request.url().endsWith(endpoints.chat.path));
  await box.press('Enter');
  expect((await sent).headers().authorization).toMatch(/^Bearer /);
  await expect(complete).toHaveCount(2);
  await expect(page.getByTestId('question')).toHaveText(['Asked before the restart', 'Typed while the server restarts (and a little more)']);
  await expect(box).toHaveValue('');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Reloading re-checks the session with the restarted server: still signed in, history intact.
  const checked = page.waitForResponse((response) => response.url().includes(endpoints.userInfo.path));
  await page.goto(conversationUrl);
  expect((await checked).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
  await expect(page.getByTestId('question')).toHaveText(['Asked before the restart', 'Typed while the server restarts (and a little more)']);
  await expect(complete).toHaveCount(2);
});

test('a notice while the server is down leaves the page whole, though its code cannot be fetched; it shows once the server is back', async ({ page }) => {
  test.setTimeout(60_000);
  await useEnglish(page);
  if (!server) server = await startServer(options);
  const origin = server.url;
  await page.goto(`${origin}/chat`);
  const box = page.getByRole('textbox', { name: /Ask anything/ });
  await box.fill('Asked before the server goes down');
  await box.press('Enter');
  await expect(page.locator('li[data-role="assistant"][data-status="complete"]')).toHaveCount(1);
  await page.getByTestId('new-chat').click();
  await expect(page.getByTestId('question')).toHaveCount(0);

  // Down: opening the conversation fails, and its notice's code (the toaster, not fetched yet) cannot come.
  await server.close();
  server = undefined;
  await page.getByRole('navigation', { name: 'Chat history' }).getByRole('link', { name: /Asked before the server/ }).click();
  await expect(page.getByText('The conversation could not be loaded')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reload' })).toBeEnabled();
  await expect(page.getByRole('navigation', { name: 'Chat history' })).toBeVisible();

  // Back up: the notice comes, and the conversation loads.
  server = await startServer(options);
  await expect(page.getByText('The server cannot be reached', { exact: false }).first()).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByTestId('question')).toHaveText(['Asked before the server goes down']);
});

test('a page left open on an answer being written reads it again by itself once the server is back, and never asks again', async ({ page }) => {
  test.setTimeout(90_000);
  await useEnglish(page);
  // A server process killed while it writes a slow answer, as a crash would, then started again on
  // the same data and port.
  const dataDir = mkdtempSync(join(tmpdir(), 'kraken-restart-'));
  const env = {
    PORT: String(await freePort()),
    LLM_BASE_URL: '',
    DATABASE_URL: '',
    OFFLINE_TOKEN_DELAY_MS: '40',
    DEMO_USERNAME: DEMO.username,
    DEMO_PASSWORD: DEMO.password,
  };
  let running: Instance | undefined = await startInstance('restart', env, { dataDir });
  try {
    const questions: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === endpoints.chat.path) questions.push(request.url());
    });
    await page.goto(`${running.url}/chat`);
    const box = page.getByRole('textbox', { name: /Ask anything/ });
    await box.fill('Asked just before the restart');
    await box.press('Enter');
    const answer = page.locator('li[data-role="assistant"]').last();
    await expect(answer.getByTestId('answer')).toContainText('Offline responder');

    await running.stop('SIGKILL');
    running = undefined;
    await expect(page.getByRole('status').filter({ hasText: 'Connection lost' })).toBeVisible();

    // Back up: the page reads the answer again by itself (no Retry pressed), with the resume call only.
    running = await startInstance('restart', env, { dataDir });
    const readAgain = await page.waitForResponse((response) => new URL(response.url()).pathname === endpoints.chatResume.path, { timeout: 40_000 });
    expect(readAgain.status()).toBe(200);
    expect(readAgain.request().postDataJSON()).toMatchObject({ offset: expect.any(Number) });
    expect(questions).toHaveLength(1);
    await expect(page.getByTestId('question')).toHaveText(['Asked just before the restart']);
  } finally {
    await running?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
