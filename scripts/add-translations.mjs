#!/usr/bin/env node
// Adds or replaces translation keys in every locale bundle at once, safely while others edit:
//   node scripts/add-translations.mjs path/to/keys.json
// keys.json: { "zh-CN": { "chat": { "rename": "重命名" } }, "en-US": { ... }, "fr-FR": ..., "de-DE": ..., "ja": ... }
// Every locale must be given the same keys. The bundles are merged deeply under an exclusive
// lock, so concurrent runs never lose each other's keys.
import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCALES = ['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'ja'];
const DIR = join(import.meta.dirname, '..', 'src', 'i18n', 'locales');
const LOCK = join(DIR, '.lock');

const flatKeys = (value, prefix = '') =>
  Object.entries(value).flatMap(([key, child]) =>
    child && typeof child === 'object' ? flatKeys(child, `${prefix}${key}.`) : [`${prefix}${key}`],
  );

const merge = (target, source) => {
  for (const [key, value] of Object.entries(source)) {
    if (value && typeof value === 'object') {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
      merge(target[key], value);
    } else {
      target[key] = value;
    }
  }
  return target;
};

const additions = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const reference = flatKeys(additions['zh-CN'] ?? {}).sort().join('\n');
for (const locale of LOCALES) {
  if (!additions[locale]) throw new Error(`missing locale ${locale}`);
  if (flatKeys(additions[locale]).sort().join('\n') !== reference) throw new Error(`${locale} does not have the same keys as zh-CN`);
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let fd;
for (let attempt = 0; ; attempt += 1) {
  try {
    fd = openSync(LOCK, 'wx');
    break;
  } catch {
    if (attempt > 200) throw new Error(`could not take ${LOCK}; remove it if no one is editing`);
    sleep(50);
  }
}
try {
  for (const locale of LOCALES) {
    const path = join(DIR, `${locale}.json`);
    const bundle = merge(JSON.parse(readFileSync(path, 'utf8')), additions[locale]);
    writeFileSync(`${path}.tmp`, `${JSON.stringify(bundle, null, 2)}\n`);
    renameSync(`${path}.tmp`, path);
  }
} finally {
  closeSync(fd);
  unlinkSync(LOCK);
}
console.log(`added ${reference.split('\n').length} keys to ${LOCALES.length} locales`);
