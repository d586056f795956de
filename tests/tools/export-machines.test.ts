import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMachine, type AnyStateMachine } from 'xstate';
import { collectMachines, exportMachines } from '../../scripts/export-machines';
import { toStatelyConfig } from '../../scripts/machine-config';
import { isPlaceName } from '../../scripts/machine-names';
import { machineGraph } from './machine-graph';

// Inside the project so the generated `.ts` files resolve `xstate` as the Stately editor would.
mkdirSync(resolve('.tmp'), { recursive: true });
const folder = mkdtempSync(resolve('.tmp/machines-export-'));

let machines: Map<string, AnyStateMachine>;
let written: ReturnType<typeof exportMachines>;

beforeAll(async () => {
  machines = await collectMachines();
  written = exportMachines(machines, folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('machines:export', () => {
  it('exports every machine of src/machines', () => {
    expect([...machines.keys()]).toEqual(
      expect.arrayContaining(['app', 'chat', 'conversations', 'googleSignIn', 'operationsGuard', 'passwordLogin', 'toasts']),
    );
    // A machine file whose export the collector no longer recognises would otherwise vanish unseen.
    const files = readdirSync(resolve('src/machines')).filter((name) => name.endsWith('.machine.ts'));
    expect(machines.size).toBeGreaterThanOrEqual(files.length);
    expect([...written.keys()].sort()).toEqual([...machines.keys()].sort());
  });

  it('writes JSON that createMachine opens as the same statechart, transition for transition', () => {
    let compared = 0;
    for (const [id, machine] of machines) {
      const json: unknown = JSON.parse(readFileSync(written.get(id)!.json, 'utf8'));
      const original = machineGraph(machine);
      expect(machineGraph(createMachine(json as never)), id).toEqual(original);
      compared += original.transitions.length;
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('writes a setup(...) source the Stately editor imports, which builds the same statechart', async () => {
    for (const [id, machine] of machines) {
      const module = (await import(pathToFileURL(written.get(id)!.source).href)) as { machine: AnyStateMachine };
      expect(machineGraph(module.machine), id).toEqual(machineGraph(machine));
    }
  });

  it('writes sources that type-check against xstate', () => {
    const sources = [...written.values()].map(({ source }) => source);
    const tsc = join(resolve('node_modules'), 'typescript/bin/tsc');
    const options = ['--ignoreConfig', '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022'];
    const check = spawnSync(process.execPath, [tsc, ...options, '--module', 'esnext', '--moduleResolution', 'bundler', ...sources], {
      encoding: 'utf8',
    });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  }, 60_000);

  it('leaves no internal event names or unnamed actions in any file', () => {
    for (const { json, source } of written.values()) {
      for (const text of [readFileSync(json, 'utf8'), readFileSync(source, 'utf8')]) {
        expect(text).not.toMatch(/xstate\.(done|error)\.actor|xstate\.after|xstate\.invoke/);
        expect(text).not.toMatch(/\bnull\b/);
      }
    }
  });

  it('names every action, guard and actor in setup, so the chart reads by name', () => {
    // An inline assign, raise or lambda is exported under a name made from its place or its kind
    // (`assign:failure`, `raise:refresh`, `inline:taskEditor.saving:entry:0`), which says nothing.
    const builtin = /(^|\()(inline|assign|raise|sendTo|emit|cancel|stopChild|spawnChild|log|enqueueActions):/;
    const unnamed = [...machines].flatMap(([id, machine]) => {
      const { names } = toStatelyConfig(machine);
      return [...names.actions, ...names.guards, ...names.actors]
        .filter((name) => isPlaceName(name) || builtin.test(name))
        .map((name) => `${id}: ${name}`);
    });
    expect(unnamed).toEqual([]);
  });
});
