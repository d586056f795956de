import { render } from '@testing-library/react';
import katex from 'katex';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { HOSTILE_PAYLOADS } from './hostile-payloads';
import Markdown from './markdown';
import { loadKatex } from './math-formula';
import { renderStreamed } from './render-markdown';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

const FORBIDDEN_ELEMENTS =
  'script, iframe, frame, frameset, object, embed, applet, style, link, form, meta, base, svg, math, template, noscript, textarea, select, video, audio, source, details, marquee';

// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\s\u0000-\u001f\u007f-\u009f]/g;

/** What a browser would make of an attribute URL, and then some: no way to hide a scheme. */
const normalise = (url: string): string => {
  let text = url.replace(INVISIBLE, '');
  for (let round = 0; round < 3; round += 1) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text.replace(INVISIBLE, '').toLowerCase();
};

/** What KaTeX itself writes for a formula: MathML for assistive technology, spans and SVG strokes for the eye. */
const TYPESET_ELEMENTS = new Set(
  'span math semantics annotation mrow mi mn mo ms mtext mspace msup msub msubsup mfrac msqrt mroot mstyle mpadded mphantom mtable mtr mtd munder mover munderover menclose mglyph svg path line'.split(' '),
);
const TYPESET_ATTRIBUTES = new Set(
  'class style aria-hidden xmlns width height viewbox preserveaspectratio d x1 x2 y1 y2 stroke-width encoding mathvariant stretchy fence separator lspace rspace accent accentunder display displaystyle scriptlevel columnalign rowspacing columnspacing columnlines rowlines frame framespacing notation minsize maxsize symmetric largeop movablelimits linethickness mathcolor mathbackground voffset depth'.split(' '),
);

/** A typeset formula holds only KaTeX's own elements, with sizes and colours as its only styles. */
const expectTypesetHarmless = (formula: Element, context: string) => {
  for (const element of formula.querySelectorAll('*')) {
    expect(TYPESET_ELEMENTS.has(element.localName), `${context}: <${element.localName}> in a formula`).toBe(true);
    for (const attribute of element.attributes) {
      expect(TYPESET_ATTRIBUTES.has(attribute.name.toLowerCase()), `${context}: ${attribute.name} on <${element.localName}> in a formula`).toBe(true);
    }
    const style = element.getAttribute('style') ?? '';
    expect(style, context).not.toMatch(/url\(|expression|position|@import|javascript/i);
  }
};

const expectHarmless = (container: HTMLElement, payload: string) => {
  const context = `payload: ${JSON.stringify(payload)}`;
  const formulas = [...container.querySelectorAll('[data-math] > span:first-child')];
  for (const formula of formulas) expectTypesetHarmless(formula, context);
  const outsideFormulas = (element: Element) => !formulas.some((formula) => formula.contains(element) && formula !== element);
  expect([...container.querySelectorAll(FORBIDDEN_ELEMENTS)].filter(outsideFormulas), context).toHaveLength(0);
  for (const element of [...container.querySelectorAll('*')].filter(outsideFormulas)) {
    for (const attribute of element.attributes) {
      expect(attribute.name.toLowerCase().startsWith('on'), `${context} on <${element.localName} ${attribute.name}>`).toBe(false);
      expect(attribute.name, context).not.toBe('style');
      expect(attribute.name, context).not.toBe('srcdoc');
      expect(attribute.name, context).not.toMatch(/^(formaction|action|xlink:href|background)$/);
    }
  }
  for (const element of container.querySelectorAll('[href], [src]')) {
    const url = normalise(element.getAttribute('href') ?? element.getAttribute('src') ?? '');
    expect(url, context).not.toMatch(/^(javascript|data|vbscript|file):/);
  }
  for (const link of container.querySelectorAll('a')) {
    expect(link.getAttribute('target'), context).toBe('_blank');
    expect(link.getAttribute('rel'), context).toBe('noopener noreferrer');
  }
  for (const image of container.querySelectorAll('img')) {
    expect(new URL(image.src).origin, context).toBe(location.origin);
  }
  for (const input of container.querySelectorAll('input')) {
    expect(input.type, context).toBe('checkbox');
    expect(input.disabled, context).toBe(true);
  }
  expect(window.__pwned, context).toBeUndefined();
};

beforeAll(async () => {
  await initI18n('en-US');
  // Formulas are then typeset on their first render, so the checks below see KaTeX's output.
  await loadKatex();
});

/** What one formula of the corpus may cost: KaTeX's macro expansions (its default bound; ours is 500), and the elements it builds (the corpus's build at most 26). */
const MAX_EXPANSIONS = 1000;
const MAX_ELEMENTS = 200;

describe('hostile answers', () => {
  it('has a corpus of at least 50 payloads, formulas and diagrams among them', () => {
    expect(HOSTILE_PAYLOADS.length).toBeGreaterThanOrEqual(50);
    expect(HOSTILE_PAYLOADS.filter((payload) => payload.includes('\\href')).length).toBeGreaterThan(0);
    expect(HOSTILE_PAYLOADS.filter((payload) => payload.startsWith('```mermaid')).length).toBeGreaterThanOrEqual(5);
  });

  it('typesets the formulas of the corpus without a link, an image, a style of their own or a frozen tab', () => {
    const formulas = HOSTILE_PAYLOADS.filter((payload) => /^(\$|\\[[(])/.test(payload));
    expect(formulas.length).toBeGreaterThanOrEqual(10);
    // A frozen tab is counted, not timed (docs/testing.md): every formula is typeset with KaTeX's
    // macro expansion bounded, checked before it runs (a runaway macro would otherwise hang the
    // test instead of failing it), and what each builds is counted in elements.
    const typeset = katex.render.bind(katex);
    const calls: { tex: string; maxExpand: number; elements: number }[] = [];
    const render$ = vi.spyOn(katex, 'render').mockImplementation((tex, element, options) => {
      const maxExpand = options?.maxExpand ?? 1000;
      calls.push({ tex, maxExpand, elements: 0 });
      if (maxExpand > MAX_EXPANSIONS) throw new Error(`macro expansion unbounded (${maxExpand})`);
      typeset(tex, element, options);
      calls.at(-1)!.elements = element.querySelectorAll('*').length;
    });
    for (const payload of formulas) {
      const { container, unmount } = render(<Markdown source={payload} />);
      expect(container.querySelector('[data-math]'), payload).not.toBeNull();
      expectHarmless(container, payload);
      expect(container.querySelector('a, img, [style*="position"]'), payload).toBeNull();
      unmount();
    }
    render$.mockRestore();
    console.log(`formulas: ${calls.map((call) => call.elements).join(', ')} elements`);
    expect(calls.length).toBeGreaterThanOrEqual(formulas.length);
    for (const call of calls) {
      expect(call.maxExpand, call.tex).toBeLessThanOrEqual(MAX_EXPANSIONS);
      expect(call.elements, call.tex).toBeLessThan(MAX_ELEMENTS);
    }
  });

  it.each(HOSTILE_PAYLOADS.map((payload) => [payload]))('renders %j from history without anything running', (payload) => {
    const { container } = render(<Markdown source={payload} />);
    expectHarmless(container, payload);
    // Something of the answer is still shown: its text, or an image from this site.
    expect(Boolean(container.textContent) || container.querySelector('img') !== null).toBe(true);
  });

  it.each(HOSTILE_PAYLOADS.map((payload) => [payload]))('streams %j in small pieces without anything running', (payload) => {
    const { container } = renderStreamed(payload, 3, (step) => expectHarmless(step, payload));
    expectHarmless(container, payload);
  });

  it('streams the whole corpus as one long answer', () => {
    const answer = HOSTILE_PAYLOADS.join('\n\n');
    const { container } = renderStreamed(answer, 17);
    expectHarmless(container, 'the whole corpus');
  });

  it('shows raw HTML as the text it is', () => {
    const { container } = render(<Markdown source={'Say <b onclick="x()">hi</b>\n\n<div style="color:red">block</div>'} />);
    expect(container.textContent).toContain('<b onclick="x()">hi</b>');
    expect(container.textContent).toContain('<div style="color:red">block</div>');
    expect(container.querySelector('b, div[style]')).toBeNull();
  });

  it('keeps the text of a dropped link and says why it is inert', () => {
    const { container, getByText } = render(<Markdown source="[read this](javascript:alert(1)) please" />);
    expect(container.querySelector('a')).toBeNull();
    expect(getByText('read this')).toHaveAttribute('title', 'Link disabled: its address is not allowed');
  });
});
