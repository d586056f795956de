import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import glossary from './glossary.json';
import { formatRelativeTime } from './format';

type Entry = { concept: string; use?: string; avoid?: string[]; avoidPattern?: string; same?: string[]; distinct?: string[] };

const flatten = (value: unknown, prefix = ''): [string, string][] =>
  typeof value === 'object' && value !== null
    ? Object.entries(value).flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key))
    : [[prefix, String(value)]];

const stringsOf = (locale: string) =>
  new Map(flatten(JSON.parse(readFileSync(join(import.meta.dirname, 'locales', `${locale}.json`), 'utf8')) as unknown));

/** The words a page shows besides its locale file: "just now" in the history's times. */
const justNow = (locale: string) => formatRelativeTime(new Date(2026, 0, 1, 12, 0, 0), locale, new Date(2026, 0, 1, 12, 0, 10));

/**
 * Each language uses one term per concept, as a native reader expects (src/i18n/glossary.json):
 * the chosen term is used, the forms it replaces appear nowhere, and keys naming the same thing
 * say the same words.
 */
describe.each(Object.entries(glossary as Record<string, Entry[]>))('the %s glossary', (locale, entries) => {
  const strings = stringsOf(locale);
  const texts = [...strings.entries()];
  const corpus = [...strings.values(), justNow(locale)];

  it.each(entries.map((entry) => [entry.concept, entry] as const))('%s', (_concept, entry) => {
    if (entry.use) expect(corpus.some((text) => text.includes(entry.use!)), `"${entry.use}" is used`).toBe(true);
    const offending: string[] = [];
    for (const [key, text] of texts) {
      for (const avoided of entry.avoid ?? []) if (text.includes(avoided)) offending.push(`${key}: "${text}" has "${avoided}"`);
      if (entry.avoidPattern && new RegExp(entry.avoidPattern, 'u').test(text.replace(/\{\{[^}]+\}\}/g, '{}'))) offending.push(`${key}: "${text}"`);
    }
    expect(offending).toEqual([]);
    if (entry.same) expect(new Set(entry.same.map((key) => strings.get(key))).size, entry.same.join(' = ')).toBe(1);
    if (entry.distinct) expect(new Set(entry.distinct.map((key) => strings.get(key))).size, entry.distinct.join(' ≠ ')).toBe(entry.distinct.length);
  });
});
