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

  // Plural forms are the language's own (one/other in English, one/many/other in French, other
  // alone in Chinese and Japanese): keys are compared without them, and each plural has `other`.
  const PLURAL = /_(zero|one|two|few|many|other)$/;
  const withoutPlurals = (keys: Iterable<string>) => [...new Set([...keys].map((key) => key.replace(PLURAL, '')))].sort();
  const textFor = (bundle: Map<string, string>, key: string) => bundle.get(key) ?? bundle.get(key.replace(PLURAL, '_other')) ?? '';

  it.each(files.filter((file) => file !== 'zh-CN.json'))('%s has exactly the keys of zh-CN.json', (file) => {
    const bundle = flatten(read(file));
    expect(withoutPlurals(bundle.keys())).toEqual(withoutPlurals(reference.keys()));
  });

  it.each(files)("%s gives every plural its language's forms, `other` always among them", (file) => {
    const locale = file.replace(/\.json$/, '');
    const bundle = flatten(read(file));
    const plurals = withoutPlurals([...bundle.keys()].filter((key) => PLURAL.test(key)));
    const forms = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.filter((form) => form !== 'zero' && form !== 'two');
    for (const key of plurals) {
      for (const form of forms) expect(bundle.has(`${key}_${form}`), `${file} ${key}_${form}`).toBe(true);
    }
  });

  it.each(files)('%s keeps every {{variable}} and leaves no text empty', (file) => {
    const bundle = flatten(read(file));
    for (const [key, text] of reference) {
      const translated = textFor(bundle, key);
      expect(variables(translated), `${file} ${key}`).toEqual(variables(text));
      expect(translated.trim(), `${file} ${key}`).not.toBe('');
    }
  });
});
