import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntime } from '../app/runtime-context';
import { LOCALE_NAMES, LOCALES, matchLocale } from '../i18n/locale';
import { FIRST_PAGES, THEMES, type FirstPage, type Theme } from '../machines/preferences.machine';

const THEME_ICONS: Record<Theme, string> = { light: 'i-lucide-sun', dark: 'i-lucide-moon', system: 'i-lucide-monitor' };
const THEME_LABELS: Record<Theme, string> = { light: 'preferences.themeLight', dark: 'preferences.themeDark', system: 'preferences.themeSystem' };
const FIRST_PAGE_LABELS: Record<FirstPage, string> = { new: 'preferences.firstPageNew', last: 'preferences.firstPageLast' };

type ChoiceProps = { name: string; checked: boolean; onChoose: () => void; icon?: string; lang?: string; children: ReactNode };

/** One option of a group: a real radio button (keyboard and screen readers know it), drawn as a row. */
const Choice = ({ name, checked, onChoose, icon, lang, children }: ChoiceProps) => (
  <label
    className={`relative flex min-w-0 cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-fg hover:bg-raised ${checked ? 'bg-raised font-medium' : ''}`}
  >
    {/* The radio itself is invisible and covers the row, so the whole row is what is clicked and focused. */}
    <input type="radio" name={name} checked={checked} onChange={onChoose} className="absolute inset-0 m-0 cursor-pointer appearance-none rounded-md" />
    {icon && <span className={`${icon} shrink-0 text-muted`} aria-hidden="true" />}
    <span lang={lang} className="min-w-0 flex-1 break-words">
      {children}
    </span>
    <span className={`i-lucide-check shrink-0 ${checked ? 'text-accent' : 'invisible'}`} aria-hidden="true" />
  </label>
);

const Group = ({ legend, children }: { legend: string; children: ReactNode }) => (
  <fieldset className="m-0 flex min-w-0 flex-col gap-0.5 border-0 p-0">
    <legend className="mb-1 px-2 text-xs font-semibold text-muted">{legend}</legend>
    {children}
  </fieldset>
);

/**
 * Theme, interface language and the first page, for visitors and signed-in users alike: a button
 * in the header opening a small panel. Every choice applies at once and is saved for this user.
 */
export const PreferencesMenu = () => {
  const { t, i18n } = useTranslation();
  const { preferences } = useRuntime();
  const theme = useSelector(preferences, (state) => state.context.theme);
  const firstPage = useSelector(preferences, (state) => state.context.firstPage);
  const chosenLocale = useSelector(preferences, (state) => state.context.locale);
  const locale = chosenLocale ?? matchLocale(i18n.resolvedLanguage ?? i18n.language);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const closeOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  return (
    <div
      ref={rootRef}
      className="relative shrink-0"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        // Handled here: a dialog around the menu (the chat's menu on a phone) stays open.
        event.preventDefault();
        setOpen(false);
        buttonRef.current?.focus();
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="btn-ghost p-2"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t('preferences.open')}
        title={t('preferences.open')}
        data-testid="preferences-button"
        onClick={() => setOpen((value) => !value)}
      >
        <span className="i-lucide-settings-2 text-lg" aria-hidden="true" />
      </button>
      {open && (
        <div
          id={panelId}
          role="group"
          aria-label={t('preferences.title')}
          data-testid="preferences-panel"
          className="absolute end-0 top-full z-30 mt-1 flex w-72 max-w-[calc(100vw-1rem)] flex-col gap-3 rounded-lg border border-line bg-surface p-2 shadow-lg"
        >
          <Group legend={t('preferences.theme')}>
            {THEMES.map((value) => (
              <Choice
                key={value}
                name={`${panelId}-theme`}
                checked={theme === value}
                icon={THEME_ICONS[value]}
                onChoose={() => preferences.send({ type: 'theme.choose', theme: value })}
              >
                {t(THEME_LABELS[value])}
              </Choice>
            ))}
          </Group>
          <Group legend={t('preferences.language')}>
            {LOCALES.map((value) => (
              <Choice
                key={value}
                name={`${panelId}-language`}
                checked={locale === value}
                lang={value}
                onChoose={() => preferences.send({ type: 'locale.choose', locale: value })}
              >
                {LOCALE_NAMES[value]}
              </Choice>
            ))}
          </Group>
          <Group legend={t('preferences.firstPage')}>
            {FIRST_PAGES.map((value) => (
              <Choice
                key={value}
                name={`${panelId}-first-page`}
                checked={firstPage === value}
                onChoose={() => preferences.send({ type: 'firstPage.choose', firstPage: value })}
              >
                {t(FIRST_PAGE_LABELS[value])}
              </Choice>
            ))}
          </Group>
        </div>
      )}
    </div>
  );
};
