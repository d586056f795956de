import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type CopyState = 'idle' | 'copied' | 'failed';

/** How long "Copied" stays on the button before it offers to copy again. */
export const COPIED_FOR_MS = 2000;

/** Copies a code block's text; says so for two seconds, or that the browser refused. */
export const CopyButton = ({ text }: { text: string }) => {
  const { t } = useTranslation();
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

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
