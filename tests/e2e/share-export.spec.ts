import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, logIn, test, useEnglish } from './fixtures';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

const box = (page: Page) => page.getByRole('textbox', { name: /Ask anything/ });
const answered = (page: Page) =>
  expect(page.locator('li[data-role="assistant"]').last()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });

/** No serious or critical accessibility violation on the page as it is now. */
const expectAccessible = async (page: Page) => {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`)).toEqual([]);
};

const signIn = async (page: Page) => {
  await page.goto('/login');
  await logIn(page);
  await expect(page).not.toHaveURL(/\/login/);
};

test('a starter question sends at a click, and the market filters by category', async ({ page }) => {
  // Asks, then walks the market's categories: up to 24 s on a busy two-core machine.
  test.setTimeout(60_000);
  await page.goto('/chat?agent=sql-helper');
  const starters = page.getByRole('region', { name: 'Try asking' });
  await expect(starters.getByRole('button')).toHaveCount(3);
  await expectAccessible(page);
  await starters.getByRole('button', { name: 'Explain the difference between LEFT JOIN and INNER JOIN' }).click();
  await expect(page).toHaveURL(/\/chat\/[^/?]+$/);
  await expect(page.getByTestId('question')).toHaveText('Explain the difference between LEFT JOIN and INNER JOIN');
  await answered(page);
  await expect(starters).toHaveCount(0);

  await page.goto('/chat/agents');
  const categories = page.getByRole('group', { name: 'Categories' });
  await categories.getByRole('button', { name: 'Development' }).click();
  await expect(page.getByTestId('agent-card')).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'About SQL Query Helper' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Applications' }).getByTestId('application-card')).toHaveCount(2);
  await expectAccessible(page);
});

test('an application from the market starts a workflow conversation that the server answers', async ({ page }) => {
  await page.goto('/chat/agents');
  await page.getByRole('region', { name: 'Applications' }).getByRole('button', { name: 'Start LinkedIn Weekly Digest' }).click();
  await expect(page).toHaveURL(/\/chat$/);
  const header = page.getByTestId('chat-application');
  await expect(header.getByRole('heading', { level: 1 })).toHaveText('LinkedIn Weekly Digest');
  await expect(header).toContainText('drafts three LinkedIn posts');
  await box(page).fill('Shipped the new onboarding this week');
  await box(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/[^/?]+$/);
  await answered(page);
  // it is in the history like any other chat, with its title and time, and can be renamed
  const history = page.getByRole('navigation', { name: 'Chat history' });
  const row = history.getByRole('link', { name: /^Shipped the new onboarding/ });
  await expect(row).toHaveAttribute('aria-current', 'page');
  await expect(row.locator('time')).toHaveText(/now/);
  await row.hover();
  await history.getByRole('button', { name: /^Rename “Shipped the new onboarding/ }).click();
  await history.getByRole('textbox').fill('Onboarding digest');
  await history.getByRole('textbox').press('Enter');
  await expect(history.getByRole('link', { name: 'Onboarding digest' })).toBeVisible();
  await expectAccessible(page);
  // opened again from its address, it is still the application's, named
  await page.reload();
  await expect(page.getByTestId('chat-application').getByRole('heading', { level: 1 })).toHaveText('LinkedIn Weekly Digest');
  await expect(page.getByTestId('question')).toHaveText('Shipped the new onboarding this week');
  await expect(history.getByRole('link', { name: 'Onboarding digest' })).toHaveAttribute('aria-current', 'page');
});

test('export as Markdown and JSON, downloaded by the browser', async ({ page }) => {
  await page.goto('/chat');
  await box(page).fill('Plan a picnic for four');
  await box(page).press('Enter');
  await answered(page);
  await page.getByRole('button', { name: 'Share or export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share or export this chat' });
  // a visitor exports, and is told sharing needs an account
  await expect(dialog).toContainText('Log in to share chats by link');
  await expectAccessible(page);

  const [markdown] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export as Markdown' }).click()]);
  expect(markdown.suggestedFilename()).toBe('Plan-a-picnic-for-four.md');
  const text = await readFile((await markdown.path())!, 'utf8');
  expect(text).toContain('# Plan a picnic for four');
  expect(text).toContain('## You · ');
  expect(text).toContain('## Assistant · ');

  const [json] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export as JSON' }).click()]);
  const parsed = JSON.parse(await readFile((await json.path())!, 'utf8')) as { messages: { role: string; content: string }[] };
  expect(parsed.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  expect(parsed.messages[0]!.content).toBe('Plan a picnic for four');
});

test('share by link: read with no session, noindex, later messages left out, revoked from the account page', async ({ page, browser, baseURL }) => {
  // two answers, a second browser and three accessibility scans: 49-54 s on CI's two cores
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto('/chat');
  const hostile = 'Is <img src=x onerror="window.__pwned=1"> **bold**? [click](javascript:window.__pwned=2)';
  await box(page).fill(hostile);
  await box(page).press('Enter');
  await answered(page);

  await page.getByRole('button', { name: 'Share or export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share or export this chat' });
  await expect(dialog.getByRole('checkbox', { name: 'Show my name' })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const address = dialog.getByRole('textbox', { name: 'Link address' });
  await expect(address).toHaveValue(/\/share\/[A-Za-z0-9_-]{43}$/);
  const link = await address.inputValue();
  await page.keyboard.press('Escape');

  // the owner writes on after sharing: not in the snapshot
  await box(page).fill('A private follow-up');
  await box(page).press('Enter');
  await answered(page);

  // a fresh browser with no session reads it
  const stranger = await browser.newContext();
  // the answer's formatting arrives late: first the page as it reads before it, plain text
  let release = () => {};
  const formattingHeld = new Promise<void>((resolve) => (release = resolve));
  await stranger.route(/\/assets\/markdown-[\w-]+\.js$/, async (route) => {
    await formattingHeld;
    await route.continue();
  });
  const reader = await stranger.newPage();
  await reader.addInitScript(() => localStorage.setItem('umi_locale', 'en-US'));
  const response = await reader.goto(link);
  expect(response?.headers()['x-robots-tag']).toContain('noindex');
  const shared = reader.getByTestId('shared-conversation');
  await expect(shared.getByTestId('shared-user')).toContainText('onerror');
  await expect(shared.getByTestId('shared-assistant')).toHaveCount(1);
  await expect(shared).not.toContainText('A private follow-up');
  await expect(shared).toContainText('Shared on');
  await expect(reader.locator('meta[name="robots"]').first()).toHaveAttribute('content', /noindex/);
  // hostile text stays text
  expect(await reader.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(shared.locator('img[src="x"]')).toHaveCount(0);
  // checked where the conversation is longer than the window, before and after the formatting
  // (which adds the code's copy button): a region that scrolls is reachable from the keyboard
  // even when it holds nothing else to focus
  await reader.setViewportSize({ width: 1280, height: 300 });
  const scroller = shared.locator('..');
  await expect.poll(() => scroller.evaluate((box) => box.scrollHeight > box.clientHeight)).toBe(true);
  await expect(shared.getByRole('button')).toHaveCount(0);
  await expectAccessible(reader);
  release();
  await expect(shared.getByRole('button', { name: 'Copy code' }).first()).toBeVisible();
  await expectAccessible(reader);
  expect(await reader.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(shared.locator('img[src="x"]')).toHaveCount(0);
  const api = await reader.request.get(`${baseURL}/api/workflow/share/detail?token=${link.split('/').pop()}`);
  expect(api.headers()['x-robots-tag']).toContain('noindex');

  // revoked from the account page: the link is gone
  await page.goto('/account');
  const panel = page.getByTestId('shares-panel');
  await expect(panel.getByTestId('share-link')).toHaveCount(1);
  await expectAccessible(page);
  await panel.getByRole('button', { name: 'Revoke link' }).click();
  await expect(panel).toContainText('You have not shared any chats.');

  await reader.reload();
  await expect(reader.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
  expect((await reader.request.get(`${baseURL}/api/workflow/share/detail?token=${link.split('/').pop()}`)).status()).toBe(404);
  await stranger.close();
});
