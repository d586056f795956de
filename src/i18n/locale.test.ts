import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LOCALE, isRtl, LOCALES, matchLocale, resolveLocale } from './locale';

describe('resolveLocale', () => {
  it('prefers the saved umi_locale over the browser', () => {
    expect(resolveLocale({ saved: 'fr-FR', browser: ['de-DE', 'en-US'] })).toBe('fr-FR');
  });

  it('then takes the first browser language the product has', () => {
    expect(resolveLocale({ saved: null, browser: ['pt-BR', 'ja-JP', 'en-US'] })).toBe('ja');
    expect(resolveLocale({ saved: null, browser: ['en-GB'] })).toBe('en-US');
  });

  it('falls back to zh-CN when nothing matches', () => {
    expect(DEFAULT_LOCALE).toBe('zh-CN');
    expect(resolveLocale({ saved: null, browser: [] })).toBe('zh-CN');
    expect(resolveLocale({ saved: null, browser: ['pt-BR', 'ko'] })).toBe('zh-CN');
  });

  it('warns about a saved language the product does not have and falls back to zh-CN, not to the browser', () => {
    const warn = vi.fn();
    expect(resolveLocale({ saved: 'klingon', browser: ['en-US'], warn })).toBe('zh-CN');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain('klingon');
  });

  it('does not warn for a known saved language', () => {
    const warn = vi.fn();
    resolveLocale({ saved: 'de-DE', browser: [], warn });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('matchLocale', () => {
  it.each([
    ['zh-CN', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['en', 'en-US'],
    ['en-GB', 'en-US'],
    ['EN-us', 'en-US'],
    ['fr-CA', 'fr-FR'],
    ['de-AT', 'de-DE'],
    ['de_CH', 'de-DE'],
    ['ja-JP', 'ja'],
    ['ja', 'ja'],
  ])('maps %s to %s', (tag, locale) => {
    expect(matchLocale(tag)).toBe(locale);
  });

  it.each([null, undefined, '', 'pt-BR', 'ko-KR', 'he'])('maps %s to nothing', (tag) => {
    expect(matchLocale(tag)).toBeNull();
  });
});

describe('isRtl', () => {
  it.each(['he', 'he-IL', 'ar', 'ar-EG', 'fa', 'fa-IR', 'ku', 'AR'])('%s reads right to left', (locale) => {
    expect(isRtl(locale)).toBe(true);
  });
  it.each(['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'ja', 'hu', 'kk', 'arn'])('%s reads left to right', (locale) => {
    expect(isRtl(locale)).toBe(false);
  });
});

describe('the language bundles', () => {
  const folder = join(import.meta.dirname, 'locales');
  const read = (file: string) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as Record<string, unknown>;

  /** Every leaf as "dotted.key" → text. */
  const flatten = (tree: Record<string, unknown>, prefix = ''): Map<string, string> => {
    const leaves = new Map<string, string>();
    for (const [key, value] of Object.entries(tree)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === 'object') for (const [leaf, text] of flatten(value as Record<string, unknown>, path)) leaves.set(leaf, text);
      else leaves.set(path, String(value));
    }
    return leaves;
  };
  const variables = (text: string) => [...text.matchAll(/{{\s*([\w.]+)\s*}}/g)].map((match) => match[1]).sort();

  const files = readdirSync(folder).filter((file) => file.endsWith('.json'));
  const reference = flatten(read('zh-CN.json'));

  it('has one bundle per supported locale', () => {
    expect(files.map((file) => file.replace(/\.json$/, '')).sort()).toEqual([...LOCALES].sort());
  });

  it.each(files.filter((file) => file !== 'zh-CN.json'))('%s has exactly the keys of zh-CN.json', (file) => {
    const bundle = flatten(read(file));
    expect([...bundle.keys()].sort()).toEqual([...reference.keys()].sort());
  });

  it.each(files)('%s keeps every {{variable}} and leaves no text empty', (file) => {
    const bundle = flatten(read(file));
    for (const [key, text] of reference) {
      const translated = bundle.get(key) ?? '';
      expect(variables(translated), `${file} ${key}`).toEqual(variables(text));
      expect(translated.trim(), `${file} ${key}`).not.toBe('');
    }
  });
});
