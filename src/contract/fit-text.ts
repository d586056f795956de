/**
 * Shortens a text to a limit the way a person would: at the end of a sentence when that keeps
 * most of it, else after a whole word with "…", else between two characters as a reader sees
 * them (an emoji or an accented letter is never split). Chinese and Japanese have no spaces, so
 * words come from `Intl.Segmenter`, which knows their dictionaries.
 */

const ELLIPSIS = '…';

/** Punctuation that would dangle before the ellipsis ("cheap, …", "便宜，…"). */
const DANGLING = /[\s,;:.\-–—、，；：。!?！？]+$/u;

/** A sentence cut keeps at least this share of the limit; shorter, a word cut reads better. */
const SENTENCE_SHARE = 0.6;

export type CutAt = 'sentence' | 'word';

const segments = (text: string, granularity: 'grapheme' | 'word' | 'sentence', locale?: string) =>
  [...new Intl.Segmenter(locale, { granularity }).segment(text)].map((part) => part.segment);

/** The longest run of whole segments, from the start, whose length `fits`. */
const longestPrefix = (parts: string[], fits: (text: string) => boolean): string => {
  let kept = '';
  for (const part of parts) {
    if (!fits(kept + part)) break;
    kept += part;
  }
  return kept;
};

/**
 * `text` if it fits in `max` as `count` counts; else its longest beginning that fits, cut at a
 * sentence end (`cutAt: 'sentence'`, for bodies) or a word (titles), never mid-character.
 */
export function fitText(text: string, max: number, count: (text: string) => number, options: { cutAt: CutAt; locale?: string }): string {
  if (count(text) <= max) return text;
  if (max <= 0) return '';
  const fits = (candidate: string) => count(candidate) <= max;
  if (options.cutAt === 'sentence') {
    const sentences = longestPrefix(segments(text, 'sentence', options.locale), fits).trimEnd();
    if (sentences !== '' && count(sentences) >= max * SENTENCE_SHARE) return sentences;
  }
  const withEllipsis = (candidate: string) => fits(candidate.trimEnd().replace(DANGLING, '') + ELLIPSIS);
  const words = longestPrefix(segments(text, 'word', options.locale), withEllipsis).trimEnd().replace(DANGLING, '');
  if (words !== '') return words + ELLIPSIS;
  const graphemes = longestPrefix(segments(text, 'grapheme'), (candidate) => fits(candidate + ELLIPSIS));
  return graphemes === '' ? longestPrefix(segments(text, 'grapheme'), fits) : graphemes + ELLIPSIS;
}
