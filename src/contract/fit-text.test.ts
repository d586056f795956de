import { describe, expect, it } from 'vitest';
import { fitText } from './fit-text';

const codePoints = (text: string) => [...text].length;
const graphemes = (text: string) => [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;

describe('fitting a text to a limit', () => {
  it('leaves a text that fits alone', () => {
    expect(fitText('Short enough', 12, codePoints, { cutAt: 'word' })).toBe('Short enough');
  });

  it('cuts a title after a whole word, without dangling punctuation, and ends with …', () => {
    expect(fitText('Weekend camping, the cheap way for beginners', 20, codePoints, { cutAt: 'word' })).toBe('Weekend camping…');
    expect(fitText('Camping am Wochenende: günstig und einfach', 25, codePoints, { cutAt: 'word', locale: 'de-DE' })).toBe('Camping am Wochenende…');
  });

  it('cuts Chinese and Japanese between words, which have no spaces', () => {
    const zh = fitText('周末露营新手清单帐篷睡袋防潮垫就够了省钱攻略', 10, codePoints, { cutAt: 'word', locale: 'zh-CN' });
    expect(codePoints(zh)).toBeLessThanOrEqual(10);
    expect(zh.endsWith('…')).toBe(true);
    expect('周末露营新手清单帐篷睡袋防潮垫就够了省钱攻略'.startsWith(zh.slice(0, -1))).toBe(true);
    // "清单" is one word: the cut does not fall between its two characters.
    expect(zh.slice(0, -1)).not.toMatch(/清$/);
  });

  it('cuts a body after its last whole sentence when that keeps most of it', () => {
    const body = 'First sentence is here. Second one follows it. Third is the one that overflows the limit.';
    expect(fitText(body, 50, codePoints, { cutAt: 'sentence' })).toBe('First sentence is here. Second one follows it.');
  });

  it('falls back to a word when the sentences that fit are too few', () => {
    const body = 'Tiny. Then a very long sentence that goes on and on and never seems to stop at all.';
    expect(fitText(body, 40, codePoints, { cutAt: 'sentence' })).toBe('Tiny. Then a very long sentence that…');
  });

  it('never splits a character a person sees as one, and never exceeds the limit', () => {
    const family = '👨‍👩‍👧';
    const cut = fitText(family.repeat(10), 8, codePoints, { cutAt: 'word' });
    expect(codePoints(cut)).toBeLessThanOrEqual(8);
    expect(cut).toBe(`${family}…`);
    expect(fitText('🇫🇷🇩🇪🇯🇵🇨🇳', 3, graphemes, { cutAt: 'word' })).toBe('🇫🇷🇩🇪…');
    expect(fitText('Donaudampfschifffahrtsgesellschaft', 10, codePoints, { cutAt: 'word' })).toBe('Donaudamp…');
  });
});
