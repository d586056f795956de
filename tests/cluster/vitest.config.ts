import { defineConfig } from 'vitest/config';

/** `npm run test:cluster`: real server processes on one PostgreSQL (DATABASE_URL), see cluster.test.ts. */
export default defineConfig({
  test: {
    include: ['tests/cluster/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['server/test/build-server.global.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
