import { useCopyText } from '../use-copy-text';
import { useMarkdownWords } from './markdown-words';

export { COPIED_FOR_MS } from '../use-copy-text';

/** Copies a code block's text; says so for two seconds, or that the browser refused. */
export const CopyButton = ({ text }: { text: string }) => {
  const words = useMarkdownWords();
  const { state, copy } = useCopyText(text);

  const label = { idle: words.copy, copied: words.copied, failed: words.copyFailed }[state];
  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={state === 'idle' ? words.copyCode : label}
      className="btn-ghost px-2 py-0.5 text-xs text-muted"
    >
      <span className={state === 'copied' ? 'i-lucide-check' : 'i-lucide-copy'} aria-hidden="true" />
      <span aria-live="polite">{label}</span>
    </button>
  );
};
