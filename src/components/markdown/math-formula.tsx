import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { importOnce } from './import-once';
import { useMarkdownWords } from './markdown-words';
import { textRuns } from './over-budget-text';
import { texOverBudget } from './render-budgets';

type Renderer = typeof import('./katex-render');

let loaded: Renderer | null = null;
const importKatex = importOnce(() => import('./katex-render'));

/** Fetches KaTeX once; a formula rendered after this typesets before its first paint. */
export const loadKatex = (): Promise<Renderer> =>
  importKatex().then((module) => {
    loaded = module;
    return module;
  });

/** KaTeX with its styles and fonts, fetched the first time an answer holds a formula. */
const useKatex = (): Renderer | null => {
  const [renderer, setRenderer] = useState(loaded);
  useEffect(() => {
    if (renderer) return;
    let current = true;
    loadKatex()
      .then((module) => {
        if (current) setRenderer(module);
      })
      // The formula stays as its source if KaTeX cannot be fetched.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [renderer]);
  return renderer;
};

type MathFormulaProps = { tex: string; display: boolean };

/**
 * A formula: its TeX source until KaTeX has arrived, then the typeset formula; the source again,
 * marked as such, when it is not valid TeX. Once KaTeX is loaded it renders before the browser
 * paints, so a streaming answer does not flicker between source and formula. A formula past its
 * budget (see render-budgets.ts) is never given to KaTeX: it stays its source, with a note.
 */
export const MathFormula = ({ tex, display }: MathFormulaProps) => {
  const words = useMarkdownWords();
  const katex = useKatex();
  const target = useRef<HTMLSpanElement>(null);
  const [rendered, setRendered] = useState<string | null>(null);
  const tooLong = texOverBudget(tex);

  useLayoutEffect(() => {
    if (!katex || !target.current || tooLong) return;
    setRendered(katex.renderMath(tex, target.current, display) ? tex : null);
  }, [katex, tex, display, tooLong]);

  const showSource = rendered !== tex || tooLong;
  const note = tooLong ? words.mathOverBudget : katex ? words.mathInvalid : undefined;
  // A span either way: a display formula may stand inside a paragraph (`\[…\]` mid-sentence).
  return (
    <span
      data-math={display ? 'display' : 'inline'}
      data-over-budget={tooLong ? '' : undefined}
      className={display ? 'my-3 block overflow-x-auto overflow-y-hidden' : undefined}
    >
      <span ref={target} hidden={showSource} />
      {showSource && !tooLong && (
        <code className="rounded bg-raised px-1 py-0.5 font-mono text-[0.9em]" title={note}>
          {tex}
        </code>
      )}
      {tooLong && (
        // Laid out in runs, as any long text past its budget (see OverBudgetText).
        <code className={`rounded bg-raised px-1 py-0.5 font-mono text-[0.9em] ${display ? 'block whitespace-pre-wrap' : ''}`} title={note}>
          {textRuns(tex).map((run, index) => (
            <span key={index} className={display ? 'block' : undefined}>
              {run}
            </span>
          ))}
        </code>
      )}
      {tooLong && display && <span className="mt-1 block text-xs text-muted">{note}</span>}
    </span>
  );
};
