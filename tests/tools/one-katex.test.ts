import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * KaTeX is large and loaded only when an answer has a formula: it ships once. Mermaid depends on
 * its own range of KaTeX; package.json's `overrides` makes it use the product's copy.
 */
describe('the dependencies', () => {
  it('hold one KaTeX, the one the product renders formulas with', () => {
    const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, { version?: string }> };
    const copies = Object.keys(lock.packages).filter((path) => path.endsWith('node_modules/katex'));
    expect(copies).toEqual(['node_modules/katex']);
  });
});
