import { describe, expect, it } from 'vitest';
import { titleFromQuestion } from './chat-title';

const length = (text: string) => Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)).length;

describe('a chat titled from its first question', () => {
  it('keeps a short question whole, on one line', () => {
    expect(titleFromQuestion('  How do I\n  bake bread?  ')).toBe('How do I bake bread?');
  });

  it('cuts a long question after the last whole word and ends with an ellipsis', () => {
    const title = titleFromQuestion('Could you explain how sourdough starters work in cold kitchens?');
    expect(title).toBe('Could you explain how…');
    expect(length(title)).toBeLessThanOrEqual(31);
  });

  it('drops the punctuation left before the ellipsis', () => {
    expect(titleFromQuestion('Bonjour, pourriez-vous m’expliquer, simplement, la photosynthèse ?')).toBe('Bonjour, pourriez-vous…');
  });

  it('cuts Chinese between words, not inside one', () => {
    expect(titleFromQuestion('请帮我写一份关于人工智能在医疗领域应用的详细研究报告，包括优点和缺点')).toBe('请帮我写一份关于人工智能在医疗领域应用的详细研究报告，包括…');
    expect(titleFromQuestion('人工知能の医療分野への応用について詳しく説明してください。長所と短所も含めて')).toBe(
      '人工知能の医療分野への応用について詳しく説明してください…',
    );
  });

  it('cuts a single endless word between characters, never inside an emoji', () => {
    const title = titleFromQuestion(`${'👨‍👩‍👧'.repeat(40)}`);
    expect(title).toBe(`${'👨‍👩‍👧'.repeat(30)}…`);
  });
});
