import react from '@vitejs/plugin-react';
import UnoCSS from 'unocss/vite';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { isOn } from './server/env-switch.ts';
import { precompressBuild } from './scripts/precompress.ts';
import { configDefaults, defineConfig } from 'vitest/config';
import { pickShell } from './src/i18n/shell.ts';
import { needsDocument, walk } from './tests/setup/test-environments.ts';

/**
 * `virtual:locale-shell/<locale>`: the part of a locale bundle the first page needs, read from
 * the same src/i18n/locales/<locale>.json, so the home page downloads a fraction of the language.
 */
const localeShell = (): Plugin => {
  const prefix = 'virtual:locale-shell/';
  const resolvedPrefix = '\0locale-shell-';
  return {
    name: 'locale-shell',
    resolveId: (id) => (id.startsWith(prefix) ? `${resolvedPrefix}${id.slice(prefix.length)}` : null),
    load(id) {
      if (!id.startsWith(resolvedPrefix)) return null;
      const file = join(import.meta.dirname, 'src', 'i18n', 'locales', `${id.slice(resolvedPrefix.length)}.json`);
      this.addWatchFile(file);
      return `export default ${JSON.stringify(pickShell(JSON.parse(readFileSync(file, 'utf8'))))};`;
    },
  };
};

/**
 * The script that applies the saved theme and language before the first paint (src/boot.js),
 * written into the page itself: as a file it was a render-blocking request of its own, a round
 * trip before anything showed on a phone's network. The server allows it by its hash
 * (server/http/spa.ts), not by allowing inline scripts.
 */
const inlineBootScript = (): Plugin => {
  const file = join(import.meta.dirname, 'src', 'boot.js');
  return {
    name: 'inline-boot-script',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        const tag = '<script src="/boot.js"></script>';
        if (!html.includes(tag)) throw new Error(`index.html must load the boot script as ${tag}`);
        return html.replace(tag, `<script>${readFileSync(file, 'utf8').trim()}</script>`);
      },
    },
  };
};

/** Read as the server reads it (server/config.ts). */
const sourceMapsServed = isOn(process.env.SERVE_SOURCEMAPS);

/** `npm run dev` proxies the API to the reference server, or to any backend named by API_TARGET. */
const apiTarget = process.env.API_TARGET ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;

let outDir = 'dist';
const rememberOutDir = (): Plugin => ({
  name: 'remember-out-dir',
  configResolved: (config) => {
    outDir = config.build.outDir;
  },
});

/**
 * The chunks only diagrams need: everything Mermaid's loader reaches that nothing else does. They
 * are megabytes a reader may never use, so the service worker does not download them ahead.
 */
const diagramOnlyChunks = (): Set<string> => {
  const assets = join(outDir, 'assets');
  const edges = (file: string): string[] => {
    const path = join(assets, file);
    if (!file.endsWith('.js') || !existsSync(path)) return [];
    return [...new Set([...readFileSync(path, 'utf8').matchAll(/[\w.-]+\.js(?=["'])/g)].map((match) => match[0]))].filter((name) => existsSync(join(assets, name)));
  };
  const reach = (roots: string[], skip: (name: string) => boolean): Set<string> => {
    const seen = new Set<string>();
    const queue = roots.filter((root) => !skip(root));
    while (queue.length > 0) {
      const name = queue.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      for (const next of edges(name)) if (!skip(next) && !seen.has(next)) queue.push(next);
    }
    return seen;
  };
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/\/assets\/([\w.-]+\.js)/g)].map((match) => match[1]!);
  const isLoader = (name: string) => /^mermaid-render-/.test(name);
  const shell = reach(entries, isLoader);
  const loaders = [...reach(entries, () => false)].filter(isLoader);
  return new Set([...reach(loaders, () => false)].filter((name) => !shell.has(name)));
};

/**
 * The installable app: a manifest with icons, and a service worker that keeps the app shell (the
 * page, its code and styles) so the app opens offline. It never answers /api or /downloads from a
 * cache: those always go to the network. A new version waits until the reader chooses to reload
 * (`registerType: 'prompt'`; src/app/app-updates.ts shows the toast).
 */
const installable = () =>
  VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    includeAssets: ['favicon.svg'],
    manifest: {
      name: 'Kraken AI',
      short_name: 'Kraken AI',
      description: 'Talk to expert AI agents',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#4f46e5',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      // The shell and every page's code; diagrams (Mermaid, megabytes) and fonts come on first use.
      globPatterns: ['**/*.{js,css,html,svg,png}'],
      globIgnores: ['**/*.map'],
      maximumFileSizeToCacheInBytes: 1_500_000,
      manifestTransforms: [
        (entries) => {
          const diagrams = diagramOnlyChunks();
          return { manifest: entries.filter((entry) => !diagrams.has(entry.url.replace(/^assets\//, ''))), warnings: [] };
        },
      ],
      navigateFallback: '/index.html',
      navigateFallbackDenylist: [/^\/api\//, /^\/downloads\//],
      runtimeCaching: [
        { urlPattern: ({ url }) => url.pathname.startsWith('/api/') || url.pathname.startsWith('/downloads/'), handler: 'NetworkOnly' },
        { urlPattern: ({ url }) => url.pathname.startsWith('/assets/'), handler: 'CacheFirst', options: { cacheName: 'assets' } },
      ],
      cleanupOutdatedCaches: true,
      // Workbox has no 'hidden' maps: with the server not serving maps, the worker links none.
      sourcemap: sourceMapsServed,
    },
  });

/** The machines' test files that need no document, run in Node. */
const pageTestsInNode = walk('src/machines').filter((file) => /\.test\.ts$/.test(file) && !needsDocument(file));


export default defineConfig({
  plugins: [localeShell(), inlineBootScript(), UnoCSS(), react(), rememberOutDir(), installable(), precompressBuild()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/downloads': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    // Fonts stay files: the CSP's font-src allows this site, not data: addresses (KaTeX's small fonts).
    assetsInlineLimit: (file: string) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
    // Maps are always written beside the build; the JavaScript names its map only when the server
    // will serve it (`SERVE_SOURCEMAPS=on`, read by the build and the server alike). Otherwise every
    // file would end with a link that answers 404, bytes each visitor downloads for nothing.
    sourcemap: sourceMapsServed ? true : 'hidden',
    rollupOptions: {
      output: {
        // xstate in one chunk: split across lazy pages it compresses worse and costs the first page more.
        // The media queries' hook with the composer, which the home page loads: alone it was a chunk
        // of its own on the first page, a request and some 250 bytes for 300 of code.
        manualChunks: (id: string) =>
          /node_modules\/xstate\/dist\/(?!.*graph)/.test(id) ? 'xstate' : /src\/components\/(chat-composer|use-media-query)\.tsx?$/.test(id) ? 'chat-composer' : undefined,
      },
    },
  },
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Most test
    // files wait on timers, sockets and the embedded database, so two files run side by side.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'machines',
          environment: 'node',
          include: pageTestsInNode,
          // The machines' tests share one module graph per worker: they keep no state between files.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'spa',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'tests/spa/**/*.test.{ts,tsx}', 'tests/faults/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...pageTestsInNode],
          setupFiles: ['tests/setup/spa-setup.ts'],
          // A model test plays a whole path on a screen in one test: seconds on a quiet machine,
          // several times that on a busy one. The limit is there for a hang, not for speed.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          globalSetup: ['server/test/build-server.global.ts'],
          include: ['server/**/*.test.ts', 'tests/contract/**/*.test.ts', 'tests/tools/**/*.test.ts', 'tests/load/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
