import { Marked, type MarkedExtension, type Tokens } from 'marked';

/** A formula in the answer: `$…$` or `\(…\)` inline, `$$…$$` or `\[…\]` on its own (display). */
export type MathToken = Tokens.Generic & { type: 'math'; text: string; display: boolean };

/** A display formula standing as a block of its own: `$$…$$` or `\[…\]`, closed. */
const BLOCK_MATH = /^ {0,3}(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[ \t]*(?:\n+|$)/;

/**
 * Inline formulas, closed on the same paragraph. `$…$` follows Pandoc's rule so prices are left
 * alone ("$5 and $10"): no space just inside either dollar, no digit right after the closing one,
 * and no backtick inside (the dollar of a price before a code span).
 */
const INLINE_MATH = [
  /^\$\$(?!\s)((?:\\[\s\S]|[^\\$])+?)\$\$/,
  /^\\\[((?:\\[\s\S]|[^\\])+?)\\\]/,
  /^\\\(((?:\\[\s\S]|[^\\])+?)\\\)/,
  /^\$(?![\s$])((?:\\[\s\S]|[^\\$`\n]|\n(?!\n))+?)(?<![\s\\])\$(?!\d)/,
];

const blockStart = (src: string): number | undefined => {
  const match = /(?:^|\n) {0,3}(?:\$\$|\\\[)/.exec(src);
  if (!match) return undefined;
  return match.index + (match[0].startsWith('\n') ? 1 : 0);
};

const inlineStart = (src: string): number | undefined => {
  const index = src.search(/\$|\\[[(]/);
  return index < 0 ? undefined : index;
};

const mathExtension: MarkedExtension = {
  extensions: [
    {
      name: 'blockMath',
      level: 'block',
      start: blockStart,
      tokenizer(src): MathToken | undefined {
        const match = BLOCK_MATH.exec(src);
        if (!match) return undefined;
        return { type: 'math', raw: match[0], text: (match[1] ?? match[2] ?? '').trim(), display: true };
      },
    },
    {
      name: 'inlineMath',
      level: 'inline',
      start: inlineStart,
      tokenizer(src): MathToken | undefined {
        for (const [index, pattern] of INLINE_MATH.entries()) {
          const match = pattern.exec(src);
          if (match) return { type: 'math', raw: match[0], text: (match[1] ?? '').trim(), display: index < 2 };
        }
        return undefined;
      },
    },
  ],
};

/** The lexer's options: GitHub-flavoured markdown with formulas. */
export const LEXER_OPTIONS = new Marked({ gfm: true }, mathExtension).defaults;
