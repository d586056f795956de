import type { Locator, Page } from '@playwright/test';
import { expect, test, useEnglish } from './fixtures';

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

/**
 * Every test here asks several questions and reloads the page between them: on a busy two-core
 * machine, with the two workers' servers and browsers sharing it, they took up to 28 s, too close
 * to the 30 s default to fail only when something is wrong.
 */
test.describe.configure({ timeout: 60_000 });

const box = (page: Page) => page.getByRole('textbox', { name: /Ask anything/ });
const question = (page: Page) => page.locator('li[data-role="user"]').last();
const answer = (page: Page) => page.locator('li[data-role="assistant"]').last();
const versionsOf = (item: Locator) => item.getByRole('group', { name: 'Versions' });
const answered = (page: Page) => expect(answer(page)).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });

const ask = async (page: Page, text: string) => {
  await box(page).fill(text);
  await box(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/[^/?]+$/);
  await answered(page);
};

test('edit a question, ask for a new answer, and the version chosen stays after a reload', async ({ page }) => {
  await page.goto('/chat');
  await ask(page, 'Which flour for bread?');

  await question(page).getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: 'Edit your question' });
  await expect(editor).toHaveValue('Which flour for bread?');
  await editor.fill('Which flour for a soft loaf?');
  await page.getByRole('button', { name: 'Send as a new version' }).click();
  await answered(page);
  await expect(question(page).getByTestId('question')).toHaveText('Which flour for a soft loaf?');
  await expect(versionsOf(question(page))).toContainText('2 / 2');

  await answer(page).getByRole('button', { name: 'New answer' }).click();
  await answered(page);
  await expect(versionsOf(answer(page))).toContainText('2 / 2');

  // Back to the first question, with the keyboard: its own answer comes with it.
  await versionsOf(question(page)).getByRole('button', { name: 'Previous version' }).focus();
  await page.keyboard.press('Enter');
  await expect(question(page).getByTestId('question')).toHaveText('Which flour for bread?');
  await expect(versionsOf(question(page))).toContainText('1 / 2');
  await expect(versionsOf(answer(page))).toHaveCount(0);

  await page.reload();
  await expect(question(page).getByTestId('question')).toHaveText('Which flour for bread?');
  await expect(versionsOf(question(page))).toContainText('1 / 2');

  await versionsOf(question(page)).getByRole('button', { name: 'Next version' }).click();
  await expect(question(page).getByTestId('question')).toHaveText('Which flour for a soft loaf?');
  await expect(versionsOf(answer(page))).toContainText('2 / 2');
  await versionsOf(answer(page)).getByRole('button', { name: 'Previous version' }).click();
  await expect(versionsOf(answer(page))).toContainText('1 / 2');

  await page.reload();
  await expect(question(page).getByTestId('question')).toHaveText('Which flour for a soft loaf?');
  await expect(versionsOf(answer(page))).toContainText('1 / 2');
});

test('each conversation keeps its own unsent text, and so does a new chat, across reloads', async ({ page }) => {
  await page.goto('/chat');
  await ask(page, 'Alpha');
  const alpha = page.url();
  await box(page).fill('A draft for alpha');

  await page.getByTestId('new-chat').first().click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(box(page)).toHaveValue('');
  await ask(page, 'Beta');
  await box(page).fill('A draft for beta');

  await page.reload();
  await expect(box(page)).toHaveValue('A draft for beta');

  await page.getByRole('navigation', { name: 'Chat history' }).getByRole('link', { name: 'Alpha' }).click();
  await expect(page).toHaveURL(alpha);
  await expect(box(page)).toHaveValue('A draft for alpha');

  await page.getByTestId('new-chat').first().click();
  await expect(box(page)).toHaveValue('');
  await box(page).fill('Something for later');
  await page.reload();
  await expect(box(page)).toHaveValue('Something for later');

  // Sending clears the draft of that conversation only.
  await page.goto(alpha);
  await expect(box(page)).toHaveValue('A draft for alpha');
  await box(page).press('Enter');
  await answered(page);
  await expect(box(page)).toHaveValue('');
  await page.reload();
  await expect(answer(page)).toHaveAttribute('data-status', 'complete');
  await expect(box(page)).toHaveValue('');
});
