// Runs mutants of the last report again, one at a time: `npm run test:mutation:recheck -- <unit>`
// for the ones Stryker reported as timed out, `-- <unit> --survived` for the ones that survived or
// had no coverage.
//
// Stryker counts a mutant whose tests ran past their time limit as detected. On a machine busy
// with other work, mutants the tests would have passed can time out too, and the score then says
// more than the tests do. This puts each chosen mutant of `reports/mutation/<unit>.json` into
// the machine's source alone, runs that machine's tests (the same files scripts/mutation.mjs
// gives Stryker) once with a generous limit, puts the source back, and prints what happened:
// killed (a test failed), survived (every test passed) or still timed out (three times the
// unmutated tests' time, at least a minute: a mutant that loops forever is detected that way). The
// report is not changed; the figures in docs/testing.md count a mutant as detected only when it is
// killed here.
//
// `--survived` is for after writing tests for a report's survivors: only the machine's tests
// changed, so its mutants are the same, and checking the survivors alone takes minutes where a
// forced Stryker run over every mutant again takes an hour for the largest machine.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const MACHINES = 'src/machines';
const survivedMode = process.argv.includes('--survived');
const unit = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
if (!unit) {
  console.error('usage: node scripts/mutation-recheck.mjs <unit> [--survived]   (e.g. task-editor.machine)');
  process.exit(2);
}

const listed = spawnSync(process.execPath, ['scripts/mutation.mjs', '--list', unit], { encoding: 'utf8' });
const line = listed.stdout.split('\n').find((row) => row.split(/\s+/)[0] === unit);
if (!line) {
  console.error(`${unit} is not a file of ${MACHINES} with tests`);
  process.exit(2);
}
const tests = line.trim().split(/\s+/).slice(1);

const report = JSON.parse(readFileSync(`reports/mutation/${unit}.json`, 'utf8'));
const file = `${MACHINES}/${unit}.ts`;
const entry = report.files[file];
if (!entry) {
  console.error(`reports/mutation/${unit}.json has no ${file}`);
  process.exit(2);
}
const original = readFileSync(file, 'utf8');
if (original !== entry.source) {
  console.error(`${file} changed since the report was written: run Stryker again first`);
  process.exit(2);
}

/** Offsets of each line's start, for Stryker's 1-based lines and columns. */
const lineStarts = [0];
for (let i = 0; i < original.length; i++) if (original[i] === '\n') lineStarts.push(i + 1);
const offset = ({ line: row, column }) => lineStarts[row - 1] + column - 1;

/**
 * The tests once, in a process group of their own: killed whole at `limitMs` (a mutant may loop
 * forever, and Vitest's workers would outlive their parent). Answers 'passed', 'failed' or
 * 'timed out', and the seconds taken.
 */
const runTests = (limitMs) =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(join('node_modules', '.bin', 'vitest'), ['run', '--bail=1', ...tests], { detached: true, stdio: 'ignore' });
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      process.kill(-child.pid, 'SIGKILL');
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
      resolve({ outcome: late ? 'timed out' : code === 0 ? 'passed' : 'failed', seconds: (Date.now() - started) / 1000 });
    });
  });

const wanted = survivedMode ? ['Survived', 'NoCoverage'] : ['Timeout'];
const kind = survivedMode ? 'surviving or uncovered' : 'timed-out';
const chosen = entry.mutants.filter((mutant) => wanted.includes(mutant.status));
console.log(`${chosen.length} ${kind} mutants of ${file}; tests: ${tests.join(', ')}`);
if (chosen.length === 0) process.exit(0);
// A mutant is given three times what the tests take unmutated, and at least a minute.
const baseline = await runTests(10 * 60_000);
if (baseline.outcome !== 'passed') {
  console.error(`the tests of ${unit} do not pass unmutated (${baseline.outcome})`);
  process.exit(1);
}
const limitMs = Math.max(60_000, 3 * baseline.seconds * 1000);
console.log(`unmutated: ${baseline.seconds.toFixed(0)} s; limit per mutant ${(limitMs / 1000).toFixed(0)} s`);
const results = [];
try {
  for (const mutant of chosen) {
    const mutated = original.slice(0, offset(mutant.location.start)) + mutant.replacement + original.slice(offset(mutant.location.end));
    writeFileSync(file, mutated);
    const run = await runTests(limitMs);
    const outcome = run.outcome === 'passed' ? 'survived' : run.outcome === 'failed' ? 'killed' : 'timed out';
    const where = `${file}:${mutant.location.start.line}`;
    results.push({ outcome, text: `${outcome.padEnd(9)} ${where} ${mutant.mutatorName} ${JSON.stringify(mutant.replacement)} (${run.seconds.toFixed(0)} s)` });
    console.log(results.at(-1).text);
  }
} finally {
  writeFileSync(file, original);
}
const count = (outcome) => results.filter((result) => result.outcome === outcome).length;
const summary = `${unit}: of ${results.length} ${kind} mutants, ${count('killed')} killed, ${count('survived')} survived, ${count('timed out')} timed out`;
console.log(`\n${summary}`);
const out = `reports/mutation/${unit}.recheck${survivedMode ? '-survived' : ''}.txt`;
writeFileSync(out, [summary, ...results.map((result) => result.text)].join('\n') + '\n');
