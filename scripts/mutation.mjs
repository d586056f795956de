#!/usr/bin/env node
// `npm run test:mutation [-- <machine>… | --since <git-ref>] [--force] [--unit-tests]`: Stryker
// over src/machines, one file at a time with that file's own tests, then one table and the total
// score. `--force` tests every mutant again instead of reusing the last run's results.
// `--unit-tests` leaves the model tests out: a lower bound of the score (every mutant those tests
// kill, all of them kill), reached in a fraction of the time for a machine whose model test is
// long (see docs/testing.md).
//
// A machine's configuration object is evaluated when its module is imported, so Stryker calls its
// mutants "static" and, run over the whole folder, would run every test for each of them. Run per
// file, a mutant runs only the tests that import its machine (or a file that imports it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const TARGET = 85;
/** Turns a mutant that breaks the machine's module as it loads into a failed test. */
const LOADS = 'tests/mutation/machine-loads.test.ts';
const MACHINES = 'src/machines';
const args = process.argv.slice(2);
const sinceIndex = args.indexOf('--since');
const since = sinceIndex >= 0 ? args[sinceIndex + 1] : undefined;
const named = args.filter((arg, index) => !arg.startsWith('--') && (sinceIndex < 0 || index !== sinceIndex + 1));

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
const isTest = (file) => /\.test\.tsx?$/.test(file);
const units = readdirSync(MACHINES)
  .filter((name) => name.endsWith('.ts') && !isTest(name))
  .map((name) => name.replace(/\.ts$/, ''));
const testFiles = [...walk('src'), ...walk('tests/spa')].filter(isTest);
/** Test kits: the harnesses and fixtures tests share (tests/spa/chat-flow-kit.ts, ...), not tests themselves. */
const kits = walk('tests/spa').filter((file) => /\.tsx?$/.test(file) && !isTest(file));
const sources = new Map([...testFiles, ...kits, ...units.map((unit) => `${MACHINES}/${unit}.ts`)].map((file) => [file, readFileSync(file, 'utf8')]));
const importsDirectly = (file, unit) => new RegExp(`['"](?:\\.{1,2}/)+(?:[\\w-]+/)*?(?:machines/)?${unit.replace('.', '\\.')}['"]`).test(sources.get(file));
/** The kits a file imports for their values (a type-only import runs nothing of the kit). */
const kitsOf = (file) =>
  [...sources.get(file).matchAll(/^import (?!type )[^;]*?from '(\.{1,2}\/[^']+)';/gms)]
    .map(([, path]) => join(dirname(file), path))
    .flatMap((path) => kits.filter((kit) => kit === `${path}.ts` || kit === `${path}.tsx`));
/** Whether a file imports a unit, itself or through the kits it uses (a split test imports its machine's harness). */
const imports = (file, unit, seen = new Set()) =>
  importsDirectly(file, unit) || kitsOf(file).some((kit) => !seen.has(kit) && (seen.add(kit), imports(kit, unit, seen)));

/**
 * The tests of a file: those importing it and, for the actors and helpers machines are built from
 * (not for a machine another machine spawns), those importing a machine that imports it.
 */
const testsOf = (unit) => {
  const users = unit.endsWith('.machine') ? [] : units.filter((other) => other !== unit && imports(`${MACHINES}/${other}.ts`, unit));
  const ownTest = (test) => test.startsWith(MACHINES) || test.includes('.model.test.');
  return testFiles.filter((test) => ownTest(test) && [unit, ...users].some((name) => imports(test, name)));
};

const changedSince = (ref) => {
  const result = spawnSync('git', ['diff', '--name-only', ref, '--'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git diff ${ref} failed: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean);
};

let chosen = units;
// In the order named, so the quick ones can come first.
if (named.length > 0) chosen = named.flatMap((name) => units.filter((unit) => unit === name || unit.startsWith(`${name}.`)));
if (since) {
  const changed = changedSince(since);
  chosen = chosen.filter((unit) => changed.includes(`${MACHINES}/${unit}.ts`) || testsOf(unit).some((test) => changed.includes(test)));
}
if (args.includes('--list')) {
  for (const unit of chosen) console.log(unit.padEnd(28), testsOf(unit).join(' ') || '(no tests)');
  process.exit(0);
}
if (chosen.length === 0) {
  console.log('No machine to mutate.');
  process.exit(0);
}

mkdirSync('reports/mutation', { recursive: true });
const rows = [];
for (const unit of chosen) {
  const unitTestsOnly = args.includes('--unit-tests');
  const tests = testsOf(unit).filter((test) => !unitTestsOnly || !test.includes('.model.test.'));
  if (tests.length === 0) {
    rows.push({ unit, tests: 0, error: 'no tests import it' });
    continue;
  }
  console.log(`\n▶ ${unit}: ${tests.length} test files (${tests.map((test) => relative('.', test)).join(', ')})`);
  const result = spawnSync(
    join('node_modules', '.bin', 'stryker'),
    [
      'run',
      ...(args.includes('--force') ? ['--force'] : []),
      // Kept apart: a run with fewer tests must not lend its survivors to a run with all of them.
      ...(unitTestsOnly ? ['--incrementalFile', `.tmp/stryker-incremental/${unit}.unit-tests.json`] : []),
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, MUTATE_FILE: `${MACHINES}/${unit}.ts`, MUTATION_TESTS: [LOADS, ...tests].join(',') },
    },
  );
  const report = `reports/mutation/${unit}.json`;
  if (result.status !== 0 || !existsSync(report)) {
    rows.push({ unit, tests: tests.length, error: `stryker exited ${result.status}` });
    continue;
  }
  const counts = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, CompileError: 0, RuntimeError: 0 };
  const survivors = [];
  for (const [file, { mutants }] of Object.entries(JSON.parse(readFileSync(report, 'utf8')).files)) {
    for (const mutant of mutants) {
      counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
      if (mutant.status === 'Survived' || mutant.status === 'NoCoverage')
        survivors.push(`${file}:${mutant.location.start.line} ${mutant.mutatorName} ${JSON.stringify(mutant.replacement ?? '')}`);
    }
  }
  rows.push({ unit, tests: tests.length, ...counts, survivors });
}

const detected = (row) => (row.Killed ?? 0) + (row.Timeout ?? 0);
const valid = (row) => detected(row) + (row.Survived ?? 0) + (row.NoCoverage ?? 0);
const score = (row) => (valid(row) ? (100 * detected(row)) / valid(row) : 0);
console.log('\nMutation score per file of src/machines (killed + timed out, of all valid mutants):');
for (const row of rows) {
  if (row.error) console.log(`  ${row.unit.padEnd(28)} ${row.error}`);
  else console.log(`  ${row.unit.padEnd(28)} ${score(row).toFixed(1).padStart(5)}%  ${detected(row)}/${valid(row)}  (${row.Survived} survived, ${row.NoCoverage} without coverage)`);
}
const total = rows.filter((row) => !row.error);
const totalDetected = total.reduce((sum, row) => sum + detected(row), 0);
const totalValid = total.reduce((sum, row) => sum + valid(row), 0);
const totalScore = totalValid ? (100 * totalDetected) / totalValid : 0;
console.log(`\nTotal: ${totalScore.toFixed(1)}% (${totalDetected} of ${totalValid} mutants detected); target ${TARGET}%.`);
writeFileSync('reports/mutation/survivors.txt', rows.flatMap((row) => row.survivors ?? []).join('\n') + '\n');
console.log('Surviving mutants: reports/mutation/survivors.txt; per-file reports: reports/mutation/<file>.html');
const failed = rows.some((row) => row.error) || totalScore < TARGET;
process.exit(failed ? 1 : 0);
