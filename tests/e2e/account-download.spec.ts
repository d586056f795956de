import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { pngOf } from '../../server/test/png';
import { demoAccount, expect, logIn, test, useEnglish } from './fixtures';

const WINDOWS_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

type Profile = { nickname: string; wechatId: string; avatar: string };

const tokenOf = async (request: APIRequestContext) => {
  const response = await request.post('/api/system/auth/login', { data: { ...demoAccount(), loginType: 'password' } });
  return ((await response.json()) as { data: { token: string } }).data.token;
};

/** The demo account is shared by every spec: remember its profile and put it back afterwards. */
const keepDemoProfile = async (request: APIRequestContext) => {
  const token = await tokenOf(request);
  const headers = { authorization: `Bearer ${token}` };
  const me = (await (await request.get('/api/system/user/get-user-info', { headers })).json()) as { data: Profile };
  const saved: Profile = { nickname: me.data.nickname, wechatId: me.data.wechatId ?? '', avatar: me.data.avatar };
  return async () => {
    await request.post('/api/system/user/update', { headers, data: saved });
  };
};

const signIn = async (page: Page, context: BrowserContext, baseURL: string) => {
  await context.addCookies([{ name: 'ai-chat-ops-token', value: await tokenOf(page.request), url: baseURL }]);
};

/** The signed-in user's saved theme, as the preferences menu stores it; src/boot.js, written into the page, applies it at once. */
const preferDark = async (page: Page) => {
  const token = await tokenOf(page.request);
  const me = await page.request.get('/api/system/user/get-user-info', { headers: { authorization: `Bearer ${token}` } });
  const userId = ((await me.json()) as { data: { id: string } }).data.id;
  await page.addInitScript((id) => localStorage.setItem('ai-chat-ops:theme', JSON.stringify({ userId: id, value: 'dark' })), userId);
};

/** The page is no wider than its window, and the element lies inside the window's width. */
const expectFitsSideways = async (page: Page, what: string, element?: ReturnType<Page['locator']>) => {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${what} is wider than the window`).toBeLessThanOrEqual(width);
  if (element) {
    const box = (await element.boundingBox())!;
    expect(box.x, `${what} sticks out on the left`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${what} sticks out on the right`).toBeLessThanOrEqual(width);
  }
};

/** Opened from the keyboard, as a menu button should be (and whatever the header's width on a phone). */
const openUserMenu = async (page: Page) => {
  const button = page.getByRole('button', { name: /User menu/ });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Account' })).toBeFocused();
  return page.getByTestId('user-menu-popup');
};

for (const [label, device] of [
  ['desktop', {}],
  ['mobile', MOBILE],
] as const) {
  test.describe(`account (${label})`, () => {
    test.use(device);
    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
    });

    test('a visitor is sent to log in, then comes back to the account page', async ({ page }) => {
      await page.goto('/account');
      await expect(page).toHaveURL(/\/login\?redirect_url=%2Faccount$/);
      await logIn(page);
      await expect(page).toHaveURL(/\/account$/);
      await expect(page.getByLabel('Username')).toHaveValue(demoAccount().username);
    });

    test('edit the nickname and see it in the user menu; an invalid WeChat id is explained; an avatar previews', async ({ page, context, baseURL }) => {
      const restore = await keepDemoProfile(page.request);
      try {
        await signIn(page, context, baseURL!);
        await page.goto('/account');
        const nickname = page.getByLabel('Nickname');
        await expect(nickname).toBeVisible();

        await page.getByLabel('WeChat ID').fill('9-not-valid');
        await page.getByRole('button', { name: 'Save' }).click();
        await expect(page.getByTestId('account-wechatId-error')).toHaveText(
          'A WeChat ID has 6 to 20 characters, starts with a letter and uses only letters, digits, _ or -.',
        );
        await expect(page.getByLabel('WeChat ID')).toBeFocused();

        await page.getByTestId('avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngOf(96, [67, 56, 202]) });
        const preview = page.getByTestId('avatar-preview');
        await expect(preview).toHaveAttribute('src', /^\/api\/media\/file\//);
        await expect.poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(96);

        const newName = `Ada ${label} ${Date.now() % 10_000}`;
        await nickname.fill(newName);
        await page.getByLabel('WeChat ID').fill('ada_lovelace');
        await page.getByRole('button', { name: 'Save' }).click();
        await expect(page.getByText('Your account details were saved', { exact: true })).toBeVisible();

        const menu = await openUserMenu(page);
        await expect(menu.getByTestId('user-menu-account')).toContainText(newName);
        await expect(menu.getByTestId('user-menu-account').locator('img')).toHaveAttribute('src', /^\/api\/media\/file\//);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('button', { name: /User menu/ })).toBeFocused();

        await page.reload();
        await expect(page.getByLabel('Nickname')).toHaveValue(newName);
      } finally {
        await restore();
      }
    });

    test('account page in light and dark: the form, its error and the user menu fit the window', async ({ page, context, baseURL }) => {
      await signIn(page, context, baseURL!);
      await page.goto('/account');
      await expect(page.getByLabel('Nickname')).toBeVisible();
      await expectFitsSideways(page, 'the account page (light)', page.getByLabel('Nickname'));
      await preferDark(page);
      await page.reload();
      await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      await page.getByLabel('Nickname').fill('');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByTestId('account-nickname-error')).toBeVisible();
      await expectFitsSideways(page, 'the nickname error (dark)', page.getByTestId('account-nickname-error'));
      const menu = await openUserMenu(page);
      await expect(menu).toBeVisible();
      await expectFitsSideways(page, 'the user menu (dark)', menu);
    });

    test('attach an image in the chat, see its preview, send it, and see it on the message', async ({ page }) => {
      await page.goto('/chat');
      await page.getByTestId('attach-input').setInputFiles([
        { name: 'red-square.png', mimeType: 'image/png', buffer: pngOf(64, [220, 38, 38]) },
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Some notes for the agent.\n') },
      ]);
      const tray = page.getByRole('list', { name: 'Attachments' });
      await expect(tray.getByTestId('attachment')).toHaveCount(2);
      await expect(tray.locator('[data-state="done"]')).toHaveCount(2);
      await expect(tray.getByTestId('attachment-thumbnail')).toHaveAttribute('src', /^\/api\/media\/file\//);
      await expectFitsSideways(page, 'the attachments tray', tray);

      await page.getByRole('textbox', { name: /Ask anything/ }).fill('What colour is this square?');
      await page.getByRole('button', { name: 'Send' }).click();
      const question = page.locator('li[data-role="user"]').last();
      const image = question.getByTestId('message-image');
      await expect(image).toBeVisible();
      await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(64);
      await expect(question.getByTestId('message-file')).toContainText('notes.txt');
      await expect(question.getByTestId('message-file')).toHaveAttribute('download', 'notes.txt');
      await expect(page.getByTestId('attachment')).toHaveCount(0);

      // The files stay with the message when the conversation is opened again.
      await expect(page.locator('li[data-role="assistant"][data-status="complete"]')).toBeVisible({ timeout: 20_000 });
      await page.reload();
      await expect(page.locator('li[data-role="user"]').last().getByTestId('message-image')).toBeVisible();
    });
  });

  test.describe(`download (${label})`, () => {
    // A narrow Windows window: a phone would rightly get no desktop recommendation.
    test.use({ viewport: 'viewport' in device ? device.viewport : { width: 1280, height: 800 }, userAgent: WINDOWS_UA });
    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
    });

    test('recommends Windows to a Windows visitor and lists the other platforms', async ({ page }) => {
      await page.goto('/download');
      const recommended = page.getByTestId('recommended');
      await expect(recommended).toContainText('We detected Windows.');
      await expect(recommended.getByRole('heading', { level: 3 })).toHaveText('Windows');
      await expect(recommended).toContainText('Windows 10 or later');
      const others = page.getByTestId('other-platforms');
      await expect(others.getByRole('heading', { level: 3 })).toHaveText(['macOS', 'Linux']);
      await expectFitsSideways(page, 'the download page', recommended);

      // No installer is on this test server: the page says so and offers no button that would fail.
      await expect(page.getByTestId('downloads-unavailable')).toContainText('The desktop app cannot be downloaded here yet.');
      await expect(recommended).toContainText('The Windows installers are not available here yet.');
      await expect(page.getByTestId('download-link')).toHaveCount(0);
      const manifest = (await (await page.request.get('/api/app/download-manifest')).json()) as { data: { status: string } };
      expect(manifest.data.status).toBe('unavailable');
      // The server still says clearly that an installer is not there, to anyone who asks for it.
      const response = await page.request.get('/downloads/kraken-ai-1.0.0-x64.exe');
      expect(response.status()).toBe(404);
      expect(await response.text()).toContain('is not available on this server yet');

      await page.addInitScript(() => localStorage.setItem('ai-chat-ops:theme', JSON.stringify({ userId: 'visitor', value: 'dark' })));
      await page.reload();
      await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      await expect(page.getByTestId('recommended')).toBeVisible();
    });
  });
}
