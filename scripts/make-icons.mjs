/**
 * Draws the installable app's icons (public/icons/) from public/favicon.svg with Chromium:
 * 192 and 512 px as they are, and a maskable 512 px whose drawing keeps inside the safe zone
 * (the inner 80 %) on a full-bleed background. Run after changing the logo: `node scripts/make-icons.mjs`.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumPath } from './chromium-path.mjs';

const ROOT = join(import.meta.dirname, '..');
const svg = readFileSync(join(ROOT, 'public', 'favicon.svg'), 'utf8');
const out = join(ROOT, 'public', 'icons');
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({ executablePath: chromiumPath() ?? undefined, args: ['--no-sandbox'] });
const page = await browser.newPage();
const draw = async (file, size, maskable) => {
  await page.setViewportSize({ width: size, height: size });
  const logo = maskable
    ? `<div style="width:${size}px;height:${size}px;background:#4f46e5;display:grid;place-items:center"><div style="width:${size * 0.7}px;height:${size * 0.7}px">${svg}</div></div>`
    : `<div style="width:${size}px;height:${size}px">${svg}</div>`;
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{width:100%;height:100%;display:block}</style>${logo}`);
  await page.screenshot({ path: join(out, file), omitBackground: !maskable, clip: { x: 0, y: 0, width: size, height: size } });
};
await draw('icon-192.png', 192, false);
await draw('icon-512.png', 512, false);
await draw('icon-maskable-512.png', 512, true);
await browser.close();
