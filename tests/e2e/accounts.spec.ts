import type { Browser, Page } from '@playwright/test';
import { expect, logIn, test, useEnglish } from './fixtures';

/**
 * Who may do what, in a real browser against the real server: the demo admin invites an operator
 * from the console, the invitee makes an account with the link and gets into the operations area;
 * a stranger who signs up on their own gets no Operations entry and is told no at its door; a
 * password change ends the person's other sessions, and an account can be taken away and deleted.
 */
test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

const unique = () => Math.random().toString(36).slice(2, 10);

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await useEnglish(page);
  return page;
}

async function signUp(page: Page, username: string, password: string, { formShown = false } = {}) {
  if (!formShown) await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByLabel('Phone number or e-mail').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password again').fill(password);
  const answered = page.waitForResponse((response) => response.url().endsWith('/api/system/auth/signup'));
  await page.getByRole('button', { name: 'Create account' }).click();
  const response = await answered;
  expect(response.status(), await response.text()).toBe(200);
  await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();
}

test('an admin invites an operator who signs up with the link and operates; a stranger who signs up is kept out', async ({ page, browser }) => {
  await page.goto('/login?redirect_url=%2Fadmin%3Fpanel%3Dinvitations');
  await logIn(page);
  await expect(page).toHaveURL(/\/admin\?panel=invitations$/);
  await page.getByLabel('Organisation').selectOption({ label: 'Northwind Media' });
  await page.getByLabel('Role').selectOption('operator');
  await page.getByRole('button', { name: 'Create invitation' }).click();
  const link = await page.getByRole('textbox', { name: 'Invitation link to Northwind Media' }).inputValue();
  expect(link).toMatch(/\/login\?invitation=[A-Za-z0-9_-]{43}$/);

  const invitee = await freshPage(browser);
  await invitee.goto(link);
  await expect(invitee.getByText('You are invited to join Northwind Media as operator.')).toBeVisible();
  await signUp(invitee, `ops-${unique()}@northwind.test`, 'a good password 1', { formShown: true });
  await expect(invitee.getByRole('link', { name: 'Operations' })).toBeVisible();
  await invitee.getByRole('link', { name: 'Operations' }).click();
  await expect(invitee.getByRole('heading', { name: 'Operations' })).toBeVisible();
  await expect(invitee.getByRole('link', { name: 'Admin' })).toHaveCount(0);

  const stranger = await freshPage(browser);
  await stranger.goto('/login');
  await signUp(stranger, `stranger-${unique()}@example.test`, 'a good password 2');
  await expect(stranger.getByRole('link', { name: 'Chat' }).first()).toBeVisible();
  await expect(stranger.getByRole('link', { name: 'Operations' })).toHaveCount(0);
  await stranger.goto('/kraken-operation/task/linkedin');
  await expect(stranger.getByText('You do not have permission for the operations area.', { exact: false })).toBeVisible();
  await expect(stranger).toHaveURL(/\/kraken-operation\/task\/linkedin$/);
  await stranger.goto('/admin');
  await expect(stranger.getByText('You do not have permission to open the administration console.')).toBeVisible();

  await invitee.context().close();
  await stranger.context().close();
});

test('a password change logs the other session out; the account is downloaded and deleted', async ({ page, browser }) => {
  const username = `leaver-${unique()}@example.test`;
  await page.goto('/login');
  await signUp(page, username, 'first password 1');
  const elsewhere = await freshPage(browser);
  await elsewhere.goto('/login?redirect_url=%2Faccount');
  await elsewhere.getByLabel('Phone number or e-mail').fill(username);
  await elsewhere.getByLabel('Password').fill('first password 1');
  await elsewhere.getByRole('button', { name: 'Log in' }).click();
  await expect(elsewhere).toHaveURL(/\/account$/);

  await page.goto('/account');
  await page.getByLabel('Current password').fill('first password 1');
  await page.getByLabel('New password', { exact: true }).fill('second password 2');
  await page.getByLabel('New password again').fill('second password 2');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password was changed. 1 other session was logged out.', { exact: true })).toBeVisible();
  await elsewhere.reload();
  await expect(elsewhere).toHaveURL(/\/login/);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.json$/);
  await page.getByRole('button', { name: 'Delete account' }).click();
  await page.getByLabel(/To confirm, type your account name/).fill(username);
  await page.getByRole('button', { name: 'Delete forever' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  await page.getByLabel('Phone number or e-mail').fill(username);
  await page.getByLabel('Password').fill('second password 2');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await elsewhere.context().close();
});
