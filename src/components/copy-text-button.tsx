import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type CopyState = 'idle' | 'copied' | 'failed';

/** How long "Copied" stays before the button offers to copy again. */
const COPIED_FOR_MS = 2000;

/** Copies a whole message; says "Copied" for two seconds, or that the browser refused. */
export const CopyTextButton = ({ text, className = '' }: { text: string; className?: string }) => {
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

  const label = { idle: t('chat.copyMessage'), copied: t('chat.copied'), failed: t('chat.copyFailed') }[state];
  return (
    <button type="button" onClick={() => void copy()} aria-label={label} title={label} className={`btn-ghost h-7 gap-1 px-1.5 py-0 text-xs text-muted ${className}`}>
      <span className={state === 'copied' ? 'i-lucide-check text-success' : state === 'failed' ? 'i-lucide-circle-alert text-danger' : 'i-lucide-copy'} aria-hidden="true" />
      <span aria-live="polite" className={state === 'idle' ? 'sr-only' : ''}>
        {state === 'idle' ? '' : label}
      </span>
    </button>
  );
};
