import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isRtl, LOCALE_STORAGE_KEY, matchLocale, resolveLocale, type Locale } from './locale';

/** Only the active language is downloaded: each bundle is its own chunk. */
const bundles = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*.json');

const loadBundle = async (locale: Locale): Promise<Record<string, unknown>> => {
  const load = bundles[`./locales/${locale}.json`];
  if (!load) throw new Error(`No bundle for ${locale}`);
  return (await load()).default;
};

/** The shell of each language (see shell.ts): what the first page needs, loaded at start. */
const shellBundles: Record<Locale, () => Promise<{ default: Record<string, unknown> }>> = {
  'zh-CN': () => import('virtual:locale-shell/zh-CN'),
  'en-US': () => import('virtual:locale-shell/en-US'),
  'fr-FR': () => import('virtual:locale-shell/fr-FR'),
  'de-DE': () => import('virtual:locale-shell/de-DE'),
  ja: () => import('virtual:locale-shell/ja'),
};

/** Languages whose whole bundle is loaded. */
const complete = new Set<Locale>();

/** The saved interface language (`umi_locale`), if any. */
export const readSavedLocale = (): string | null => {
  try {
    return localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    return null;
  }
};

export const applyDocumentLocale = (locale: string): void => {
  document.documentElement.lang = locale;
  document.documentElement.dir = isRtl(locale) ? 'rtl' : 'ltr';
};

export const i18n = i18next.createInstance();

/**
 * Starts i18next in the resolved language; resolves once its bundle is loaded. With `shellOnly`
 * (the app's start) only the first page's part is loaded; `ensureCompleteTranslations` brings
 * the rest. Once any page needed the whole language, a switch loads the whole new one.
 */
export const initI18n = async (forced?: string, { shellOnly = false } = {}): Promise<Locale> => {
  const locale = resolveLocale({ saved: forced ?? readSavedLocale(), browser: navigator.languages ?? [navigator.language] });
  const whole = !shellOnly || complete.size > 0;
  const resources = whole ? await loadBundle(locale) : (await shellBundles[locale]()).default;
  if (whole) complete.add(locale);
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: locale,
      fallbackLng: false,
      resources: { [locale]: { translation: resources } },
      interpolation: { escapeValue: false },
      returnNull: false,
      // In development and tests a key the bundle lacks is said out loud (the screen test fails on it).
      saveMissing: import.meta.env.DEV,
      missingKeyHandler: (languages, _namespace, key) => console.warn(`Missing translation "${key}" in ${languages.join(', ')}`),
    });
    // However the language changes, <html lang> and dir follow it.
    i18n.on('languageChanged', applyDocumentLocale);
  } else {
    i18n.addResourceBundle(locale, 'translation', resources, true, true);
    await i18n.changeLanguage(locale);
  }
  applyDocumentLocale(locale);
  return locale;
};

/** Loads the rest of the active language, for every page but the first. */
export const ensureCompleteTranslations = async (): Promise<void> => {
  const locale = matchLocale(i18n.language);
  if (!locale || complete.has(locale)) return;
  i18n.addResourceBundle(locale, 'translation', await loadBundle(locale), true, true);
  complete.add(locale);
};

/**
 * Saves the choice and switches: the event `languageChanged` re-renders every translated
 * screen. `reload` instead reloads the page, as the spec allows.
 */
export const changeLocale = async (locale: Locale, { reload = false } = {}): Promise<void> => {
  try {
    localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // the choice still applies to this page
  }
  if (reload) {
    location.reload();
    return;
  }
  await initI18n(locale);
};

export { DEFAULT_LOCALE };
