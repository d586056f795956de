import { render } from '@testing-library/react';
import { Lexer } from 'marked';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { BlockSplitter } from './block-splitter';
import Markdown from './markdown';
import { renderStreamed } from './render-markdown';

/** A long answer with every kind of block, including ones a later line could extend. */
const section = (n: number) =>
  [
    `## Part ${n}`,
    `Paragraph ${n} with **bold**, a [link](https://example.com/${n}) and \`code\`.\r\nA second line.`,
    `1. first\n2. second\n\n3. loose third`,
    `- [x] done ${n}\n- [ ] open ${n}`,
    `| a | b |\n|:--|--:|\n| ${n} | ${n * 2} |`,
    '```js\nconst n = ' + n + ';\n\nconsole.log(n);\n```',
    `> quote ${n}\n> continued`,
    'Setext heading\n---',
    `[ref ${n}][r${n}]\n\n[r${n}]: https://example.com/ref/${n}`,
  ].join('\n\n');

const document = (sections: number) => Array.from({ length: sections }, (_, i) => section(i + 1)).join('\n\n');

beforeAll(async () => {
  await initI18n('en-US');
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('streaming an answer', () => {
  it('ends with the same page as rendering the finished answer from history', () => {
    const source = document(6);
    const streamed = renderStreamed(source, 7).container.innerHTML;
    const whole = render(<Markdown source={source} />).container.innerHTML;
    expect(streamed).toBe(whole);
  });

  it('lexes only the growing tail: completed blocks are never parsed again', () => {
    const source = document(30);
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    renderStreamed(source, 40);
    const lexed = lex.mock.calls.map(([text]) => text.length);
    const updates = Math.ceil(source.length / 40);
    expect(lexed.length).toBeGreaterThanOrEqual(updates);
    // Re-parsing everything each time would lex about updates × length / 2 characters.
    const total = lexed.reduce((sum, length) => sum + length, 0);
    expect(total).toBeLessThan(source.length * 3);
    expect(Math.max(...lexed)).toBeLessThan(400);
  });

  it('keeps completed blocks in place and lexes only the text after them', () => {
    const source = document(3);
    const { container, rerender } = render(<Markdown source={source} streaming />);
    const firstHeading = container.querySelector('h2');
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    rerender(<Markdown source={`${source}\n\nMore text`} streaming />);
    rerender(<Markdown source={`${source}\n\nMore text arriving`} streaming />);
    expect(container.querySelector('h2')).toBe(firstHeading);
    expect(lex.mock.calls.every(([text]) => text.length < 200)).toBe(true);
    expect(container).toHaveTextContent('More text arriving');
  });

  it('starts again when the answer is replaced rather than extended', () => {
    const { container, rerender } = render(<Markdown source={'# One\n\nfirst answer\n\nmore'} streaming />);
    rerender(<Markdown source={'# Two\n\nsecond answer'} />);
    expect(container).toHaveTextContent('Two');
    expect(container).not.toHaveTextContent('One');
    expect(container).not.toHaveTextContent('first answer');
  });
});

describe('BlockSplitter', () => {
  it('keeps a list whole when a blank line is followed by its next item', () => {
    const splitter = new BlockSplitter();
    splitter.split('1. a\n\n');
    splitter.split('1. a\n\n2');
    const blocks = splitter.split('1. a\n\n2. b');
    expect(blocks.filter((token) => token.type === 'list')).toHaveLength(1);
  });

  it('handles a 100 kB answer in small deltas with work proportional to the tail', () => {
    const source = document(120).slice(0, 100_000);
    const splitter = new BlockSplitter();
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    const started = performance.now();
    for (let end = 16; end < source.length + 16; end += 16) splitter.split(source.slice(0, end));
    const elapsed = performance.now() - started;
    const total = lex.mock.calls.reduce((sum, [text]) => sum + text.length, 0);
    expect(total).toBeLessThan(source.length * 12);
    // A generous bound for slow CI machines; a full re-parse per delta takes minutes.
    expect(elapsed).toBeLessThan(10_000);
    expect(splitter.split(source).map((token) => token.raw).join('')).toBe(source.replace(/\r\n/g, '\n'));
  });
});
