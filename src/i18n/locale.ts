export const LOCALES = ['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';
export const LOCALE_STORAGE_KEY = 'umi_locale';
export const RTL_LANGUAGES = ['he', 'ar', 'fa', 'ku'] as const;

/** The names each language calls itself, for the language menu. */
export const LOCALE_NAMES: Record<Locale, string> = {
  'zh-CN': '简体中文',
  'en-US': 'English',
  'fr-FR': 'Français',
  'de-DE': 'Deutsch',
  ja: '日本語',
};

const isLocale = (value: string): value is Locale => (LOCALES as readonly string[]).includes(value);

/** Maps a browser language tag to a supported locale (en-GB → en-US, ja-JP → ja), or null. */
export const matchLocale = (tag: string | null | undefined): Locale | null => {
  if (!tag) return null;
  if (isLocale(tag)) return tag;
  const language = tag.toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === language) ?? null;
};

export type LocaleSources = {
  saved: string | null;
  browser: readonly string[];
  warn?: (message: string) => void;
};

/**
 * The interface language: the saved choice, then the browser's languages, then zh-CN. A saved
 * language the product does not have is reported and replaced by zh-CN.
 */
export const resolveLocale = ({ saved, browser, warn = console.warn }: LocaleSources): Locale => {
  if (saved) {
    if (isLocale(saved)) return saved;
    warn(`Locale "${saved}" does not exist; falling back to ${DEFAULT_LOCALE}.`);
    return DEFAULT_LOCALE;
  }
  for (const tag of browser) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
};

export const isRtl = (locale: string): boolean =>
  (RTL_LANGUAGES as readonly string[]).includes(locale.toLowerCase().split(/[-_]/)[0] ?? '');

/**
 * The one text the app shows when no language bundle could be loaded at all (the network failed
 * at start): the retry button's name, in each language, without i18next.
 */
export const START_RETRY_LABELS: Record<Locale, string> = {
  'zh-CN': '加载失败，点击重试',
  'en-US': 'Could not load. Try again',
  'fr-FR': 'Échec du chargement. Réessayer',
  'de-DE': 'Laden fehlgeschlagen. Erneut versuchen',
  ja: '読み込みに失敗しました。再試行',
};
