import { render, waitFor } from '@testing-library/react';
import katex from 'katex';
import { Tokenizer } from 'marked';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { HEAVY_ANSWERS } from './hostile-payloads';
import Markdown from './markdown';
import { loadKatex } from './math-formula';
import { TEXT_RUN_CHARS, textRuns } from './over-budget-text';
import { renderStreamed } from './render-markdown';
import {
  diagramOverBudget,
  MAX_BLOCK_NESTING,
  MAX_DIAGRAM_EDGES,
  MAX_INLINE_DELIMITERS,
  MAX_MINDMAP_NODES,
  measureDiagram,
  measureTex,
  texOverBudget,
} from './render-budgets';

const renderDiagram = vi.hoisted(() => vi.fn<(source: string, dark: boolean) => Promise<string | null>>());
vi.mock('./mermaid-render', () => ({ renderDiagram }));

beforeAll(async () => {
  await initI18n('en-US');
  await loadKatex();
});

afterEach(() => {
  vi.restoreAllMocks();
  renderDiagram.mockReset();
});

/**
 * The work is counted, never timed (docs/testing.md): marked's emphasis tokenizer is where its
 * time grows with the square of the delimiters, KaTeX's `render` and Mermaid's `renderDiagram`
 * are where a large formula or diagram costs seconds. Past a budget none of them is called.
 */
const countWork = () => {
  const emphasis = vi.spyOn(Tokenizer.prototype, 'emStrong');
  const typeset = vi.spyOn(katex, 'render');
  return { emphasis, typeset };
};

describe('rendering budgets', () => {
  it.each(Object.entries(HEAVY_ANSWERS))('shows the %s as its source with a note, without the costly step', async (_name, answer) => {
    const work = countWork();
    renderDiagram.mockResolvedValue('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>');
    const { container } = render(<Markdown source={answer} />);
    const shown = container.querySelector('[data-over-budget]');
    expect(shown).not.toBeNull();
    expect(container.textContent).toMatch(/too much formatting|too long to typeset|too large to draw/);
    // Whatever its budget, the source is on the page as written (the longest ones checked by a part).
    expect(container.textContent).toContain(answer.slice(-2_000).replace(/^[\s\S]*?\n/, '').replace(/\n?(```|\$\$)$/, '').trim().slice(-200));
    await Promise.resolve();
    if (/^[_*]/.test(answer)) expect(work.emphasis).not.toHaveBeenCalled();
    expect(work.typeset).not.toHaveBeenCalled();
    expect(renderDiagram).not.toHaveBeenCalled();
  });

  it('stops counting a run of inline text at its budget: formatting within it is kept', () => {
    const work = countWork();
    const phrases = Array.from({ length: MAX_INLINE_DELIMITERS / 4 }, (_, index) => `**bold ${index}**`).join(' ');
    const { container } = render(<Markdown source={`${phrases}\n\n${phrases} _one more_`} />);
    const paragraphs = container.querySelectorAll('p');
    expect(paragraphs[0]?.querySelectorAll('strong')).toHaveLength(MAX_INLINE_DELIMITERS / 4);
    expect(paragraphs[0]?.querySelector('[data-over-budget]')).toBeNull();
    // The second paragraph is two delimiters past the budget: plain text, and marked never paired them.
    expect(container.querySelector('[data-over-budget]')?.textContent).toContain('**bold 0** **bold 1**');
    expect(work.emphasis.mock.calls.length).toBeLessThanOrEqual(MAX_INLINE_DELIMITERS);
  });

  it('streams 50 kB of `*a` without pairing a delimiter at any step', () => {
    const work = countWork();
    const answer = 'Intro **bold**.\n\n' + '*a'.repeat(25_000);
    let steps = 0;
    renderStreamed(answer, 2_000, (step) => {
      steps += 1;
      if (step.textContent!.length > MAX_INLINE_DELIMITERS * 2 + 100) expect(step.querySelector('[data-over-budget]')).not.toBeNull();
    });
    expect(steps).toBeGreaterThan(20);
    // Only the short paragraphs before the budget was reached were ever given to the emphasis tokenizer.
    expect(work.emphasis.mock.calls.length).toBeLessThan(MAX_INLINE_DELIMITERS * 2);
  });

  it('lays out a long plain text in runs that stay put as it grows, so only the last is laid out again', () => {
    const text = HEAVY_ANSWERS['mixed emphasis × 20,000']!;
    const runs = textRuns(text);
    expect(runs.join('')).toBe(text);
    expect(Math.max(...runs.map((run) => run.length))).toBeLessThanOrEqual(2 * TEXT_RUN_CHARS);
    const grown = textRuns(`${text} and more`);
    expect(grown.slice(0, runs.length - 1)).toEqual(runs.slice(0, -1));
    // Without a space, runs are cut at twice the length.
    expect(textRuns('*a'.repeat(10_000)).map((run) => run.length)).toEqual([4_000, 4_000, 4_000, 4_000, 4_000]);
    const { container } = render(<Markdown source={text} />);
    expect(container.querySelectorAll('[data-over-budget] > span.block')).toHaveLength(runs.length + 1);
  });

  it('nests quotes and lists up to the budget, then shows the rest as text without overflowing the stack', () => {
    const { container } = render(<Markdown source={HEAVY_ANSWERS['blockquotes 3,000 deep']!} />);
    expect(container.querySelectorAll('blockquote')).toHaveLength(MAX_BLOCK_NESTING);
    const list = render(<Markdown source={HEAVY_ANSWERS['list 300 deep']!} />);
    expect(list.container.querySelectorAll('ul').length).toBeLessThanOrEqual(MAX_BLOCK_NESTING);
    expect(list.container.textContent).toContain('level 300');
    const shallow = render(<Markdown source={'> > > quoted three deep\n\n- a\n  - b\n    - c'} />);
    expect(shallow.container.querySelectorAll('blockquote')).toHaveLength(3);
    expect(shallow.container.querySelectorAll('ul')).toHaveLength(3);
    expect(shallow.container.querySelector('[data-over-budget]')).toBeNull();
  });

  it('counts a diagram’s statements and edges, and draws one within its budget', async () => {
    expect(measureDiagram('graph TD\n  A --> B\n  B -.-> C\n  %% a comment\n  C ==> D & E\n  D --o F')).toMatchObject({ kind: 'graph', statements: 4, edges: 4 });
    expect(measureDiagram('sequenceDiagram\n  A->>B: hi\n  B-->>A: back')).toMatchObject({ statements: 2, edges: 2 });
    expect(measureDiagram('classDiagram\n  A <|-- B\n  C *-- D')).toMatchObject({ edges: 2 });
    expect(measureDiagram(HEAVY_ANSWERS['flowchart of 400 edges']!.replace(/^```mermaid\n|```$/g, '')).edges).toBe(400);
    const mindmap = (children: number) => `mindmap\n  root\n${'    idea\n'.repeat(children)}`;
    expect(diagramOverBudget(mindmap(MAX_MINDMAP_NODES - 1))).toBe(false);
    expect(diagramOverBudget(mindmap(MAX_MINDMAP_NODES))).toBe(true);
    const flowchart = (edges: number) => `graph TD\n${Array.from({ length: edges }, (_, index) => `  N${index} --> N${index + 1}\n`).join('')}`;
    expect(diagramOverBudget(flowchart(MAX_DIAGRAM_EDGES))).toBe(false);
    expect(diagramOverBudget(flowchart(MAX_DIAGRAM_EDGES + 1))).toBe(true);

    renderDiagram.mockResolvedValue('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>');
    const { container } = render(<Markdown source={'```mermaid\n' + mindmap(10) + '```'} />);
    await waitFor(() => expect(renderDiagram).toHaveBeenCalledTimes(1));
    expect(container.querySelector('[data-over-budget]')).toBeNull();
  });

  it('counts a formula’s length and depth, and typesets one within its budget', () => {
    expect(measureTex('\\sqrt{\\frac{a}{b}} + \\{x\\}')).toEqual({ chars: 26, depth: 2 });
    expect(texOverBudget(`${'\\sqrt{'.repeat(24)}x${'}'.repeat(24)}`)).toBe(false);
    expect(texOverBudget(`${'\\sqrt{'.repeat(25)}x${'}'.repeat(25)}`)).toBe(true);
    expect(texOverBudget('x+'.repeat(1_000))).toBe(false);
    expect(texOverBudget('x+'.repeat(1_001))).toBe(true);
    const work = countWork();
    const { container } = render(<Markdown source={'$$\n\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}\n$$'} />);
    expect(work.typeset).toHaveBeenCalledTimes(1);
    expect(container.querySelector('.katex-display')).not.toBeNull();
  });
});
