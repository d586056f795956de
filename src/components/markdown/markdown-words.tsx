import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const KEYS = [
  'copy',
  'copyCode',
  'copied',
  'copyFailed',
  'code',
  'writing',
  'image',
  'imageNotLoaded',
  'imageBlocked',
  'linkRemoved',
  'taskDone',
  'taskOpen',
  'mathInvalid',
  'diagram',
  'showDiagramCode',
  'diagramAlt',
  'overBudget',
  'mathOverBudget',
  'diagramOverBudget',
  'leaveTitle',
  'leaveBody',
  'leaveOpen',
  'leaveCancel',
] as const;

/** The words an answer's blocks show: their buttons, labels and notices (`markdown.*`). */
export type MarkdownWords = Record<(typeof KEYS)[number], string>;

const WordsContext = createContext<MarkdownWords | null>(null);

/**
 * Translates the blocks' words once per answer, in the reader's language. A long answer holds
 * dozens of code blocks, links and copy buttons; each translating its own words cost a burst's
 * first paint about a tenth of its time (measured in a Chromium trace), for the same few strings.
 */
export const MarkdownWordsProvider = ({ children }: { children: ReactNode }) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const words = useMemo(() => Object.fromEntries(KEYS.map((key) => [key, t(`markdown.${key}`, { lng: language })])) as MarkdownWords, [t, language]);
  return <WordsContext.Provider value={words}>{children}</WordsContext.Provider>;
};

/** The blocks' words; only inside an answer's markdown (`Markdown` provides them). */
export const useMarkdownWords = (): MarkdownWords => {
  const words = useContext(WordsContext);
  if (!words) throw new Error('useMarkdownWords is used outside Markdown');
  return words;
};
