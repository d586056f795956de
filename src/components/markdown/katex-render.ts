import katex, { type KatexOptions } from 'katex';
import 'katex/dist/katex.min.css';
import { texOverBudget } from './render-budgets';

/**
 * KaTeX's options for formulas an agent wrote, which an attacker may have written: no trusted
 * commands (`\href`, `\url`, `\htmlData`, `\includegraphics` stay inert), a bound on macro
 * expansion (`\def\a{\a\a}` cannot freeze the tab) and on sizes (`\rule{1000em}` cannot cover
 * the page).
 */
export const KATEX_OPTIONS: KatexOptions = {
  trust: false,
  maxExpand: 500,
  maxSize: 20,
  strict: 'ignore',
  throwOnError: true,
  output: 'htmlAndMathml',
};

/**
 * Renders `tex` into `element` (KaTeX builds DOM nodes itself: no HTML string is ever parsed).
 * Answers false, leaving the element empty, when the formula is not valid TeX or is past its
 * budget (see render-budgets.ts).
 */
export const renderMath = (tex: string, element: HTMLElement, display: boolean): boolean => {
  if (texOverBudget(tex)) return false;
  try {
    katex.render(tex, element, { ...KATEX_OPTIONS, displayMode: display });
    return true;
  } catch {
    element.textContent = '';
    return false;
  }
};
