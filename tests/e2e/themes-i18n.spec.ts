import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import { demoAccount, expect, test, useEnglish } from './fixtures';

const LOCALES = ['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'ja'] as const;

/** A word of the kind German makes, longer than a phone is wide. */
const LONG_GERMAN = 'Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenherstellungsbetrieb';

const openSettings = async (page: Page) => {
  await page.getByTestId('preferences-button').click();
  return page.getByTestId('preferences-panel');
};

/** Signs the demo account in through the API and hands the token cookie to the browser, in any language. */
const signIn = async (page: Page, context: BrowserContext, baseURL: string) => {
  const response = await page.request.post('/api/system/auth/login', { data: { ...demoAccount(), loginType: 'password' } });
  const body = (await response.json()) as { data: { token: string } };
  await context.addCookies([{ name: 'ai-chat-ops-token', value: body.data.token, url: baseURL }]);
};

/** Asks a question from the home page and waits for the finished answer; returns the chat's address. */
const startChat = async (page: Page, question: string) => {
  await page.goto('/');
  const box = page.getByRole('textbox').first();
  await box.fill(question);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/chat\/[^/]+$/);
  await expect(page.locator('li[data-role="assistant"][data-status="complete"]')).toBeVisible({ timeout: 20_000 });
  return new URL(page.url()).pathname;
};

/** The page is no wider than the window: nothing sticks out sideways. */
const expectNoSidewaysOverflow = async (page: Page, what: string) => {
  // On a phone the browser zooms out to fit what sticks out, so compare with the device's width.
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${what} is wider than the screen`).toBeLessThanOrEqual(page.viewportSize()!.width);
};

test.describe('themes', () => {
  test.beforeEach(async ({ page }) => {
    await useEnglish(page);
  });

  test('dark survives a reload and is there from the first paint, with no flash of light', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    const settings = await openSettings(page);
    await settings.getByRole('radio', { name: 'Dark' }).check();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect.poll(() => page.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');

    // Watches <html> from before the first byte of the page: every class it ever has, and what it
    // is when the document is parsed (before any module script ran) and at the first frame.
    await page.addInitScript(() => {
      const seen: string[] = [];
      const record = () => seen.push(document.documentElement?.className ?? '');
      const w = window as unknown as { __classes: string[]; __atParsed: string; __atFirstFrame: string };
      w.__classes = seen;
      new MutationObserver(record).observe(document, { attributes: true, subtree: true, attributeFilter: ['class'] });
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') w.__atParsed = document.documentElement.className;
      });
      requestAnimationFrame(() => (w.__atFirstFrame = document.documentElement.className));
    });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const watched = await page.evaluate(() => {
      const { __classes, __atParsed, __atFirstFrame } = window as unknown as { __classes: string[]; __atParsed: string; __atFirstFrame: string };
      return { __classes, __atParsed, __atFirstFrame };
    });
    expect(watched.__atParsed).toMatch(/\bdark\b/);
    expect(watched.__atFirstFrame).toMatch(/\bdark\b/);
    expect(watched.__classes.filter((className) => !/\bdark\b/.test(className))).toEqual([]);
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(15, 17, 21)');
  });

  test('"system" follows the device, also when it changes while the page is open', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    const settings = await openSettings(page);
    await settings.getByRole('radio', { name: 'Match device' }).check();
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);

    // A reload on a dark device starts dark.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  });

  test('the default follows a dark device from the first paint', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect((await openSettings(page)).getByRole('radio', { name: 'Match device' })).toBeChecked();
  });

  test('a visitor’s Dark goes into an account that has no theme, and stays after logout', async ({ page, context, baseURL }) => {
    await page.goto('/');
    await (await openSettings(page)).getByRole('radio', { name: 'Dark' }).check();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await signIn(page, context, baseURL!);
    await page.reload();
    await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect((await openSettings(page)).getByRole('radio', { name: 'Dark' })).toBeChecked();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  });
});

test.describe('languages', () => {
  test.use({ locale: 'de-DE' });

  test('starts in the browser’s language; switching changes the text and <html lang> at once and is kept', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mit KI-Experten sprechen');
    await expect(page).toHaveTitle('Mit KI-Experten sprechen - Kraken AI');

    const settings = await openSettings(page);
    await settings.getByRole('radio', { name: '日本語' }).check();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('専門の AI エージェントと話そう');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page).toHaveTitle('専門の AI エージェントと話そう - Kraken AI');
    expect(await page.evaluate(() => localStorage.getItem('umi_locale'))).toBe('ja');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('専門の AI エージェントと話そう');
  });

  test('a saved language the product does not have is reported and replaced by Chinese', async ({ page }) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.addInitScript(() => localStorage.setItem('umi_locale', 'ar'));
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('和专业的 AI 智能体对话');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    expect(warnings.join('\n')).toMatch(/"ar" does not exist/);
  });

  test('the home page downloads only the active language, and only its shell', async ({ page }) => {
    const bundles: string[] = [];
    page.on('request', (request) => {
      const match = /\/assets\/(_?locale-shell-)?(zh-CN|en-US|fr-FR|de-DE|ja)-[\w-]+\.js$/.exec(request.url());
      if (match) bundles.push(`${match[1] ? 'shell ' : ''}${match[2]}`);
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(bundles).toEqual(['shell de-DE']);

    // Any other page brings the rest of that language, and still no other.
    await page.getByRole('link', { name: 'Herunterladen' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(bundles).toEqual(['shell de-DE', 'de-DE']);
  });
});

test.describe('right to left', () => {
  test('a right-to-left document mirrors the layout', async ({ page, baseURL }) => {
    await useEnglish(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await startChat(page, 'How do right-to-left layouts work?');
    // No right-to-left language ships yet: the test forces what applyDocumentLocale does for one.
    await page.evaluate(() => {
      document.documentElement.lang = 'ar';
      document.documentElement.dir = 'rtl';
    });

    const box = async (locator: ReturnType<Page['locator']>) => (await locator.boundingBox())!;
    const logo = await box(page.getByRole('banner').getByRole('link').first());
    const settings = await box(page.getByTestId('preferences-button'));
    expect(logo.x).toBeGreaterThan(settings.x);
    const question = await box(page.getByTestId('question'));
    const answer = await box(page.getByTestId('answer'));
    // The reader's own message sits at the start side, which is now the left.
    expect(question.x).toBeLessThan(answer.x + answer.width / 2);

    await page.goto(`${baseURL}/`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.evaluate(() => {
      document.documentElement.lang = 'ar';
      document.documentElement.dir = 'rtl';
    });
    await (await openSettings(page)).first().waitFor();
    const panel = await box(page.getByTestId('preferences-panel'));
    expect(panel.x).toBeGreaterThanOrEqual(0);
  });
});

const ROUTES = [
  { name: 'home', path: '/' },
  { name: 'login', path: '/login' },
  { name: 'google-return', path: '/login/google?error=access_denied&state=x' },
  { name: 'chat', path: '{chat}' },
  { name: 'download', path: '/download' },
  { name: 'not-found', path: '/no-such-page' },
  // Signed in from here on.
  { name: 'account', path: '/account', signedIn: true },
  { name: 'scan-approval', path: '/scan-approval?scanid={scan}', signedIn: true },
  { name: 'operations', path: '/kraken-operation', signedIn: true },
] as const;

/** A scan code some browser is waiting on, for the approval page to show. */
const openScanTicket = async (baseURL: string): Promise<string> => {
  const fingerPrint = `axe-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const reply = await fetch(`${baseURL}/api/system/open-visit/user/wx/register-login?fingerPrint=${fingerPrint}`);
  return ((await reply.json()) as { data: { id: string } }).data.id;
};
const addressOf = async (route: (typeof ROUTES)[number], chat: string, baseURL: string) =>
  route.path.replace('{chat}', chat).replace('{scan}', route.path.includes('{scan}') ? await openScanTicket(baseURL) : '');

test.describe('accessibility', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`every route in ${theme} has no serious or critical axe violation`, async ({ page, context, baseURL }) => {
      test.setTimeout(120_000);
      await useEnglish(page);
      await page.emulateMedia({ colorScheme: theme });
      await page.goto('/');
      await (await openSettings(page)).getByRole('radio', { name: 'Match device' }).check();
      const chat = await startChat(page, 'Give me a short checklist with a link and some `code`.');
      const found: string[] = [];
      let signedIn = false;
      for (const route of ROUTES) {
        await page.goto(await addressOf(route, chat, baseURL!));
        if ('signedIn' in route && !signedIn) {
          // The theme is saved per user: the account chooses "Match device" for itself.
          await signIn(page, context, baseURL!);
          await page.reload();
          await (await openSettings(page)).getByRole('radio', { name: 'Match device' }).check();
          await page.keyboard.press('Escape');
          signedIn = true;
        }
        await expect(page.locator('main')).not.toBeEmpty();
        if (route.name === 'scan-approval') await expect(page.getByTestId('scan-ticket')).toBeVisible();
        await expect(page.getByRole('status').filter({ hasText: /Loading|Checking|Looking up/ })).toHaveCount(0);
        if (theme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
        const check = async (where: string) => {
          const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
          // Contrast was really measured here, not skipped.
          expect(result.passes.find((rule) => rule.id === 'color-contrast')?.nodes.length ?? 0, where).toBeGreaterThan(0);
          for (const violation of result.violations) {
            if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
            const targets = violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n    ');
            found.push(`${where} — ${violation.id} (${violation.impact}): ${violation.help}\n    ${targets}`);
          }
        };
        await check(`${route.name} (${theme})`);
        if (route.name === 'home') {
          await openSettings(page);
          await check(`settings panel (${theme})`);
        }
      }
      expect(found, found.join('\n')).toEqual([]);
    });
  }
});

test.describe('mobile layouts in every language', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  for (const locale of LOCALES) {
    test(`every route in ${locale} at 390 px, no sideways overflow`, async ({ page, context, baseURL }) => {
      test.setTimeout(120_000);
      await page.addInitScript((value) => localStorage.setItem('umi_locale', value), locale);
      const question = locale === 'de-DE' ? `Was bedeutet ${LONG_GERMAN}?` : locale === 'ja' ? '小さなパン屋のための販売促進のアイデアを教えてください' : 'Ideas for a small bakery?';
      const chat = await startChat(page, question);
      let signedIn = false;
      for (const route of ROUTES) {
        if ('signedIn' in route && !signedIn) {
          await signIn(page, context, baseURL!);
          signedIn = true;
        }
        await page.goto(await addressOf(route, chat, baseURL!));
        await expect(page.locator('main')).not.toBeEmpty();
        if (route.name === 'scan-approval') await expect(page.getByTestId('scan-ticket')).toBeVisible();
        // Laid out once nothing is loading any more: the page's own code (its placeholder gone), then
        // its data (a spinner, whatever the language says beside it).
        await expect(page.getByTestId('page-loading')).toHaveCount(0);
        await expect(page.locator('.animate-spin')).toHaveCount(0);
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await expectNoSidewaysOverflow(page, `${route.name} in ${locale}`);
        if (route.name === 'chat') {
          // The question (a long German word in German) wraps inside its bubble.
          const bubble = page.getByTestId('question');
          await bubble.scrollIntoViewIfNeeded();
          const { x, width } = (await bubble.boundingBox())!;
          expect(x, `the question in ${locale} sticks out`).toBeGreaterThanOrEqual(0);
          expect(x + width, `the question in ${locale} sticks out`).toBeLessThanOrEqual(390);
        }
        if (route.name === 'home') {
          await openSettings(page);
          await expectNoSidewaysOverflow(page, `settings in ${locale}`);
        }
      }
    });
  }
});
