import type { ResponderLanguage } from '../agents/runtime';

const LANGUAGES: readonly ResponderLanguage[] = ['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'ja'];

/**
 * The first of the product's languages an Accept-Language header asks for, by its order of
 * preference (`q`): an exact tag, or the language alone (`fr`, `de-AT` → fr-FR, de-DE). Null when
 * it names none of them.
 */
export function preferredLanguage(header: string | undefined | null): ResponderLanguage | null {
  if (!header) return null;
  const asked = header
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of asked) {
    const exact = LANGUAGES.find((language) => language.toLowerCase() === tag);
    if (exact) return exact;
    const primary = tag.split('-')[0];
    const same = LANGUAGES.find((language) => language.split('-')[0]!.toLowerCase() === primary);
    if (same) return same;
  }
  return null;
}
