// Section (g) of `npm run bench`: Lighthouse (mobile and desktop presets) on the home page, the
// chat and a share page, served by the real server from the bench's build (compressed as
// shipped), in Debian's Chromium. Prints each score and metric beside its target.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { tsImport } from 'tsx/esm/api';
import { chromiumPath } from './chromium-path.mjs';

export const LIGHTHOUSE_TARGETS = { performance: 90, lcpMs: 2500, tbtMs: 200, seo: 100 };

const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** A share link made through the API as the demo account would: a question, its answer, a snapshot. */
async function sharePath(url, demo) {
  const post = async (path, body, token) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (path.includes('/sse/')) return response.text();
    const envelope = await response.json();
    if (envelope.code !== 0) throw new Error(`${path}: ${envelope.msg}`);
    return envelope.data;
  };
  const { token } = await post('/api/system/auth/login', { username: demo.username, password: demo.password });
  const { conversationId } = await post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback', source: 'agent' }, token);
  await post('/api/workflow/sse/agent/chat', { conversationId, agentId: 'SpecialNoAgentFallback', text: 'How do I plan a weekend of hiking near a city?' }, token);
  const share = await post('/api/workflow/agent-im/share/create', { conversationId }, token);
  return `/share/${share.token ?? new URL(share.url, url).pathname.split('/').pop()}`;
}

/** The JavaScript a page downloaded until the network was idle, as it came over the wire. */
const scriptBytesOnTheWire = (lhr) =>
  (lhr.audits['network-requests']?.details?.items ?? []).filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);

/** Runs Lighthouse on each page in both presets; returns one entry per page and preset. */
export async function lighthouseFigures({ spaDir, root }) {
  const { startServer } = await tsImport(join(root, 'server', 'start.ts'), import.meta.url);
  const demo = { username: 'bench@kraken.local', password: 'bench-Password-2026' };
  const server = await startServer({
    dataDir: mkdtempSync(join(tmpdir(), 'kraken-lighthouse-')),
    host: '127.0.0.1',
    env: { LLM_BASE_URL: '', DATABASE_URL: '', OFFLINE_TOKEN_DELAY_MS: '1' },
    spaDir,
    demo,
    log: () => undefined,
  });
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath() ?? undefined, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  const results = [];
  try {
    const pages = [
      { name: 'home', path: '/', seo: true },
      { name: 'chat', path: '/chat', seo: true },
      // A share page is kept out of search engines on purpose (noindex): its SEO score says so.
      { name: 'share', path: await sharePath(server.url, demo), seo: false },
    ];
    for (const preset of ['mobile', 'desktop']) {
      for (const page of pages) {
        const { lhr } = await lighthouse(
          `${server.url}${page.path}`,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] },
          preset === 'desktop' ? desktopConfig : undefined,
        );
        results.push({
          page: page.name,
          preset,
          seoCounts: page.seo,
          performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
          accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
          bestPractices: Math.round((lhr.categories['best-practices'].score ?? 0) * 100),
          seo: Math.round((lhr.categories.seo.score ?? 0) * 100),
          fcpMs: lhr.audits['first-contentful-paint'].numericValue,
          lcpMs: lhr.audits['largest-contentful-paint'].numericValue,
          tbtMs: lhr.audits['total-blocking-time'].numericValue,
          cls: lhr.audits['cumulative-layout-shift'].numericValue,
          scriptBytes: scriptBytesOnTheWire(lhr),
        });
      }
    }
  } finally {
    await chrome.kill();
    await server.close();
  }
  return results;
}

/** Prints section (g) with `row(name, value, target, ok)` from the bench. */
export function printLighthouse(results, row) {
  const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log('\n(g) Lighthouse 12, real server, the build as shipped (compressed), Debian Chromium');
  for (const r of results) {
    const label = `(g) ${r.page}, ${r.preset}`;
    if (r.preset === 'mobile') {
      row(`${label}: performance`, String(r.performance), `≥ ${LIGHTHOUSE_TARGETS.performance}`, r.performance >= LIGHTHOUSE_TARGETS.performance);
      row(`${label}: largest contentful paint`, s(r.lcpMs), `≤ ${s(LIGHTHOUSE_TARGETS.lcpMs)}`, r.lcpMs <= LIGHTHOUSE_TARGETS.lcpMs);
      row(`${label}: total blocking time`, `${Math.round(r.tbtMs)} ms`, `≤ ${LIGHTHOUSE_TARGETS.tbtMs} ms`, r.tbtMs <= LIGHTHOUSE_TARGETS.tbtMs);
    } else {
      row(`${label}: performance`, String(r.performance), `≥ ${LIGHTHOUSE_TARGETS.performance}`, r.performance >= LIGHTHOUSE_TARGETS.performance);
    }
    if (r.seoCounts) row(`${label}: SEO`, String(r.seo), `= ${LIGHTHOUSE_TARGETS.seo}`, r.seo >= LIGHTHOUSE_TARGETS.seo);
    console.log(
      `      FCP ${s(r.fcpMs)}, CLS ${r.cls.toFixed(3)}, accessibility ${r.accessibility}, best practices ${r.bestPractices}, SEO ${r.seo}; ` +
        `JavaScript on the wire until the network was idle: ${kB(r.scriptBytes)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = join(import.meta.dirname, '..');
  const row = (name, value, target, ok) => console.log(`${ok ? 'ok  ' : 'FAIL'}  ${name.padEnd(52)} ${value.padStart(12)}   target ${target}`);
  lighthouseFigures({ spaDir: process.argv[2] ?? join(root, 'dist'), root })
    .then((results) => printLighthouse(results, row))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
