import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, useEnglish } from './fixtures';

/**
 * The installable app reloaded without the network shows the conversations this device kept for
 * the person signed in, and keeps nothing of them once they log out. Service workers are allowed
 * here, as in installable.spec.ts: the app shell comes from the worker.
 */
test.use({ serviceWorkers: 'allow' });

/** What this browser's offline library keeps for an account (its IndexedDB, read as the app stores it). */
const keptFor = (page: Page, userId: string) =>
  page.evaluate(async (userId) => {
    // Opening a database that does not exist would create it empty: look first.
    if (!(await indexedDB.databases()).some((database) => database.name === 'kraken-offline-library')) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('kraken-offline-library');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const rows = await new Promise<Array<{ title: string; messages: Array<{ content: string }> }>>((resolve, reject) => {
        const request = db.transaction('conversations').objectStore('conversations').index('byUser').getAll(userId);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      return rows.map((row) => ({ title: row.title, messages: row.messages.map((message) => message.content) }));
    } finally {
      db.close();
    }
  }, userId);

test('reloaded offline, the app shows the conversation read before, read only; after a logout nothing of it is kept', async ({ page, context, baseURL }) => {
  await useEnglish(page);
  const username = `offline-${Date.now()}@example.test`;
  const signup = await page.request.post('/api/system/auth/signup', { data: { username, password: 'a good password 1' } });
  expect(signup.status(), await signup.text()).toBe(200);
  const { data } = (await signup.json()) as { data: { token: string; userInfo: { id: string | number } } };
  await context.addCookies([{ name: 'ai-chat-ops-token', value: data.token, url: baseURL! }]);
  const userId = String(data.userInfo.id);

  await page.goto('/chat');
  await page.getByRole('textbox', { name: /Ask anything/ }).fill('How do I keep a sourdough starter?');
  await page.keyboard.press('Enter');
  await expect(page.locator('li[data-role="assistant"][data-status="complete"]')).toBeVisible();
  await expect(page).toHaveURL(/\/chat\/[^/]+$/);
  const address = new URL(page.url()).pathname;

  // The worker takes the page under its control once it has stored the shell.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect.poll(async () => (await keptFor(page, userId)).flatMap((kept) => kept.messages)).toContain('How do I keep a sourdough starter?');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'You are offline' })).toBeVisible();
  await expect(page.getByText('Read only: sending is unavailable while offline.')).toBeVisible();
  const reading = page.getByTestId('kept-conversation');
  await expect(reading.getByRole('heading', { level: 2, name: 'How do I keep a sourdough starter?' })).toBeVisible();
  await expect(reading.locator('li[data-role="user"]').getByText('How do I keep a sourdough starter?', { exact: true })).toBeVisible();
  // the answer through the chat's markdown renderer
  await expect(reading.locator('strong', { hasText: 'Offline responder (no model configured)' })).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  // The offline screen passes axe: no serious or critical violation.
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);

  // The network is back: the app starts by itself, on the conversation that was read.
  await context.setOffline(false);
  await expect(page.getByRole('textbox', { name: /Ask anything/ })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${address}$`));

  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => keptFor(page, userId)).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('ai-chat-ops:offlineKeeper'))).toBeNull();
});
