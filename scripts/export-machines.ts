// `npm run machines:export -- <folder>`: writes each machine's definition as JSON, one file per
// machine, for the Stately editor and visualizer.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';

const isMachine = (value: unknown): value is AnyStateMachine =>
  typeof value === 'object' && value !== null && 'toJSON' in value && 'root' in value && 'definition' in value;

/** Every exported machine of src/machines, by file. */
export const collectMachines = async (dir = resolve('src/machines')): Promise<Map<string, AnyStateMachine>> => {
  const machines = new Map<string, AnyStateMachine>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.machine.ts')).sort()) {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) if (isMachine(value)) machines.set(value.id, value);
  }
  return machines;
};

const main = async () => {
  const target = resolve(process.argv[2] ?? 'machines-export');
  mkdirSync(target, { recursive: true });
  const machines = await collectMachines();
  for (const [id, machine] of machines) {
    const path = join(target, `${id}.json`);
    writeFileSync(path, `${JSON.stringify(machine.toJSON(), null, 2)}\n`);
    console.log(`${id} → ${path}`);
  }
  console.log(`${machines.size} machines written to ${target}`);
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
