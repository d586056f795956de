import type { Page } from '@playwright/test';
import { expect, test, useEnglish } from './fixtures';

/**
 * Escape stops an answer in a real browser, against the real server. The answer is held at the
 * end of its first line, so the key lands while the server is still writing it however slow the
 * machine is.
 */

const box = (page: Page) => page.getByRole('textbox', { name: /Ask anything/ });
const reply = (page: Page) => page.locator('li[data-role="assistant"]').last();

test('Escape stops the answer being written, anywhere on the page; the stored answer is what was shown', async ({ page, answers }) => {
  await useEnglish(page);
  answers.hold();
  await page.goto('/chat');
  await box(page).fill('Stop me with the keyboard');
  await box(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/[^/?]+$/);
  await expect(reply(page).getByTestId('answer')).toContainText('Offline responder');
  await expect(reply(page)).toHaveAttribute('data-status', 'streaming');
  // the shortcuts' code arrives after the page: a key pressed before it would go unheard
  await expect(page.locator('html')).toHaveAttribute('data-shortcuts', 'on');
  // the focus is nowhere in particular: the page itself hears the key
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Escape');
  await expect(reply(page)).toHaveAttribute('data-status', 'incomplete');
  await expect(page.getByRole('button', { name: 'Stop generating' })).toHaveCount(0);
  const shown = await reply(page).getByTestId('answer').innerText();
  expect(shown).not.toContain('the real answer will stream here');
  // the server stopped writing it: read again, it is the same text, still incomplete
  await page.reload();
  await expect(reply(page)).toHaveAttribute('data-status', 'incomplete');
  await expect.poll(() => reply(page).getByTestId('answer').innerText()).toBe(shown);
});
