import { Lexer, type Token } from 'marked';

/**
 * The combining marks a search ignores: the accents of Latin, Greek and Cyrillic letters (and the
 * blocks that extend them). Marks that spell sounds in other scripts (Japanese voicing, Indic
 * vowel signs, Hebrew and Arabic points) stay, or "が" would find "か".
 * The same ranges are written in the migration that fills the stored columns for older rows
 * (server/db/migrations/0015_search_and_titles.sql).
 */
const ACCENTS = /[\u0300-\u036f]|[\u1ab0-\u1aff]|[\u1dc0-\u1dff]|[\u20d0-\u20ff]|[\ufe20-\ufe2f]/g;

/**
 * Text as a search compares it: lower case, without accents, full-width and half-width forms
 * made one ("ＡＢＣ" reads "abc", "ｶﾞ" reads "ガ"). Stored beside titles and messages, and applied
 * to the words searched for, so matching stays a plain `ilike` on both databases.
 */
export const searchable = (text: string): string =>
  text.toLowerCase().normalize('NFKD').replace(ACCENTS, '').normalize('NFKC').toLowerCase();

type Node = Token & { tokens?: Token[]; items?: Token[]; text?: string };

const BLOCKS = new Set(['paragraph', 'heading', 'code', 'blockquote', 'list', 'list_item', 'table', 'hr', 'space', 'html', 'def']);

/** The words of markdown tokens, without their syntax: code keeps its text, links and images their words; blocks read as words apart. */
function wordsOf(tokens: Token[], out: string[]): void {
  for (const token of tokens as Node[]) {
    if (token.type === 'code' || token.type === 'codespan' || token.type === 'escape') out.push(token.text ?? '');
    else if (token.type === 'list') wordsOf(token.items ?? [], out);
    else if (token.type === 'table') {
      const table = token as unknown as { header: { tokens: Token[] }[]; rows: { tokens: Token[] }[][] };
      for (const cell of [table.header, ...table.rows].flat()) {
        wordsOf(cell.tokens, out);
        out.push(' ');
      }
    } else if (token.tokens) wordsOf(token.tokens, out);
    else if (token.type === 'html' || token.type === 'tag' || token.type === 'br' || token.type === 'hr' || token.type === 'def') out.push(' ');
    else out.push(token.text ?? token.raw);
    if (BLOCKS.has(token.type)) out.push(' ');
  }
}

/** Markdown as a person reads it: the words, on one line, without `code` marks, **stars** or [links](…). */
export const plainText = (markdown: string): string => {
  const out: string[] = [];
  try {
    wordsOf(new Lexer({ gfm: true }).lex(markdown), out);
  } catch {
    return markdown.replace(/\s+/g, ' ').trim();
  }
  return decodeEntities(out.join('')).replace(/\s+/g, ' ').trim();
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!);

/**
 * A message as a search compares it: its words as a person reads them (`plainText`), made
 * `searchable`, so "then read the cafe" finds `**then** read [the café](…)`.
 */
export const searchableContent = (markdown: string): string => searchable(plainText(markdown));

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Where the words occur in a text as a search compares them: the start and length in the text
 * itself (UTF-16 units, as JavaScript counts), or null. Each grapheme is made searchable on its
 * own, so a place found maps back to whole characters of the text.
 */
export function findSearchable(text: string, keyword: string): { start: number; length: number } | null {
  const wanted = searchable(keyword);
  if (!wanted) return null;
  let folded = '';
  const startsAt: number[] = [];
  const graphemeAt: number[] = [];
  for (const { segment, index } of graphemes.segment(text)) {
    const piece = searchable(segment);
    for (let i = 0; i < piece.length; i += 1) graphemeAt.push(startsAt.length);
    startsAt.push(index);
    folded += piece;
  }
  startsAt.push(text.length);
  const at = folded.indexOf(wanted);
  if (at < 0) return null;
  const first = graphemeAt[at]!;
  const last = graphemeAt[at + wanted.length - 1]!;
  return { start: startsAt[first]!, length: startsAt[last + 1]! - startsAt[first]! };
}

const SNIPPET_BEFORE = 30;
const SNIPPET_AFTER = 70;

export type Snippet = { match: string; matchAt?: { start: number; length: number } };

/**
 * The words in their sentence: a short piece of the message, as plain text, around the first
 * place they occur, with where they are in it. Words found only in the markdown's syntax (a
 * link's address) give the message's beginning, unmarked.
 */
export const snippetAround = (content: string, keyword: string): Snippet => {
  const flat = plainText(content);
  const found = findSearchable(flat, keyword);
  if (!found) return { match: flat.slice(0, SNIPPET_BEFORE + SNIPPET_AFTER) };
  const start = Math.max(0, found.start - SNIPPET_BEFORE);
  const end = Math.min(flat.length, found.start + found.length + SNIPPET_AFTER);
  const before = start > 0 ? '…' : '';
  return {
    match: `${before}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`,
    matchAt: { start: before.length + found.start - start, length: found.length },
  };
};
