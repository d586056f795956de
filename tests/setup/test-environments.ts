import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which of the page's test files need a browser-like document (jsdom, the fake API, the spa
 * setup) and which run in plain Node: a document and the fake API cost about a second to set up
 * per file, most machine tests a fraction of that in all.
 */
export const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));

/** A screen (`.tsx`), or a file that reaches for the document, storage, the fake API or rendering. */
export const needsDocument = (file: string): boolean =>
  file.endsWith('.tsx') || /\b(document|window|localStorage|sessionStorage|indexedDB|navigator|msw|server\.use|render)\b|@testing-library/.test(readFileSync(file, 'utf8'));
