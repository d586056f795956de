import AxeBuilder from '@axe-core/playwright';
import { devices } from '@playwright/test';
import { expect, logIn, test, useEnglish } from './fixtures';

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003131) NetType/WIFI Language/en';

test('scan login: a QR link opened where someone is logged in logs the waiting browser in within two seconds', async ({ browser, baseURL }) => {
  const waiting = await browser.newContext({ baseURL });
  const phone = await browser.newContext({ baseURL });
  try {
    const a = await waiting.newPage();
    const b = await phone.newPage();
    await useEnglish(a);
    await useEnglish(b);

    await a.goto('/login?redirect_url=%2Fchat');
    const scanTab = a.getByRole('tab', { name: 'Scan code' });
    await scanTab.click();
    await expect(scanTab).toHaveAttribute('aria-selected', 'true');
    await expect(a.getByRole('img', { name: 'QR code for logging in' })).toBeVisible();
    const link = await a.getByRole('link', { name: 'Open the login link' }).getAttribute('href');
    expect(link).toMatch(new RegExp(`^${baseURL}/\\?scanid=[A-Za-z0-9_-]{32}$`));

    await b.goto('/login');
    await logIn(b);
    await expect(b.getByRole('button', { name: 'User menu' })).toBeVisible();

    const confirmed = b.waitForResponse((response) => response.url().endsWith('/api/system/user/update-scanid'));
    await b.goto(link!);
    expect((await confirmed).status()).toBe(200);
    const approvedAt = Date.now();
    await expect(b.getByText('Login approved', { exact: true })).toBeVisible();
    await expect(b).toHaveURL(`${baseURL}/`);

    await expect(a.getByRole('button', { name: 'User menu' })).toBeVisible({ timeout: 2000 });
    expect(Date.now() - approvedAt).toBeLessThan(2000);
    await expect(a).toHaveURL(`${baseURL}/chat`);
  } finally {
    await waiting.close();
    await phone.close();
  }
});

test('scan login: a visitor who opens the QR link logs in first, and the login is approved right after', async ({ browser, baseURL }) => {
  const waiting = await browser.newContext({ baseURL });
  const phone = await browser.newContext({ baseURL });
  try {
    const a = await waiting.newPage();
    const b = await phone.newPage();
    await useEnglish(a);
    await useEnglish(b);
    await a.goto('/login');
    await a.getByRole('tab', { name: 'Scan code' }).click();
    const link = await a.getByRole('link', { name: 'Open the login link' }).getAttribute('href');

    await b.goto(link!);
    await expect(b).toHaveURL(`${baseURL}/login?redirect_url=%2F`);
    await expect(b.getByText('Log in to approve the login on your other device.', { exact: true })).toBeVisible();
    await logIn(b);
    await expect(b.getByText('Login approved', { exact: true })).toBeVisible();
    await expect(a.getByRole('button', { name: 'User menu' })).toBeVisible({ timeout: 5000 });
    await expect(a).toHaveURL(`${baseURL}/`);
  } finally {
    await waiting.close();
    await phone.close();
  }
});

test('scan login: leaving the scan tab stops the polling', async ({ page }) => {
  await useEnglish(page);
  await page.goto('/login');
  const polls: number[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/wx/validate-login')) polls.push(Date.now());
  });
  await page.getByRole('tab', { name: 'Scan code' }).click();
  await expect.poll(() => polls.length, { timeout: 5000 }).toBeGreaterThan(0);
  // keyboard: arrow back to the password tab
  await page.getByRole('tab', { name: 'Scan code' }).press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Password' })).toBeFocused();
  await expect(page.getByLabel('Phone number or e-mail')).toBeVisible();
  const seen = polls.length;
  await page.waitForTimeout(3500);
  expect(polls.length).toBe(seen);
});

test('in WeChat’s in-app browser a visitor is signed in through the simulator’s consent page', async ({ browser, baseURL }) => {
  const wechat = await browser.newContext({ ...devices['iPhone 13'], userAgent: WECHAT_UA, baseURL });
  try {
    const page = await wechat.newPage();
    await useEnglish(page);
    await page.goto('/login?redirect_url=%2Faccount');

    // the app sends the visitor to the authorisation page the server named: the simulator's
    await expect(page).toHaveURL(/\/api\/wechat-simulator\/authorize\?appid=wx-simulator&redirect_uri=.*&response_type=code&scope=snsapi_userinfo&state=1\./);
    expect(new URL(page.url()).searchParams.get('redirect_uri')).toBe(`${baseURL}/login?redirect_url=%2Faccount`);
    await expect(page.getByRole('heading', { name: 'Sign in with WeChat' })).toBeVisible();
    await page.getByLabel('Simulated WeChat user').fill('E2E WeChat Lin');
    await page.getByRole('button', { name: 'Allow' }).click();

    // back with code and state, exchanged, signed in, and on to where the login page pointed
    await expect(page).toHaveURL(`${baseURL}/account`);
    await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
    await expect(page.getByTestId('user-name')).toHaveText('E2E WeChat Lin');
    const cookies = await wechat.cookies();
    expect(cookies.find((cookie) => cookie.name === 'ai-chat-ops-token')?.value).toBeTruthy();
  } finally {
    await wechat.close();
  }
});

for (const theme of ['light', 'dark'] as const) {
  test(`the scan code tab has no serious or critical axe violation in ${theme}`, async ({ page }) => {
    await useEnglish(page);
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/login');
    await page.getByRole('tab', { name: 'Scan code' }).click();
    await expect(page.getByRole('img', { name: 'QR code for logging in' })).toBeVisible();
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}
