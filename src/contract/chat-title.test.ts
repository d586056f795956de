import { describe, expect, it } from 'vitest';
import { titleFromQuestion } from './chat-title';

const length = (text: string) => Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)).length;

describe('a chat titled from its first question', () => {
  it('keeps a short question whole, on one line', () => {
    expect(titleFromQuestion('  How do I\n  bake bread?  ')).toBe('How do I bake bread?');
  });

  it('cuts a long question after the last whole word and ends with an ellipsis', () => {
    const title = titleFromQuestion('Could you explain how sourdough starters work in cold kitchens, and why some of them smell like vinegar?');
    expect(title).toBe('Could you explain how sourdough starters work in cold…');
    expect(length(title)).toBeLessThanOrEqual(61);
  });

  it('keeps a question of up to 60 characters whole (issue 41: "Explain vector databases in…")', () => {
    expect(titleFromQuestion('Explain vector databases in simple terms for a beginner')).toBe('Explain vector databases in simple terms for a beginner');
  });

  it('drops the punctuation left before the ellipsis', () => {
    expect(titleFromQuestion('Bonjour, pourriez-vous m’expliquer, simplement, et sans jargon, la photosynthèse ?')).toBe(
      'Bonjour, pourriez-vous m’expliquer, simplement, et sans…',
    );
  });

  it('cuts Chinese between words, not inside one', () => {
    expect(titleFromQuestion('请帮我写一份关于人工智能在医疗领域应用的详细研究报告，包括优点和缺点，以及未来十年的发展趋势和主要挑战，还有相关的伦理问题和监管建议')).toBe(
      '请帮我写一份关于人工智能在医疗领域应用的详细研究报告，包括优点和缺点，以及未来十年的发展趋势和主要挑战，还有相关的伦理…',
    );
    expect(titleFromQuestion('人工知能の医療分野への応用について詳しく説明してください。長所と短所も含めて、今後十年の展望と課題、倫理的な問題についても教えてください')).toBe(
      '人工知能の医療分野への応用について詳しく説明してください。長所と短所も含めて、今後十年の展望と課題、倫理的な問題について…',
    );
  });

  it('cuts a single endless word between characters, never inside an emoji', () => {
    const title = titleFromQuestion(`${'👨‍👩‍👧'.repeat(80)}`);
    expect(title).toBe(`${'👨‍👩‍👧'.repeat(60)}…`);
  });
});
