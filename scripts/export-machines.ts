// `npm run machines:export -- <folder>`: writes each machine twice, for the Stately editor:
// `<id>.json`, a config that createMachine reads back, and `<id>.ts`, the same config inside
// `setup(...)` with a named stub for every action, guard, actor and delay it uses.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { toStatelyConfig, toStatelySource } from './machine-config';
import { isPlaceName } from './machine-names';

const isMachine = (value: unknown): value is AnyStateMachine =>
  typeof value === 'object' && value !== null && 'toJSON' in value && 'root' in value && 'definition' in value;

/** Every exported machine of src/machines, by id. */
export const collectMachines = async (dir = resolve('src/machines')): Promise<Map<string, AnyStateMachine>> => {
  const machines = new Map<string, AnyStateMachine>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.machine.ts')).sort()) {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) if (isMachine(value)) machines.set(value.id, value);
  }
  return machines;
};

/** Writes both files of every machine into `target`; returns the paths written, by machine id. */
export const exportMachines = (machines: Map<string, AnyStateMachine>, target: string) => {
  mkdirSync(target, { recursive: true });
  const written = new Map<string, { json: string; source: string }>();
  for (const [id, machine] of machines) {
    const json = join(target, `${id}.json`);
    const source = join(target, `${id}.ts`);
    writeFileSync(json, `${JSON.stringify(toStatelyConfig(machine).config, null, 2)}\n`);
    writeFileSync(source, toStatelySource(machine));
    written.set(id, { json, source });
  }
  return written;
};

const main = async () => {
  const target = resolve(process.argv[2] ?? 'machines-export');
  const machines = await collectMachines();
  const written = exportMachines(machines, target);
  for (const [id, { json, source }] of written) console.log(`${id} → ${json}, ${source}`);
  console.log(`${written.size} machines written to ${target}`);
  // Unnamed guards and actions get a name from their place, which moves when the chart changes.
  const unnamed = [...machines].flatMap(([id, machine]) => {
    const { names } = toStatelyConfig(machine);
    return [...names.guards, ...names.actions].filter(isPlaceName).map((name) => `  ${id}: ${name}`);
  });
  if (unnamed.length) console.log(`Inline guards and actions, named by their place (give them a name in setup):\n${unnamed.join('\n')}`);
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
