import { useEffect, useState } from 'react';

export type CopyState = 'idle' | 'copied' | 'failed';

/** How long "Copied" (or the refusal) stays before a copy button offers to copy again. */
export const COPIED_FOR_MS = 2000;

/** Copies text to the clipboard and reports how it went for two seconds. */
export const useCopyText = (text: string) => {
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

  return { state, copy };
};
