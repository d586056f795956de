import { useTranslation } from 'react-i18next';
import { useCopyText } from '../use-copy-text';

export { COPIED_FOR_MS } from '../use-copy-text';

/** Copies a code block's text; says so for two seconds, or that the browser refused. */
export const CopyButton = ({ text }: { text: string }) => {
  const { t } = useTranslation();
  const { state, copy } = useCopyText(text);

  const label = { idle: t('markdown.copy'), copied: t('markdown.copied'), failed: t('markdown.copyFailed') }[state];
  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={state === 'idle' ? t('markdown.copyCode') : label}
      className="btn-ghost px-2 py-0.5 text-xs text-muted"
    >
      <span className={state === 'copied' ? 'i-lucide-check' : 'i-lucide-copy'} aria-hidden="true" />
      <span aria-live="polite">{label}</span>
    </button>
  );
};
