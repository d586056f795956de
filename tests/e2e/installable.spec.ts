import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
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

/**
 * Installability as Chromium itself judges it: Lighthouse's old `installable-manifest` audit was
 * `Page.getInstallabilityErrors`, asked over the DevTools protocol once a service worker is active.
 * Playwright's usual contexts are off the record, which Chromium never installs from
 * ("in-incognito"): this test opens a profile of its own, as a person's browser would be.
 */
test('Chromium finds the app installable: no installability errors and no manifest errors', async ({ baseURL }, testInfo) => {
  const profile = await mkdtemp(join(tmpdir(), 'kraken-install-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
    serviceWorkers: 'allow',
    locale: 'en-US',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await expect(page.getByRole('textbox', { name: 'Ask the assistant' })).toBeVisible();
    // served from 127.0.0.1, a potentially trustworthy origin: a secure context, as an install needs
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    // `ready` gives the worker as soon as it is activating: wait for it to finish
    const state = await page.evaluate(async () => {
      const worker = (await navigator.serviceWorker.ready).active!;
      if (worker.state !== 'activated') {
        await new Promise<void>((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()));
      }
      return worker.state;
    });
    expect(state).toBe('activated');

    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.url).toMatch(/manifest/);
    expect(manifest.errors).toEqual([]);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
