import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locale';
import { pickShell } from './shell';

// Every translation key the code names resolves, in every language, in the bundle that is loaded
// where it renders: the whole language for most pages, only its shell (src/i18n/shell.ts) for the
// first page. A key missing there shows as the raw key, e.g. `chat.placeholderTouch` on a phone.

const SRC = resolve(import.meta.dirname, '..');
const LOCALE_DIR = join(import.meta.dirname, 'locales');
const bundleOf = (locale: string) => JSON.parse(readFileSync(join(LOCALE_DIR, `${locale}.json`), 'utf8')) as Record<string, unknown>;

const isSource = (file: string) => /\.(ts|tsx)$/.test(file) && !/\.(test|spec)\.(ts|tsx)$/.test(file) && !file.endsWith('.d.ts');
const sourcesUnder = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? sourcesUnder(path) : isSource(path) ? [path] : [];
  });

/** The keys a file names literally: `t('section.key')`, `t("section.key", …)`, `i18nKey="…"`. */
const keysIn = (code: string) =>
  [...code.matchAll(/\bt\(\s*['"]([\w-]+(?:\.[\w-]+)+)['"]|i18nKey=["']([\w-]+(?:\.[\w-]+)+)["']/g)].map((match) => (match[1] ?? match[2])!);

/** A key resolves as i18next resolves it: the leaf itself, or its plural forms. */
const resolves = (bundle: Record<string, unknown>, key: string) => {
  const path = key.split('.');
  const leaf = path.pop()!;
  let node: unknown = bundle;
  for (const part of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  if (!node || typeof node !== 'object') return false;
  const section = node as Record<string, unknown>;
  return typeof section[leaf] === 'string' || typeof section[`${leaf}_other`] === 'string';
};

/** The file a relative import names, with the extensions the build resolves. */
const resolveImport = (from: string, specifier: string) => {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
};

/** Every source file `roots` import statically (never through `import()`, which loads later). */
const staticClosure = (roots: string[]) => {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const match of code.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[\w$*{}\s,]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const target = resolveImport(file, match[1]!);
      if (target && isSource(target)) queue.push(target);
    }
  }
  return [...seen];
};

describe('translation keys in use', () => {
  const files = sourcesUnder(SRC);

  it('finds the keys the code names (the scan itself works)', () => {
    const all = new Set(files.flatMap((file) => keysIn(readFileSync(file, 'utf8'))));
    expect(all.size).toBeGreaterThan(300);
    expect(all).toContain('chat.placeholderTouch');
  });

  it.each([...LOCALES])('%s: every key the code names is in the language', (locale) => {
    const bundle = bundleOf(locale);
    const missing = files.flatMap((file) =>
      keysIn(readFileSync(file, 'utf8'))
        .filter((key) => !resolves(bundle, key))
        .map((key) => `${relative(SRC, file)}: ${key}`),
    );
    expect(missing).toEqual([]);
  });

  // The first page renders with the shell alone (src/app/routes.tsx: the home screen's
  // `translations: 'shell'`), so every key of the code it loads before the rest must be there.
  const firstPage = staticClosure([join(SRC, 'main.tsx'), join(SRC, 'screens', 'home', 'home-screen.tsx')]);

  it('follows the first page from its entry to the home screen and the message box', () => {
    const names = firstPage.map((file) => relative(SRC, file));
    expect(names).toEqual(expect.arrayContaining(['main.tsx', 'screens/home/home-screen.tsx', 'components/chat-composer.tsx']));
  });

  it.each([...LOCALES])("%s: every key the first page's code names is in the language's shell", (locale) => {
    const shell = pickShell(bundleOf(locale));
    const missing = firstPage.flatMap((file) =>
      keysIn(readFileSync(file, 'utf8'))
        .filter((key) => !resolves(shell, key))
        .map((key) => `${relative(SRC, file)}: ${key}`),
    );
    expect(missing).toEqual([]);
  });
});
