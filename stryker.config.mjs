// @ts-check
/**
 * Mutation testing of the machines: `npm run test:mutation` (not part of `npm test`).
 * Stryker changes one thing at a time in a machine (a guard, a target, a condition, a string) and
 * runs the tests of that machine; a mutant no test notices is a behaviour no test pins down.
 * scripts/mutation.mjs runs Stryker once per file of `src/machines/`, naming the file in
 * MUTATE_FILE and that file's tests in MUTATION_TESTS (read by vitest.mutation.config.ts), so a
 * mutant of the configuration object, which every importing test executes, runs only the tests of
 * its own machine. See docs/testing.md.
 */
const file = process.env.MUTATE_FILE;
const unit = file ? file.replace(/^src\/machines\//, '').replace(/\.ts$/, '') : 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: file ? [file] : ['src/machines/**/*.ts', '!src/machines/**/*.test.ts'],
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${unit}.html` },
  jsonReporter: { fileName: `reports/mutation/${unit}.json` },
  // The figure that counts is the total over every machine, checked by scripts/mutation.mjs.
  thresholds: { high: 90, low: 85, break: null },
  incremental: true,
  incrementalFile: `.tmp/stryker-incremental/${unit}.json`,
  tempDirName: '.tmp/stryker',
  cleanTempDir: 'always',
};
