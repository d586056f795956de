import react from '@vitejs/plugin-react';
import UnoCSS from 'unocss/vite';
import { defineConfig } from 'vitest/config';

/** `npm run dev` proxies the API to the reference server, or to any backend named by API_TARGET. */
const apiTarget = process.env.API_TARGET ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;

export default defineConfig({
  plugins: [UnoCSS(), react()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/downloads': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'spa',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'tests/spa/**/*.test.{ts,tsx}', 'tests/faults/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/spa-setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'tests/contract/**/*.test.ts', 'tests/tools/**/*.test.ts', 'tests/load/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
