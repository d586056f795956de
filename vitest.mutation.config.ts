import { defineConfig } from 'vitest/config';
import { needsDocument, walk } from './tests/setup/test-environments';
import base from './vite.config';

/**
 * The tests Stryker runs against the mutants of one machine (scripts/mutation.mjs names them in
 * MUTATION_TESTS): the machine's unit tests and the model-based tests generated from it.
 *
 * Stryker runs them again for every mutant, so what a run costs besides the tests matters: a
 * browser-like document and the fake API take seconds to set up per file, the tests of a machine
 * alone a fraction of one. Files that use neither run in plain Node.
 */
/** Without a list (Stryker started by hand): every machine test and every model test. */
const everyMachineTest = () =>
  [...walk('src'), ...walk('tests/spa')].filter((file) => /\.test\.tsx?$/.test(file) && (file.startsWith('src/machines/') || file.includes('.model.test.')));
const tests = process.env.MUTATION_TESTS?.split(',').filter(Boolean) ?? ['tests/mutation/machine-loads.test.ts', ...everyMachineTest()];
const inDocument = tests.filter(needsDocument);
const inNode = tests.filter((file) => !needsDocument(file));

export default defineConfig({
  plugins: base.plugins,
  test: {
    projects: [
      ...(inNode.length ? [{ extends: true as const, test: { name: 'machines', environment: 'node', include: inNode } }] : []),
      ...(inDocument.length
        ? [{ extends: true as const, test: { name: 'screens', environment: 'jsdom', include: inDocument, setupFiles: ['tests/setup/spa-setup.ts'] } }]
        : []),
    ],
  },
});
