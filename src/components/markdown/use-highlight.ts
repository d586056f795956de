import { useEffect, useState } from 'react';
import type { Root } from 'hast';
import { importOnce } from './import-once';
import { MAX_HIGHLIGHT_CHARS } from './render-budgets';

type Highlighted = { code: string; language: string; tree: Root };

const loadHighlighter = importOnce(() => import('./highlighter'));

/**
 * The syntax tree of a code block once the highlighter (its own chunk, with one chunk per
 * language) has loaded; null until then, for unknown languages, while `enabled` is false, and for
 * code too long to colour in one task.
 */
export const useHighlight = (code: string, language: string, wanted: boolean): Root | null => {
  const [result, setResult] = useState<Highlighted | null>(null);
  const enabled = wanted && code.length <= MAX_HIGHLIGHT_CHARS;

  useEffect(() => {
    if (!enabled || !language) return;
    let current = true;
    loadHighlighter()
      .then(({ highlight }) => highlight(code, language))
      .then((tree) => {
        if (current && tree) setResult({ code, language, tree });
      })
      // Highlighting is decoration: if its chunk fails to load, the plain code stays.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [code, language, enabled]);

  return enabled && result?.code === code && result.language === language ? result.tree : null;
};
