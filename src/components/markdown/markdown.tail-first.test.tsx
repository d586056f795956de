import { render } from '@testing-library/react';
import { Lexer } from 'marked';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { FIRST_STEP, STEP_BUDGET_MS, usePacedText, type FrameScheduler } from '../use-paced-text';
import { handFrames } from '../hand-frames';
import Markdown from './markdown';
import { TailCuts, TAIL_CHARS } from './tail-cut';

/** A long answer with fences holding blank lines, lists, tables, formulas and reference links. */
const section = (n: number) =>
  [
    `## Part ${n}`,
    `Paragraph ${n} with **bold**, a [reference][r${n}] and \`code\`.\nA second line with $x_${n}^2$.`,
    `1. first\n2. second\n\n3. loose third\n\n   continued third`,
    `- [x] done ${n}\n- [ ] open ${n}`,
    `| a | b |\n|:--|--:|\n| ${n} | ${n * 2} |`,
    '```js\nconst n = ' + n + ';\n\n\nconsole.log(n);\n\n```',
    '~~~\nplain\n\n```\nstill inside\n~~~',
    `$$\n\\sum_{i=1}^{${n}} i\n$$`,
    `> quote ${n}\n> continued`,
    `[r${n}]: https://example.com/ref/${n}`,
  ].join('\n\n');
const longAnswer = (sections: number) => `${Array.from({ length: sections }, (_, i) => section(i + 1)).join('\n\n')}\n\nThe last words 9d2e.`;

/** What the answer on the chat screen does: the paced prefix, the end shown ahead. */
const Paced = ({ text, streaming, frames }: { text: string; streaming: boolean; frames: FrameScheduler }) => {
  const shown = usePacedText(text, true, frames);
  return <Markdown source={text} painted={shown.length} streaming={streaming || shown !== text} />;
};

beforeAll(async () => {
  await initI18n('en-US');
});
afterEach(() => void vi.restoreAllMocks());

describe('an answer that arrives faster than it can be painted', () => {
  it('paints its end in the first frame, then the rest in order, within the step budget, lexing no more than a step at once', () => {
    const hand = handFrames();
    const text = longAnswer(300);
    expect(text.length).toBeGreaterThan(12 * FIRST_STEP);
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    const view = render(<Paced text="" streaming frames={hand.frames} />);
    view.rerender(<Paced text={text} streaming={false} frames={hand.frames} />);
    // The first frame: the last words are on the page, the middle holds its place.
    expect(view.container.querySelector('[data-markdown]')?.lastElementChild).toHaveTextContent('The last words 9d2e.');
    expect(view.container.querySelector('[data-unpainted]')).not.toBeNull();
    expect(view.container.textContent).not.toContain('Part 150');
    // The element a reader may be looking at: it stays the same element once painted in order, so
    // the browser's scroll anchoring keeps it in place while the space above fills in.
    const shownAhead = view.container.querySelector('[data-markdown]')?.lastElementChild;
    expect(view.container.querySelector<HTMLElement>('[data-unpainted]')?.style.overflowAnchor).toBe('none');
    // A page costing 2 µs a character lexed: every step stays within the budget.
    const lexedNow = () => {
      const chars = lex.mock.calls.reduce((sum, [source]) => sum + source.length, 0);
      lex.mockClear();
      return chars * 0.002;
    };
    const costs: number[] = [lexedNow()];
    let frames = 0;
    let parts = 0;
    while (hand.waiting()) {
      hand.run(() => {
        const cost = lexedNow();
        costs.push(cost);
        return cost;
      });
      frames += 1;
      // In order: the parts shown grow from the first, and the end stays shown.
      const shownParts = view.container.querySelectorAll('h2').length;
      expect(shownParts).toBeGreaterThanOrEqual(parts);
      parts = shownParts;
      expect(view.container.querySelector('[data-markdown]')?.lastElementChild).toHaveTextContent('The last words 9d2e.');
    }
    expect(frames).toBeGreaterThan(3);
    // Once the page's pace is measured, each step fits the budget (give or take the unfinished blocks lexed again).
    expect(Math.max(...costs.slice(2))).toBeLessThanOrEqual(STEP_BUDGET_MS * 1.1);
    expect(view.container.querySelector('[data-unpainted]')).toBeNull();
    expect(view.container.querySelector('[data-markdown]')?.lastElementChild).toBe(shownAhead);
  });

  it('ends with the same page as rendering the finished answer whole', () => {
    const hand = handFrames();
    const text = longAnswer(40);
    const view = render(<Paced text="" streaming frames={hand.frames} />);
    // Arriving in three pieces, faster than painted, then finished.
    for (const end of [text.length / 3, (2 * text.length) / 3, text.length]) {
      view.rerender(<Paced text={text.slice(0, Math.floor(end))} streaming frames={hand.frames} />);
      hand.run(() => 40);
    }
    view.rerender(<Paced text={text} streaming={false} frames={hand.frames} />);
    while (hand.waiting()) hand.run(() => 40);
    const whole = render(<Markdown source={text} />);
    expect(view.container.innerHTML).toBe(whole.container.innerHTML);
    expect(view.container.querySelectorAll('a[href^="https://example.com/ref/"]').length).toBe(40);
  });
});

describe('where the end of an answer is cut', () => {
  it('never cuts inside a code fence or a formula, even at a blank line', () => {
    const fenced = '```\n' + 'line\n\n'.repeat(2_000) + '```\n';
    const text = `Intro\n\n${fenced}`;
    const cut = new TailCuts().cutNear(text, 0);
    // Only the fence's own start would do, and it leaves too long a tail.
    expect(cut === null || cut === text.indexOf('```')).toBe(true);
    const math = `Intro\n\n$$\n${'x\n\n'.repeat(2_000)}$$\n\nAfter ${'word '.repeat(1_000)}\n`;
    const mathCut = new TailCuts().cutNear(math, 0);
    expect(mathCut).toBe(math.indexOf('After'));
  });

  it('cuts a screenful from the end at a block start, and scans only what was added', () => {
    const cuts = new TailCuts();
    const text = 'Paragraph.\n\n'.repeat(1_000);
    const cut = cuts.cutNear(text, 0) ?? 0;
    expect(text.length - cut).toBeGreaterThanOrEqual(TAIL_CHARS);
    expect(text.length - cut).toBeLessThan(TAIL_CHARS + 20);
    expect(text.slice(cut - 2, cut)).toBe('\n\n');
    expect(cuts.cutNear(text, text.length - 10)).toBeNull();
  });
});
