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
    // Counted, not timed (docs/testing.md): lexing only the tail reads the answer about 4.5 times
    // over; lexing it all again at each delta would read it about 1,300 times over.
    let deltas = 0;
    let largest = 0;
    for (let end = 16; end < source.length + 16; end += 16, deltas += 1) {
      const before = lex.mock.calls.length;
      splitter.split(source.slice(0, end));
      const read = lex.mock.calls.slice(before).reduce((sum, [text]) => sum + text.length, 0);
      largest = Math.max(largest, read);
      // the tail stays a few blocks long however long the answer grows: checked at each delta, so
      // a splitter that reads the answer again fails at once, not minutes later
      if (read >= 2_000) expect.fail(`delta ${deltas + 1} lexed ${read} characters of ${end}`);
    }
    const total = lex.mock.calls.reduce((sum, [text]) => sum + text.length, 0);
    console.log(`${deltas} deltas: ${lex.mock.calls.length} lexer calls, ${total} characters lexed, at most ${largest} in one delta`);
    expect(total).toBeLessThan(source.length * 12);
    // each delta lexes its tail once (a block is lexed again alone only when a link's definition arrives)
    expect(lex.mock.calls.length).toBeLessThan(deltas * 2);
    expect(splitter.split(source).map((token) => token.raw).join('')).toBe(source.replace(/\r\n/g, '\n'));
  });
});
