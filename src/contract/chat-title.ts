/** How much of the first question a chat's title keeps, in characters as a person counts them, before its "…". */
export const TITLE_FROM_QUESTION_LENGTH = 60;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const words = new Intl.Segmenter(undefined, { granularity: 'word' });

/** A cut that would keep less than this share of the limit is made inside the word instead. */
const SHORTEST_WORD_CUT = 0.5;

/**
 * The title of a chat, from its first question: on one line, and when too long, cut where a
 * person would cut it, after the last whole word that fits, ending with "…". Words are found by
 * `Intl.Segmenter`, so Chinese and Japanese are cut between words too. A single very long word
 * is cut inside, between characters. The SPA and the server both title chats with this.
 */
export const titleFromQuestion = (text: string, max = TITLE_FROM_QUESTION_LENGTH): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(graphemes.segment(line), (part) => part.segment);
  if (chars.length <= max) return line;
  let kept = '';
  let keptChars = 0;
  for (const part of words.segment(line)) {
    const size = Array.from(graphemes.segment(part.segment)).length;
    if (keptChars + size > max) break;
    kept += part.segment;
    keptChars += size;
  }
  kept = kept.replace(/[\s\p{P}]+$/u, '');
  if (Array.from(graphemes.segment(kept)).length < max * SHORTEST_WORD_CUT) kept = chars.slice(0, max).join('').trimEnd();
  return `${kept}…`;
};
