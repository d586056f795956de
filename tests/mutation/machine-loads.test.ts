import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * Run only by `npm run test:mutation`, beside the tests of the machine being mutated. A mutant
 * that makes the machine throw while its module loads (no initial state, a target that does not
 * exist) fails every test file importing it before any test starts; Stryker counts tests, sees
 * none fail, and would call the mutant survived. Importing the machine inside a test turns that
 * throw into a failed test.
 */
const files = process.env.MUTATE_FILE
  ? [process.env.MUTATE_FILE]
  : readdirSync('src/machines')
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .map((name) => join('src/machines', name));

it.each(files)('%s loads and builds its machines', async (file) => {
  const module = (await import(/* @vite-ignore */ resolve(file))) as Record<string, unknown>;
  expect(Object.keys(module).length).toBeGreaterThan(0);
});
