import AxeBuilder from '@axe-core/playwright';
import { expect, test, useEnglish } from './fixtures';

/** Keyboard shortcuts in a real browser: the ? dialog is accessible, and keys reach the chat. */

test('? lists the shortcuts in an accessible dialog that keeps the focus and closes with Escape', async ({ page }) => {
  await useEnglish(page);
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Ask the assistant' });
  await expect(box).toBeFocused();
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
