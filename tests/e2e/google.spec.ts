import { TOKEN_COOKIE } from '../../src/contract/cookie';
import { expect, test, useEnglish } from './fixtures';

/**
 * Google sign-in in a real browser against the real server, which talks to a local fake of
 * Google (started by global setup): the SPA leaves for Google's consent page and comes back to
 * /login/google with a code and a state.
 */
test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

test('the demo person signs in with Google (same verified address) and lands where they were going', async ({ page }) => {
  await page.goto(`/login?source=kraken&redirect_url=${encodeURIComponent('/kraken-operation')}`);
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveTitle('Sign in – Google Accounts');
  await page.getByRole('link', { name: 'Continue as Demo on Google' }).click();
  await expect(page).toHaveURL(/\/kraken-operation$/);
  await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
  // the same account as the password: its token works for its own user info
  const me = await page.evaluate(async (cookieName) => {
    const token = decodeURIComponent(document.cookie.split('; ').find((part) => part.startsWith(`${cookieName}=`))?.split('=')[1] ?? '');
    const response = await fetch('/api/system/user/get-user-info', { headers: { authorization: `Bearer ${token}` } });
    return ((await response.json()) as { data: { username: string } }).data.username;
  }, TOKEN_COOKIE);
  expect(me).toBe(process.env.E2E_DEMO_USERNAME);
});

test('a newcomer gets an account named after them; cancelling on Google’s page says so and can start again', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/login\/google\?error=access_denied/);
  await expect(page.getByRole('alert')).toContainText('You left Google’s page without logging in.');

  await page.getByRole('button', { name: 'Try again with Google' }).click();
  await page.getByRole('link', { name: 'Continue as Grace Newcomer' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('button', { name: /User menu/ }).click();
  await expect(page.getByTestId('user-menu-popup')).toContainText('Grace Newcomer');
});

test('a code planted in someone’s browser is never exchanged', async ({ page }) => {
  const logins: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/system/auth/login')) logins.push(request.url());
  });
  await page.goto('/login/google?code=4%2Fplanted&state=attackers-state');
  await expect(page.getByRole('alert')).toContainText('This login was not started in this tab');
  expect(logins).toEqual([]);
  await page.getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
});
