import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, useEnglish } from './fixtures';

/** The shortcuts' code arrives after the page: a key pressed before it would go unheard. */
const shortcutsHeard = (page: Page) => expect(page.locator('html')).toHaveAttribute('data-shortcuts', 'on');

/** Keyboard shortcuts in a real browser: the ? dialog is accessible, and keys reach the chat. */

test('? lists the shortcuts in an accessible dialog that keeps the focus and closes with Escape', async ({ page }) => {
  await useEnglish(page);
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Ask the assistant' });
  await expect(box).toBeFocused();
  await shortcutsHeard(page);
  // In the text field, ? is a character.
  await page.keyboard.press('Shift+Slash');
  await expect(box).toHaveValue('?');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await box.fill('');
  await box.blur();

  await page.keyboard.press('Shift+Slash');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Search chats');
  await expect(dialog.locator('kbd').first()).toHaveText('Ctrl');
  const { violations } = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(violations.map((violation) => violation.id)).toEqual([]);
  // Tab stays inside the dialog.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Ctrl+Shift+O opens a new chat with its composer focused; Ctrl+K the search of chats.
  await page.keyboard.press('Control+Shift+KeyO');
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByRole('textbox', { name: /Ask anything/ })).toBeFocused();
  await page.keyboard.press('Control+KeyK');
  await expect(page.getByRole('searchbox')).toBeFocused();
  await page.keyboard.press('Control+Shift+KeyS');
  await expect(page.getByRole('searchbox')).toHaveCount(0);
  await page.keyboard.press('Control+Shift+KeyS');
  await expect(page.getByRole('searchbox')).toBeVisible();
});

test('Ctrl+Shift+; copies the last answer to the clipboard, and says when there is none yet', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await useEnglish(page);
  await page.goto('/chat');
  const box = page.getByRole('textbox', { name: /Ask anything/ });
  await expect(box).toBeVisible();
  await shortcutsHeard(page);
  await page.evaluate(() => navigator.clipboard.writeText('left over from before'));
  await page.keyboard.press('Control+Shift+Semicolon');
  await expect(page.getByText('There is no answer to copy yet', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('left over from before');

  await box.fill('Something worth copying');
  await box.press('Enter');
  const reply = page.locator('li[data-role="assistant"]').last();
  await expect(reply).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
  // from the composer too: the shortcut is not a character it would type
  await box.focus();
  await page.keyboard.press('Control+Shift+Semicolon');
  await expect(page.getByText('Answer copied', { exact: true })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  // the answer as written (Markdown), this conversation's
  expect(copied).toMatch(/^> \*\*Offline responder/);
  expect(copied).toContain('You asked: *Something worth copying*');
  // the answer's own text, as the message's Copy button gives it
  await reply.hover();
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await reply.getByRole('button', { name: 'Copy message' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(copied);
  await expect(box).toHaveValue('');
});

test('no shortcut fires while an input method is composing, and the same keys work once it is done', async ({ page }) => {
  await useEnglish(page);
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Ask the assistant' });
  await expect(box).toBeFocused();
  await shortcutsHeard(page);
  await page.evaluate(() => {
    const seen: boolean[] = [];
    Object.assign(window, { composingKeys: seen });
    window.addEventListener('keydown', (event) => seen.push(event.isComposing), { capture: true });
  });
  const cdp = await page.context().newCDPSession(page);
  // an input method (Japanese, say) is composing にほ in the box
  await cdp.send('Input.imeSetComposition', { text: 'にほ', selectionStart: 2, selectionEnd: 2 });
  await expect(box).toHaveValue('にほ');
  await page.keyboard.press('Control+Shift+KeyO');
  await page.keyboard.press('Control+KeyK');
  // the browser told the page the keys belong to the composition, and the page left them alone
  const composing = await page.evaluate(() => (window as unknown as { composingKeys: boolean[] }).composingKeys);
  expect(composing.length).toBeGreaterThanOrEqual(2);
  expect(composing.every(Boolean)).toBe(true);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('searchbox')).toHaveCount(0);
  // the composition ends: the same keys are shortcuts again
  await cdp.send('Input.insertText', { text: 'にほん' });
  await expect(box).toHaveValue('にほん');
  await page.keyboard.press('Control+Shift+KeyO');
  await expect(page).toHaveURL(/\/chat$/);
});
