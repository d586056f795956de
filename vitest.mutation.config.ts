import { defineConfig } from 'vitest/config';
import base from './vite.config';

/**
 * The tests Stryker runs against the mutants of one machine (scripts/mutation.mjs names them in
 * MUTATION_TESTS): the machine's unit tests and the model-based tests generated from it.
 */
const tests = process.env.MUTATION_TESTS?.split(',').filter(Boolean);

export default defineConfig({
  plugins: base.plugins,
  test: {
    environment: 'jsdom',
    include: tests ?? ['src/machines/**/*.test.ts', 'src/**/*.model.test.{ts,tsx}', 'tests/spa/models/**/*.test.{ts,tsx}'],
    setupFiles: ['tests/setup/spa-setup.ts'],
  },
});
