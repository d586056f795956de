import type { BrowserContext, Locator, Page } from '@playwright/test';
import { demoAccount, expect, test, useEnglish } from './fixtures';

/**
 * What a first-time visitor trips over on a desktop screen: words broken inside the chat's
 * history, a placeholder cut short, a header that does not say where one is, a login form shown
 * to someone signed in, and table headings that do not sit above their cells.
 */
const LOCALES = ['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'ja'] as const;

test.use({ viewport: { width: 1366, height: 800 } });

/** The lines a link's words take: the distinct tops of its text's boxes. */
const linesOf = (link: Locator) =>
  link.evaluate((element) => {
    const range = document.createRange();
    const tops = new Set<number>();
    for (const node of element.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
    }
    return tops.size;
  });

/** Whether an input's placeholder fits inside it, measured in the input's own font. */
const placeholderFits = (input: Locator) =>
  input.evaluate((element: HTMLInputElement) => {
    const style = getComputedStyle(element);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(element.placeholder).width <= room;
  });

const signIn = async (page: Page, context: BrowserContext, baseURL: string) => {
  const response = await page.request.post('/api/system/auth/login', { data: { ...demoAccount(), loginType: 'password' } });
  const body = (await response.json()) as { data: { token: string } };
  await context.addCookies([{ name: 'ai-chat-ops-token', value: body.data.token, url: baseURL }]);
  return body.data.token;
};

for (const locale of LOCALES) {
  test(`the chat's history in ${locale}: each button on one line, the search hint whole`, async ({ page }) => {
    await page.addInitScript((value) => localStorage.setItem('umi_locale', value), locale);
    await page.goto('/chat');
    const history = page.getByRole('navigation').filter({ has: page.getByTestId('new-chat') });
    const newChat = page.getByTestId('new-chat');
    await expect(newChat).toBeVisible();
    expect(await linesOf(newChat), `"${await newChat.textContent()}" breaks`).toBe(1);
    const market = history.locator('a[href="/chat/agents"]');
    expect(await linesOf(market), `"${await market.textContent()}" breaks`).toBe(1);
    // one way to the market on a wide screen: the history's
    await expect(page.locator('a[href="/chat/agents"]')).toHaveCount(1);
    const search = history.getByRole('searchbox');
    expect(await placeholderFits(search), `"${await search.getAttribute('placeholder')}" is cut`).toBe(true);
  });
}

test('a long chat title ends in an ellipsis where it does not fit', async ({ page }) => {
  await useEnglish(page);
  await page.goto('/');
  const box = page.getByRole('textbox').first();
  await box.fill('Could you explain how sourdough starters behave in very cold kitchens during the winter months?');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/chat\/[^/]+$/);
  const title = page.getByTestId('history-title').first();
  await expect(title).toHaveText('Could you explain how sourdough starters behave in very cold…');
  expect(await title.evaluate((element) => getComputedStyle(element).textOverflow)).toBe('ellipsis');
});

test('the header marks the page one is on', async ({ page }) => {
  await useEnglish(page);
  await page.goto('/download');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Download' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Chat' })).not.toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Chat' }).click();
  await expect(nav.getByRole('link', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Download' })).not.toHaveAttribute('aria-current', 'page');
});

test('/login sends someone already signed in on to a redirect_url of this site, never another', async ({ page, context, baseURL }) => {
  await useEnglish(page);
  await signIn(page, context, baseURL!);
  await page.goto(`/login?redirect_url=${encodeURIComponent('/download')}`);
  await expect(page).toHaveURL(/\/download$/);
  await page.goto(`/login?redirect_url=${encodeURIComponent('https://evil.example/')}`);
  await expect(page).toHaveURL(new RegExp(`^${baseURL!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/?$`));
  await expect(page.getByLabel('Password')).toHaveCount(0);
});

test('the operations table’s headings start where their cells start', async ({ page, context, baseURL }) => {
  await useEnglish(page);
  const token = await signIn(page, context, baseURL!);
  const created = await page.request.post('/api/kraken/task/create', {
    headers: { Authorization: `Bearer ${token}` },
    data: { platform: 'linkedin', title: 'Aligned headings', body: 'A post.' },
  });
  expect(created.ok()).toBe(true);
  await page.goto('/kraken-operation');
  const table = page.locator('table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const offsets = await table.evaluate((element) => {
    const heads = [...element.querySelectorAll('thead th')];
    const cells = [...element.querySelectorAll('tbody tr:first-child td')];
    const textStart = (node: Element) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return Math.round(range.getClientRects()[0]?.left ?? node.getBoundingClientRect().left);
    };
    return heads.map((head, index) => [textStart(head), cells[index] ? Math.round(cells[index].getBoundingClientRect().left + parseFloat(getComputedStyle(cells[index]).paddingLeft)) : null]);
  });
  for (const [head, cell] of offsets) expect(Math.abs(head! - cell!)).toBeLessThanOrEqual(2);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the Japanese slogan wraps into balanced lines, leaving no lone "す。"', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('umi_locale', 'ja'));
    await page.goto('/');
    const slogan = page.getByRole('heading', { level: 1 }).locator('xpath=following-sibling::p[1]');
    await expect(slogan).toBeVisible();
    const lines = await slogan.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      const byTop = new Map<number, number>();
      for (const rect of range.getClientRects()) byTop.set(Math.round(rect.top), (byTop.get(Math.round(rect.top)) ?? 0) + rect.width);
      const fontSize = parseFloat(getComputedStyle(element).fontSize);
      return [...byTop.values()].map((width) => width / fontSize);
    });
    // the lines are balanced: the last one holds a good part of the sentence, never a lone "す。"
    expect(lines.at(-1)!, JSON.stringify(lines)).toBeGreaterThan(Math.max(...lines) / 3);
  });
});
