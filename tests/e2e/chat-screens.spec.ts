import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { endpoints } from '../../src/contract/endpoints';
import { UNDO_DELETE_MS } from '../../src/machines/conversations.machine';
import { expect, test, useEnglish } from './fixtures';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

const useDark = async (page: Page) => {
  await page.addInitScript(() => localStorage.setItem('ai-chat-ops:theme', JSON.stringify({ userId: 'visitor', value: 'dark' })));
};

const ask = async (page: Page, question: string) => {
  const box = page.getByRole('textbox', { name: /Ask anything/ });
  await box.fill(question);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/chat\/[^/?]+$/);
  await expect(page.locator('li[data-role="assistant"][data-status="complete"]').last()).toBeVisible({ timeout: 20_000 });
};

/** No serious or critical accessibility violation on the page as it is now. */
const expectAccessible = async (page: Page) => {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`)).toEqual([]);
};

const history = (page: Page) => page.getByRole('navigation', { name: 'Chat history' });

/** A row's actions show on hover or keyboard focus, as a reader finds them. */
const rowAction = async (page: Page, title: string, action: 'Rename' | 'Pin' | 'Unpin' | 'Delete') => {
  await history(page).getByRole('link', { name: title }).hover();
  await history(page).getByRole('button', { name: `${action} “${title}”` }).click();
};

test('an agent picked in the market answers in a new chat, shown in the header', async ({ page }) => {
  await page.goto('/chat');
  await page.getByRole('link', { name: 'Browse the agents market' }).first().click();
  await expect(page).toHaveURL(/\/chat\/agents$/);
  const cards = page.getByTestId('agent-card');
  await expect(cards.first()).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search agents' }).fill('travel');
  await expect(cards).toHaveCount(1);
  await cards.first().click();

  const detail = page.getByRole('dialog', { name: 'Travel Planner' });
  await expect(detail).toBeVisible();
  await expect(detail).toContainText('Created by');
  await detail.getByRole('button', { name: 'Start a new chat' }).click();

  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByTestId('chat-agent-name')).toHaveText('Travel Planner');
  const box = page.getByRole('textbox', { name: /Ask anything/ });
  await box.fill('Three days in Kyoto?');
  await box.press('Enter');
  const answer = page.getByTestId('answer');
  await expect(answer).toContainText(/\S/);
  await expect(page.locator('li[data-role="assistant"][data-status="complete"]')).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/chat\/[^/]+$/);
  await expect(page.getByTestId('chat-agent-name')).toHaveText('Travel Planner');

  // the copy button copies the answer
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.locator('li[data-role="assistant"]').getByRole('button', { name: 'Copy message' }).click();
  await expect(page.locator('li[data-role="assistant"]').getByRole('button', { name: 'Copied' })).toBeVisible();
});

test('the message box grows with its text up to 240 px, then scrolls, and is one line again once sent', async ({ page }) => {
  await page.goto('/chat');
  const box = page.getByRole('textbox', { name: /Ask anything/ });
  const height = async () => (await box.boundingBox())?.height ?? 0;
  const oneLine = await height();
  expect(oneLine).toBeGreaterThanOrEqual(40);

  await box.fill('First line\nsecond line\nthird line');
  const threeLines = await height();
  expect(threeLines).toBeGreaterThan(oneLine + 30);

  await box.fill(Array.from({ length: 30 }, (_, line) => `Line ${line + 1}`).join('\n'));
  await expect.poll(height).toBe(240);
  expect(await box.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);

  await box.fill('First line\nsecond line\nthird line');
  await expect.poll(height).toBe(threeLines);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/chat\/[^/?]+$/);
  await expect(box).toHaveValue('');
  await expect.poll(height).toBe(oneLine);
});

test('the market shows every published agent and says when the list is complete', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto('/chat/agents');
  const cards = page.getByTestId('agent-card');
  await expect(cards.first()).toBeVisible();
  await page.getByTestId('agents-market').evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(page.getByText('You have seen every agent')).toBeVisible();
  await expect(cards.filter({ hasText: 'draft' })).toHaveCount(0);
});

test('a chat link with ?agent= opens a new chat with that agent', async ({ page }) => {
  await page.goto('/chat?agent=linkedin-post-writer');
  await expect(page.getByTestId('chat-agent-name')).toHaveText('LinkedIn Post Writer');
  await ask(page, 'A post about our new office');
  await expect(page.getByTestId('chat-agent-name')).toHaveText('LinkedIn Post Writer');
});

/**
 * Two chats in the history, as a visitor makes them. The history's flows are tested in two tests
 * that each make their own: together, with the undo window and two reloads, they took 24–33 s on
 * a busy two-core machine, against a 30 s budget for one test.
 */
const twoChats = async (page: Page) => {
  await page.goto('/chat');
  await ask(page, 'First question about bread');
  await page.getByTestId('new-chat').click();
  await ask(page, 'Second question about cheese');
  await expect(history(page).getByRole('link', { name: 'First question about bread' })).toBeVisible();
};

test('history: rename inline and pin to the top, and the server keeps both', async ({ page }) => {
  await twoChats(page);
  const list = history(page);
  await expect(list.getByRole('heading', { name: 'Today' })).toBeVisible();
  await expect(list.locator('time').first()).toHaveText(/now|seconds? ago|minutes? ago/);

  // rename inline
  await rowAction(page, 'First question about bread', 'Rename');
  const field = list.getByRole('textbox', { name: 'New name for “First question about bread”' });
  await expect(field).toBeFocused();
  await field.fill('Sourdough notes');
  await field.press('Enter');
  await expect(list.getByRole('link', { name: 'Sourdough notes' })).toBeVisible();

  // pin: it moves to the top under "Pinned"
  // keyboard: Tab from the link reaches the row's buttons
  await list.getByRole('link', { name: 'Sourdough notes' }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(list.getByRole('button', { name: 'Pin “Sourdough notes”' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(list.getByRole('heading', { name: 'Pinned' })).toBeVisible();
  await expect(list.getByTestId('history-title').first()).toHaveText('Sourdough notes');

  // the server kept both
  await page.reload();
  await expect(history(page).getByTestId('history-title').first()).toHaveText('Sourdough notes');
  await expect(history(page).getByRole('heading', { name: 'Pinned' })).toBeVisible();
});

test('history: delete and undo, delete for good once the undo window ends, search', async ({ page }) => {
  await twoChats(page);

  // delete, then undo from the toast
  await rowAction(page, 'First question about bread', 'Delete');
  await expect(history(page).getByRole('link', { name: 'First question about bread' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(history(page).getByRole('link', { name: 'First question about bread' })).toBeVisible();

  // delete for good: after the undo window the server is told, and forgets it
  const deleted = page.waitForResponse((response) => response.url().endsWith(endpoints.conversationDelete.path), { timeout: 15_000 });
  const asked = Date.now();
  await rowAction(page, 'First question about bread', 'Delete');
  expect((await deleted).ok()).toBe(true);
  // Not before the undo window the history shows (half a second's leeway for the clocks)
  expect(Date.now() - asked).toBeGreaterThanOrEqual(UNDO_DELETE_MS - 500);
  await page.reload();
  await expect(history(page).getByRole('link', { name: 'Second question about cheese' })).toBeVisible();
  await expect(history(page).getByRole('link', { name: 'First question about bread' })).toHaveCount(0);

  // search
  await history(page).getByRole('searchbox', { name: 'Search chats' }).fill('zzz-nothing');
  await expect(history(page).getByText('No chats match “zzz-nothing”')).toBeVisible();
});

test('the chat, the market and an agent’s detail pass axe at 1280 px in light', async ({ page }) => {
  // Several screens, each checked with axe: up to 28 s on a busy two-core machine.
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/chat?agent=xhs-note-writer');
  await ask(page, 'Write a note about a rainy day in Shanghai');
  await expectAccessible(page);
  await page.goto('/chat/agents');
  await expect(page.getByTestId('agent-card').first()).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('agent-card').nth(1).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page);
});

test('the chat (a table and code) and the market pass axe at 1280 px in dark', async ({ page }) => {
  // Several screens, each checked with axe: up to 28 s on a busy two-core machine.
  test.setTimeout(60_000);
  await useDark(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/chat');
  await ask(page, 'Give me a table of three bread types with a code sample');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expectAccessible(page);
  await page.goto('/chat/agents');
  await expect(page.getByTestId('agent-card').first()).toBeVisible();
  await expectAccessible(page);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('one bar, times shown without hover; the menu and history are a drawer: labelled, focus kept inside, Escape closes, picking a chat closes it', async ({ page }) => {
    await page.goto('/chat');
    await ask(page, 'Mobile question');
    await expect(page.getByRole('navigation', { name: 'Chat history' })).toBeHidden();
    // The chat's own bar is the page's only one (the site header's links are in its menu), and a
    // touch screen shows when each message was sent, since nothing there hovers.
    const bar = (await page.getByTestId('chat-bar').boundingBox())!;
    expect(bar.y + bar.height, 'the bars above the chat on a phone').toBeLessThanOrEqual(64);
    await expect(page.locator('li[data-role="assistant"] time')).toHaveCSS('opacity', '1');

    const opener = page.getByRole('button', { name: 'Open menu and chat history' });
    await opener.click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    // The drawer lies on the phone's screen, whole: nothing of it or the page sticks out sideways.
    const drawn = (await drawer.boundingBox())!;
    expect(drawn.x).toBeGreaterThanOrEqual(0);
    expect(drawn.x + drawn.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    for (let index = 0; index < 12; index += 1) {
      await page.keyboard.press('Tab');
      expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await drawer.getByRole('link', { name: 'Browse the agents market' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByTestId('agent-card').first()).toBeVisible();

    await opener.click();
    await drawer.getByRole('link', { name: 'Mobile question' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByTestId('question')).toHaveText('Mobile question');
  });
});
