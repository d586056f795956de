import type { BrowserContext, Locator, Page } from '@playwright/test';
import { demoAccount, expect, test, useEnglish } from './fixtures';

/**
 * What a first-time person trips over, checked in Chromium: colours that stay readable, focus
 * that lands in the composer, a server that is down or slow, toasts that leave the next action
 * free, and phone layouts in the languages with the longest words.
 */

/** Signs the demo account in through the API and hands the token cookie to the browser. */
const signIn = async (page: Page, context: BrowserContext, baseURL: string): Promise<string> => {
  const response = await page.request.post('/api/system/auth/login', { data: { ...demoAccount(), loginType: 'password' } });
  const { data } = (await response.json()) as { data: { token: string } };
  await context.addCookies([{ name: 'ai-chat-ops-token', value: data.token, url: baseURL }]);
  return data.token;
};

/** One call of the API as the signed-in person; its data. */
const api = async <T = { id: string }>(page: Page, token: string, path: string, data: Record<string, unknown>): Promise<T> => {
  const response = await page.request.post(path, { data, headers: { Authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { data: T; msg: string };
  expect(response.status(), body.msg).toBe(200);
  return body.data;
};

/** Tasks in the statuses an operator meets first: a draft, one ready, one scheduled. */
const seedTasks = async (page: Page, token: string, titles: { draft: string; ready: string; scheduled: string }) => {
  const body = 'We cut our release cycle from six weeks to six days. Here is what changed. #engineering';
  await api(page, token, '/api/kraken/task/create', { platform: 'xiaohongshu', title: titles.draft, body: '周末露营新手清单 #露营' });
  const ready = await api(page, token, '/api/kraken/task/create', { platform: 'linkedin', title: titles.ready, body });
  await api(page, token, '/api/kraken/task/transition', { id: ready.id, action: 'markReady' });
  const scheduled = await api(page, token, '/api/kraken/task/create', { platform: 'linkedin', title: titles.scheduled, body });
  await api(page, token, '/api/kraken/task/transition', { id: scheduled.id, action: 'markReady' });
  const inAWeek = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
  await api(page, token, '/api/kraken/task/transition', { id: scheduled.id, action: 'schedule', scheduledAt: inAWeek });
  return ready.id;
};

type Contrast = { text: string; ratio: number; kind: string };

/**
 * The contrast of every piece of text in a badge, an alert or a status on the page, against the
 * background a person sees behind it: the translucent backgrounds of the element and its
 * ancestors laid over one another, down to the page.
 */
const contrastsOnPage = (page: Page): Promise<Contrast[]> =>
  page.evaluate(() => {
    type Rgba = { r: number; g: number; b: number; a: number };
    const parse = (value: string): Rgba => {
      const parts = (value.match(/rgba?\(([^)]+)\)/)?.[1] ?? '0, 0, 0, 0').split(/[\s,/]+/).filter(Boolean).map(Number);
      return { r: parts[0]!, g: parts[1]!, b: parts[2]!, a: parts[3] ?? 1 };
    };
    const over = (top: Rgba, below: Rgba): Rgba => ({
      r: top.r * top.a + below.r * (1 - top.a),
      g: top.g * top.a + below.g * (1 - top.a),
      b: top.b * top.a + below.b * (1 - top.a),
      a: 1,
    });
    const luminance = ({ r, g, b }: Rgba) => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const backgroundOf = (element: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let node: Element | null = element; node; node = node.parentElement) layers.push(parse(getComputedStyle(node).backgroundColor));
      return layers.reverse().reduce((below, layer) => over(layer, below), { r: 255, g: 255, b: 255, a: 1 });
    };
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && getComputedStyle(element).visibility !== 'hidden';
    };
    const found: Contrast[] = [];
    for (const holder of document.querySelectorAll('[data-badge], [role="alert"], [role="status"]')) {
      if (!visible(holder)) continue;
      const kind = holder.hasAttribute('data-badge') ? 'badge' : (holder.getAttribute('role') ?? '');
      for (const element of [holder, ...holder.querySelectorAll('*')]) {
        const text = [...element.childNodes]
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => node.textContent ?? '')
          .join('')
          .trim();
        if (!text || !visible(element)) continue;
        const background = backgroundOf(element);
        const color = over(parse(getComputedStyle(element).color), background);
        const [light, dark] = [luminance(color), luminance(background)].sort((a, b) => b - a) as [number, number];
        found.push({ text, kind, ratio: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100 });
      }
    }
    return found;
  });

const expectReadable = async (page: Page, what: string, atLeast: Partial<Record<string, number>>) => {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    const contrasts = await contrastsOnPage(page);
    for (const [kind, count] of Object.entries(atLeast)) {
      expect(contrasts.filter((contrast) => contrast.kind === kind).length, `${what} (${theme}): ${kind}s checked`).toBeGreaterThanOrEqual(count!);
    }
    const unreadable = contrasts.filter((contrast) => contrast.ratio < 4.5);
    expect(unreadable, `${what} (${theme}): text under 4.5:1`).toEqual([]);
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
};

const boxOf = async (locator: Locator) => {
  const box = await locator.boundingBox();
  expect(box, 'on the screen').not.toBeNull();
  return box!;
};

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The page is no wider than the window: nothing sticks out sideways. */
const expectNoSidewaysOverflow = async (page: Page, what: string) => {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `${what} is wider than the screen`).toBeLessThanOrEqual(page.viewportSize()!.width);
};

const DEVELOPER_TEXT = /Failed to fetch|<no response>|\[(GET|POST)\]|NetworkError|ECONNREFUSED/;

test.describe('colours', () => {
  test.beforeEach(async ({ page }) => useEnglish(page));

  test('status badges and the editor’s error banner are readable in light and dark', async ({ page, context, baseURL }) => {
    const token = await signIn(page, context, baseURL!);
    const readyId = await seedTasks(page, token, { draft: '露营清单 contrast', ready: 'Ready contrast', scheduled: 'Scheduled contrast' });

    await page.goto('/kraken-operation?q=contrast');
    await expect(page.getByTestId('task-row')).toHaveCount(3);
    await expectReadable(page, 'overview-badges', { badge: 3 });

    // A save the server refuses: the banner says so, over a faint red, in red.
    await page.goto(`/kraken-operation/task/edit/${readyId}`);
    await page.route('**/api/kraken/task/update', (route) =>
      route.fulfill({ status: 500, json: { code: 1, msg: 'The database is resting', data: null, success: false } }),
    );
    await page.getByRole('textbox', { name: 'Post text' }).fill('An edited post that cannot be saved right now. #engineering');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'The database is resting' })).toBeVisible();
    await expectReadable(page, 'editor-error-banner', { badge: 1, alert: 1 });
  });

  test('the login page’s refusal is readable in light and dark', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Phone number or e-mail').fill(demoAccount().username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expectReadable(page, 'login-refusal', { alert: 1 });
  });
});

test.describe('focus on arrival', () => {
  test.beforeEach(async ({ page }) => useEnglish(page));

  const composer = (page: Page) => page.locator('section textarea');

  test('after the first message from home, the next keystrokes go into the chat’s composer', async ({ page }) => {
    await page.goto('/');
    const home = page.getByRole('textbox', { name: 'Ask the assistant' });
    await home.fill('What is a good first question?');
    await home.press('Enter');
    await expect(page).toHaveURL(/\/chat/);
    await expect(composer(page)).toBeFocused();
    await page.keyboard.type('And a second one');
    await expect(composer(page)).toHaveValue('And a second one');
  });

  test('after "New chat" in the history, the next keystrokes go into the composer', async ({ page }) => {
    await page.goto('/');
    const home = page.getByRole('textbox', { name: 'Ask the assistant' });
    await home.fill('A first chat before a new one');
    await home.press('Enter');
    await expect(page).toHaveURL(/\/chat\/[^/]+$/);
    await page.getByTestId('new-chat').click();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(composer(page)).toBeFocused();
    await page.keyboard.type('A new question');
    await expect(composer(page)).toHaveValue('A new question');
  });

  test('after "Start a new chat" in an agent’s dialog, the next keystrokes go into the composer', async ({ page }) => {
    await page.goto('/chat/agents');
    await page.getByTestId('agent-card').first().click();
    await page.getByRole('button', { name: 'Start a new chat' }).click();
    await expect(page).toHaveURL(/\/chat(\?|$|\/(?!agents))/);
    await expect(composer(page)).toBeFocused();
    await page.keyboard.type('Hello agent');
    await expect(composer(page)).toHaveValue('Hello agent');
  });
});

test.describe('server down', () => {
  test.beforeEach(async ({ page }) => useEnglish(page));

  test('Operations keeps a signed-in person signed in, says the server cannot be reached, and checks again', async ({ page, context, baseURL }) => {
    await signIn(page, context, baseURL!);
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
    await page.route('**/api/kraken/session/verify', (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Operations' }).click();

    const alert = page.getByRole('alert');
    await expect(alert).toContainText('The server cannot be reached');
    await expect(page.getByLabel('Password')).toHaveCount(0);
    await expect(page).toHaveURL(/\/kraken-operation$/);
    await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
    await expect(page.locator('body')).not.toContainText(DEVELOPER_TEXT);

    await page.unroute('**/api/kraken/session/verify');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('a failed call says the server cannot be reached, never the client’s own text', async ({ page, context, baseURL }) => {
    await signIn(page, context, baseURL!);
    await page.goto('/kraken-operation');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: /^Draft/ }).click();
    const alert = page.getByRole('alert').first();
    await expect(alert).toContainText('The server cannot be reached');
    await expect(page.locator('body')).not.toContainText(DEVELOPER_TEXT);
  });

  test('after one page’s code fails to load, other pages still load and the failed one loads on "Try again"', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const CHUNK = '**/assets/download-screen-*.js';
    let asked = 0;
    await page.route(CHUNK, (route) => {
      asked += 1;
      return route.abort('connectionrefused');
    });
    await page.getByRole('link', { name: 'Download' }).click();
    await expect(page.getByRole('alert')).toContainText('This page could not be loaded');
    expect(asked).toBe(1);

    // Another page loads as usual.
    await page.getByRole('link', { name: 'Chat' }).click();
    await expect(page.locator('section textarea')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);

    // Back on the failed page, its code is asked for again (still failing here).
    await page.getByRole('link', { name: 'Download' }).click();
    await expect(page.getByRole('alert')).toContainText('This page could not be loaded');
    expect(asked).toBe(2);

    // The server is back: "Try again" loads it, without reloading the app.
    await page.unroute(CHUNK);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });
});

test.describe('slow network', () => {
  test.beforeEach(async ({ page }) => useEnglish(page));

  for (const [path, heading] of [
    ['/', 'Talk to expert AI agents'],
    ['/download', 'Get the Kraken AI app'],
  ] as const) {
    test(`the header and ${path}’s own content show before the API answers`, async ({ page, context, baseURL }) => {
      await signIn(page, context, baseURL!);
      let release: () => void = () => undefined;
      const answered = new Promise<void>((resolve) => (release = resolve));
      const held: string[] = [];
      await page.route('**/api/**', async (route) => {
        held.push(new URL(route.request().url()).pathname);
        await answered;
        await route.continue();
      });
      await page.goto(path);
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Download' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      // the session check is still waiting for the server: neither "Log in" nor a spinner in its place
      expect(held).toContain('/api/system/user/get-user-info');
      await expect(page.getByRole('link', { name: 'Log in' })).toHaveCount(0);
      release();
      await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
    });
  }
});

test.describe('toasts', () => {
  test.beforeEach(async ({ page }) => useEnglish(page));

  for (const width of [1366, 1400]) {
    test(`at ${width} px "Chat deleted / Undo" leaves the send button free`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/');
      const home = page.getByRole('textbox', { name: 'Ask the assistant' });
      await home.fill(`A chat to delete at ${width}`);
      await home.press('Enter');
      await expect(page.locator('li[data-role="assistant"][data-status="complete"]')).toBeVisible({ timeout: 20_000 });
      const row = page.getByRole('link', { name: new RegExp(`A chat to delete at ${width}`) });
      await row.hover();
      await page.getByRole('button', { name: new RegExp(`^Delete .*A chat to delete at ${width}`) }).click();
      const toast = page.getByRole('region', { name: /Notifications/ }).locator('li').filter({ hasText: 'Chat deleted' });
      await expect(toast).toBeVisible();
      expect(overlaps(await boxOf(toast), await boxOf(page.getByRole('button', { name: 'Send' }))), 'the toast covers the send button').toBe(false);
      expect(overlaps(await boxOf(toast), await boxOf(page.locator('section textarea'))), 'the toast covers the composer').toBe(false);
    });

    test(`at ${width} px "Saved" leaves "Mark as ready" and Save free`, async ({ page, context, baseURL }) => {
      // A laptop's height: under the note's tall preview, "Mark as ready" sits at the bottom of the window.
      await page.setViewportSize({ width, height: 768 });
      await signIn(page, context, baseURL!);
      await page.goto('/kraken-operation/task/xiaohongshu');
      await page.getByRole('textbox', { name: 'Note title' }).fill(`Saved at ${width} px`);
      await page.getByRole('textbox', { name: 'Note text' }).fill(`A note saved at ${width} px. #toasts`);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const toast = page.getByRole('region', { name: /Notifications/ }).locator('li').filter({ hasText: 'Saved' });
      await expect(toast).toBeVisible();
      const markReady = page.getByRole('button', { name: 'Mark as ready' });
      const save = page.getByRole('button', { name: 'Save', exact: true });
      await expect(markReady).toBeVisible();
      // Save where it is, then the next action brought to the bottom of the window, as a person scrolls to it.
      expect(overlaps(await boxOf(toast), await boxOf(save)), 'the toast covers Save').toBe(false);
      await markReady.evaluate((button) => button.scrollIntoView({ block: 'end' }));
      expect(overlaps(await boxOf(toast), await boxOf(markReady)), 'the toast covers "Mark as ready"').toBe(false);
    });
  }
});

test.describe('phone', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  const useLocale = (page: Page, locale: string) => page.addInitScript((value) => localStorage.setItem('umi_locale', value), locale);

  for (const locale of ['zh-CN', 'en-US', 'de-DE', 'ja']) {
    test(`the overview shows one card per task, titles on full lines (${locale})`, async ({ page, context, baseURL }) => {
      await useLocale(page, locale);
      const token = await signIn(page, context, baseURL!);
      const mark = `cards-${locale}`;
      await seedTasks(page, token, { draft: `露营装备省钱攻略 ${mark}`, ready: `Release every week ${mark}`, scheduled: `Trust over speed ${mark}` });
      for (const width of [360, 390]) {
        await page.setViewportSize({ width, height: 740 });
        await page.goto(`/kraken-operation?q=${mark}`);
        const cards = page.getByTestId('task-row');
        await expect(cards).toHaveCount(3);
        await expect(page.locator('table')).toHaveCount(0);
        for (const card of await cards.all()) {
          const title = card.getByRole('link');
          // a title has most of the card's width, not a narrow column
          expect((await boxOf(title)).width).toBeGreaterThan(width * 0.3);
          const badge = card.locator('[data-badge]');
          const badgeBox = await boxOf(badge);
          expect(badgeBox.width, 'the badge reads across, not down').toBeGreaterThan(badgeBox.height);
        }
        await expectNoSidewaysOverflow(page, `the overview at ${width} px in ${locale}`);
      }
    });
  }

  for (const locale of ['de-DE', 'fr-FR']) {
    test(`the LinkedIn editor fits the screen (${locale})`, async ({ page, context, baseURL }) => {
      await useLocale(page, locale);
      const token = await signIn(page, context, baseURL!);
      const task = await api(page, token, '/api/kraken/task/create', {
        platform: 'linkedin',
        body: 'Wir haben unseren Veröffentlichungszyklus von sechs Wochen auf sechs Tage verkürzt. #Softwareentwicklung',
      });
      for (const width of [360, 390]) {
        await page.setViewportSize({ width, height: 740 });
        await page.goto(`/kraken-operation/task/edit/${task.id}`);
        await expect(page.getByTestId('linkedin-actions')).toBeVisible();
        await expectNoSidewaysOverflow(page, `the LinkedIn editor at ${width} px in ${locale}`);
        const actions = await boxOf(page.getByTestId('linkedin-actions'));
        expect(actions.x + actions.width).toBeLessThanOrEqual(width);
      }
    });
  }

  test('the composer’s hint on a phone mentions no keys, in every language', async ({ page }) => {
    const hints = { 'zh-CN': '输入你的问题', 'en-US': 'Ask anything', 'fr-FR': 'Posez votre question', 'de-DE': 'Stellen Sie Ihre Frage', ja: '質問を入力' };
    for (const [locale, hint] of Object.entries(hints)) {
      await useLocale(page, locale);
      await page.goto('/chat');
      const box = page.locator('section textarea');
      await expect(box).toHaveAttribute('placeholder', hint);
      expect(await box.getAttribute('placeholder')).not.toMatch(/Enter|Shift|Eingabe|Entrée|Maj|回车|改行/);
    }
  });
});
