// Does each machine's model-based tests notice a guard taken away? `npm run test:model-guards
// [-- <unit> …]` (units as scripts/mutation.mjs names them: `wechat-login.machine`).
//
// The model tests walk the paths `xstate/graph` generates from a machine and check each path's
// outcome against the product's rules, written in the test, not read back from the machine. A
// guard the rules depend on, removed, must then fail at least one of them. For every `guard:` of a
// machine this puts the machine's source back with that one guard removed (its transition taken
// whenever its event or `always` comes), runs only the machine's model test files, puts the
// source back, and prints which removals no model test noticed. Unit tests are left out on
// purpose: they are the hand-written half; this checks the generated half.
//
// It exits 1 when a removal survives; `--list` prints the guards it would remove; `--params` removes
// only the guards written as objects with params.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const MACHINES = 'src/machines';
const args = process.argv.slice(2);
const listOnly = args.includes('--list');
/** `--params`: only the guards written as objects with params. */
const paramsOnly = args.includes('--params');
const asked = args.filter((arg) => !arg.startsWith('--'));

/** Each unit with tests and its model test files, as scripts/mutation.mjs finds them. */
const units = spawnSync(process.execPath, ['scripts/mutation.mjs', '--list'], { encoding: 'utf8' })
  .stdout.split('\n')
  .map((line) => line.trim().split(/\s+/))
  .filter(([unit]) => unit)
  .map(([unit, ...tests]) => ({ unit, models: tests.filter((test) => /\.model\.test\.tsx?$/.test(test)) }));

/**
 * A guard as written in a transition: `guard: 'name'`, a call such as `and(['a', 'b'])` or
 * `not('a')`, or an object with params (`guard: { type: 'name', params: ({ event }) => … }`),
 * with the comma after it. Removing the match leaves the transition unguarded.
 */
const GUARD = /guard:\s*(?:'[^']*'|"[^"]*"|[A-Za-z_$][\w$]*\((?:[^()]|\([^()]*\))*\))\s*,?\s*/g;
const GUARD_OBJECT = /guard:\s*\{/g;

/** The end of the object literal that opens at `open` (a `{`): its braces counted, strings skipped. */
function objectEnd(source, open) {
  let depth = 0;
  for (let index = open; index < source.length; index++) {
    const char = source[index];
    if (char === "'" || char === '"' || char === '`') {
      index = source.indexOf(char, index + 1);
      continue;
    }
    if (char === '{') depth += 1;
    if (char === '}' && --depth === 0) return index + 1;
  }
  return -1;
}

/** One removal per guard: its line and the source without it. */
function removals(source) {
  const spans = [...source.matchAll(GUARD)].map((match) => [match.index, match.index + match[0].length]);
  for (const match of source.matchAll(GUARD_OBJECT)) {
    const end = objectEnd(source, match.index + match[0].length - 1);
    if (end < 0) continue;
    const after = /^\s*,?\s*/.exec(source.slice(end))[0].length;
    spans.push([match.index, end + after]);
  }
  return spans
    .sort((a, b) => a[0] - b[0])
    .map(([start, end]) => ({
      line: source.slice(0, start).split('\n').length,
      guard: source.slice(start, end).trim().replace(/,$/, '').replace(/\s+/g, ' '),
      mutated: source.slice(0, start) + source.slice(end),
    }));
}

const runModels = (models) =>
  spawnSync(process.execPath, ['node_modules/.bin/vitest', 'run', '--bail', '1', '--reporter', 'dot', ...models], {
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
    timeout: 15 * 60_000,
  });

const chosen = units.filter(({ unit }) => (asked.length ? asked.includes(unit) : true));
let survivors = 0;
const rows = [];
for (const { unit, models } of chosen) {
  const file = `${MACHINES}/${unit}.ts`;
  let source;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    continue;
  }
  const found = removals(source).filter((removal) => !paramsOnly || removal.guard.startsWith('guard: {'));
  if (found.length === 0) continue;
  if (listOnly) {
    console.log(`${unit}: ${found.map((r) => `${r.line} ${r.guard}`).join('; ')}  [${models.join(' ') || 'no model tests'}]`);
    continue;
  }
  if (models.length === 0) {
    rows.push({ unit, guards: found.length, killed: 0, survived: found.map((r) => `line ${r.line} ${r.guard}`), note: 'no model tests' });
    survivors += found.length;
    continue;
  }
  const clean = runModels(models);
  if (clean.status !== 0) {
    console.error(`${unit}: its model tests fail before any guard is removed:\n${clean.stdout.slice(-2000)}`);
    process.exit(2);
  }
  const survived = [];
  for (const removal of found) {
    writeFileSync(file, removal.mutated);
    try {
      const run = runModels(models);
      if (run.status === 0) survived.push(`line ${removal.line} ${removal.guard}`);
    } finally {
      writeFileSync(file, source);
    }
  }
  survivors += survived.length;
  rows.push({ unit, guards: found.length, killed: found.length - survived.length, survived });
  console.log(`${unit}: ${found.length - survived.length} of ${found.length} guard removals fail a model test${survived.length ? `; not noticed: ${survived.join(', ')}` : ''}`);
}

if (!listOnly) {
  console.log('\n| machine | guards | removals a model test fails on |');
  console.log('| --- | --- | --- |');
  for (const row of rows) console.log(`| ${row.unit} | ${row.guards} | ${row.killed}${row.note ? ` (${row.note})` : ''} |`);
  process.exit(survivors > 0 ? 1 : 0);
}
