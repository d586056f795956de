import AxeBuilder from '@axe-core/playwright';
import { devices } from '@playwright/test';
import { expect, logIn, test, useEnglish } from './fixtures';

const WECHAT_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003131) NetType/WIFI Language/en';

test('scan login: a link opened by a signed-in person signs nobody in until the click on Approve', async ({ browser, baseURL }) => {
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
    const scanId = new URL(link!).searchParams.get('scanid')!;
    const polls: string[] = [];
    a.on('response', (response) => {
      if (response.url().endsWith('/wx/validate-login')) void response.json().then((body) => polls.push(body.data.status));
    });

    await b.goto('/login');
    await logIn(b);
    await expect(b.getByRole('button', { name: 'User menu' })).toBeVisible();
    const decisions: string[] = [];
    b.on('request', (request) => {
      if (/update-scanid|deny-scanid/.test(request.url())) decisions.push(request.url());
    });

    // Opening the link shows who asks and decides nothing, however long the page stays open.
    await b.goto(link!);
    await expect(b).toHaveURL(`${baseURL}/scan-approval?scanid=${scanId}`);
    const details = b.getByTestId('scan-ticket');
    await expect(details).toContainText(/Chrome \d+ on Windows/);
    await expect(details).toContainText('127.0.0.1');
    await expect(b.getByRole('button', { name: 'Approve' })).toBeEnabled();
    const pollsBefore = polls.length;
    await expect.poll(() => polls.length).toBeGreaterThanOrEqual(pollsBefore + 2);
    expect(polls.every((status) => status === 'waiting')).toBe(true);
    expect(decisions).toEqual([]);
    await expect(a.getByRole('button', { name: 'User menu' })).toHaveCount(0);

    await b.getByRole('button', { name: 'Approve' }).click();
    await expect(b.getByText('Login approved', { exact: true })).toBeVisible();
    expect(decisions).toHaveLength(1);
    // Signed in by its next poll (the poll's pace is the scan-login machine's, tested there).
    await expect(a.getByRole('button', { name: 'User menu' })).toBeVisible();
    await expect(a).toHaveURL(`${baseURL}/chat`);
  } finally {
    await waiting.close();
    await phone.close();
  }
});

test('scan login: a visitor who opens the link logs in first, sees the same question, and Deny tells the waiting browser', async ({ browser, baseURL }) => {
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
    const scanId = new URL(link!).searchParams.get('scanid')!;

    await b.goto(link!);
    await expect(b).toHaveURL(`${baseURL}/login?redirect_url=${encodeURIComponent(`/scan-approval?scanid=${scanId}`)}`);
    await expect(b.getByText('Log in to approve or deny the login on your other device.', { exact: true })).toBeVisible();
    await logIn(b);
    await expect(b).toHaveURL(`${baseURL}/scan-approval?scanid=${scanId}`);
    await expect(b.getByTestId('scan-ticket')).toBeVisible();
    await b.getByRole('button', { name: 'Deny' }).click();
    await expect(b.getByText('Login denied', { exact: true })).toBeVisible();

    await expect(a.getByText('The login was declined on the other device.')).toBeVisible();
    await expect(a.getByRole('button', { name: 'Refresh code' })).toBeVisible();
    await expect(a.getByRole('button', { name: 'User menu' })).toHaveCount(0);
  } finally {
    await waiting.close();
    await phone.close();
  }
});

test('sessions: the account page lists both browsers and signs the other one out', async ({ browser, baseURL }) => {
  const laptop = await browser.newContext({ baseURL });
  const phone = await browser.newContext({ baseURL, userAgent: devices['iPhone 13'].userAgent });
  try {
    const a = await laptop.newPage();
    const b = await phone.newPage();
    await useEnglish(a);
    await useEnglish(b);
    await b.goto('/login?redirect_url=%2Faccount');
    await logIn(b);
    await a.goto('/login?redirect_url=%2Faccount');
    await logIn(a);
    await expect(a).toHaveURL(`${baseURL}/account`);

    const row = a.getByTestId('session-row').filter({ hasText: /Safari \d+ on iOS/ }).first();
    await expect(row).toBeVisible();
    await expect(a.getByTestId('session-row').filter({ hasText: 'This device' })).toContainText(/Chrome \d+ on Windows/);
    await row.getByRole('button', { name: /Log out Safari/ }).click();
    await expect(a.getByText('Session logged out', { exact: true })).toBeVisible();

    // The phone's token no longer works: its next look at the account sends it to log in.
    await b.reload();
    await expect(b).toHaveURL(/\/login\?redirect_url=%2Faccount/);
  } finally {
    await laptop.close();
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
  await expect.poll(() => polls.length).toBeGreaterThan(0);
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
