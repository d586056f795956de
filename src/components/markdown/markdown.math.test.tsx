import { render, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../i18n';
import Markdown from './markdown';
import { loadKatex } from './math-formula';
import { renderStreamed } from './render-markdown';

beforeAll(async () => {
  await initI18n('en-US');
});

const typeset = (container: HTMLElement) => [...container.querySelectorAll('[data-math] .katex')];

describe('formulas in answers', () => {
  it('typesets $…$, \\(…\\) inline and $$…$$, \\[…\\] as display formulas, with MathML for screen readers', async () => {
    const { container } = render(
      <Markdown source={'Euler: $e^{i\\pi} + 1 = 0$ and \\(a^2 + b^2 = c^2\\).\n\n$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$\n\n\\[\\sum_{n=1}^\\infty \\frac{1}{n^2}\\]'} />,
    );
    await waitFor(() => expect(typeset(container)).toHaveLength(4));
    expect(container.querySelectorAll('[data-math="inline"]')).toHaveLength(2);
    expect(container.querySelectorAll('[data-math="display"]')).toHaveLength(2);
    expect(container.querySelector('[data-math="display"] .katex-display')).not.toBeNull();
    expect(container.querySelector('[data-math] annotation')).toHaveTextContent('e^{i\\pi} + 1 = 0');
  });

  it('leaves prices, code and lone dollars as text', async () => {
    await loadKatex();
    const { container } = render(<Markdown source={'It costs $5 and $10 today, `$x$` is code, and so is:\n\n```\n$$y$$\n```'} />);
    expect(container.querySelector('[data-math]')).toBeNull();
    expect(container).toHaveTextContent('It costs $5 and $10 today');
    expect(container.querySelector('code')).toHaveTextContent('$x$');
  });

  it('shows a formula that is not valid TeX as it was written, saying so', async () => {
    await loadKatex();
    render(<Markdown source={'Broken: $\\frac{1}{$ here'} />);
    expect(screen.getByTitle('This formula could not be typeset; it is shown as written')).toHaveTextContent('\\frac{1}{');
  });

  it('streams a formula as text until it is closed, then typesets it without ever showing its source again', async () => {
    await loadKatex();
    const answer = 'First $x^2$ then\n\n$$\n\\sqrt{y}\n$$\n\nand \\(z\\) done.';
    const { container } = renderStreamed(answer, 2, (step) => {
      // Every formula on the page is typeset in the same frame it appears: no source flashes.
      for (const formula of step.querySelectorAll('[data-math]')) {
        expect(formula.querySelector('.katex'), step.innerHTML).not.toBeNull();
        expect(formula.querySelector('code')).toBeNull();
      }
    });
    expect(typeset(container)).toHaveLength(3);
  });
});
