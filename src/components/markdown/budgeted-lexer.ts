import { Lexer, type Token, type TokensList } from 'marked';
import { LEXER_OPTIONS } from './math-syntax';
import { MAX_BLOCK_NESTING, tooManyDelimiters } from './render-budgets';

/** Text past a rendering budget: shown as written, with a note, never formatted. */
export type OverBudgetToken = { type: 'overBudget'; raw: string; text: string };

/** Reference definitions by label, as the block splitter keeps them. */
type Links = Record<string, { href: string | null; title: string | null }>;

/**
 * marked's lexer with its two superlinear paths cut off (see render-budgets.ts): a run of inline
 * text with too many emphasis delimiters, and blocks nested too deep, become plain text. Both are
 * counted in one pass before marked would start on them, so lexing any answer costs time in
 * proportion to its length.
 */
class BudgetedLexer extends Lexer {
  private nesting = 0;

  override blockTokens(src: string, tokens?: Token[], lastParagraphClipped?: boolean): Token[];
  override blockTokens(src: string, tokens?: TokensList, lastParagraphClipped?: boolean): TokensList;
  override blockTokens(src: string, tokens: Token[] = [], lastParagraphClipped?: boolean): Token[] {
    if (this.nesting >= MAX_BLOCK_NESTING) {
      tokens.push(overBudget(src) as unknown as Token);
      return tokens;
    }
    this.nesting += 1;
    try {
      return super.blockTokens(src, tokens, lastParagraphClipped);
    } finally {
      this.nesting -= 1;
    }
  }

  override inlineTokens(src: string, tokens: Token[] = []): Token[] {
    if (!tooManyDelimiters(src)) return super.inlineTokens(src, tokens);
    tokens.push(overBudget(src) as unknown as Token);
    return tokens;
  }
}

const overBudget = (text: string): OverBudgetToken => ({ type: 'overBudget', raw: text, text });

/** An answer's (or a part's) blocks, with the reference definitions given in `links`. */
export const lexMarkdown = (text: string, links?: Links): TokensList => {
  const lexer = new BudgetedLexer(LEXER_OPTIONS);
  if (links) Object.assign(lexer.tokens.links, links);
  return lexer.lex(text);
};
