import { expect, test, useEnglish } from './fixtures';

/** The installable app: its manifest, its service worker, and the app shell opening offline. */
test.use({ serviceWorkers: 'allow' });

test('the manifest has what an install needs, and the app shell opens offline saying so', async ({ page, context, baseURL }) => {
  await useEnglish(page);
  await page.goto('/');
  await expect(page.getByRole('textbox', { name: 'Ask the assistant' })).toBeVisible();

  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = (await (await page.request.get(new URL(manifestHref!, baseURL).href)).json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
  };
  expect(manifest).toMatchObject({ name: 'Kraken AI', start_url: '/', display: 'standalone' });
  expect(manifest.short_name.length).toBeGreaterThan(0);
  const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
  expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  for (const icon of manifest.icons) {
    const answer = await page.request.get(new URL(icon.src, baseURL).href);
    expect(answer.headers()['content-type']).toBe('image/png');
  }
  const worker = await page.request.get(new URL('/sw.js', baseURL).href);
  expect(worker.headers()['cache-control']).toBe('no-cache');

  // The worker takes the page under its control once it has stored the shell.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Ask the assistant' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toBeVisible();
  // A page other than the first opens from the shell too.
  await page.goto('/chat');
  await expect(page.getByRole('textbox', { name: /Ask anything/ })).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: 'You are offline' })).toHaveCount(0);
});
