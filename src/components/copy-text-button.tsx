import { useTranslation } from 'react-i18next';
import { useCopyText } from './use-copy-text';

/** Copies a whole message; says "Copied" for two seconds, or that the browser refused. */
export const CopyTextButton = ({ text, className = '' }: { text: string; className?: string }) => {
  const { t } = useTranslation();
  const { state, copy } = useCopyText(text);

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
