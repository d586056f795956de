import { Lexer, type Token, type Tokens } from 'marked';

type Links = Record<string, { href: string | null; title: string | null }>;

/**
 * Turns a growing answer into top-level blocks while lexing only its tail. Blocks before the last
 * two non-blank ones are final: nothing appended later can change them (a blank line then `2.`
 * can still join a list, hence two), so they are kept, with their token objects, and never lexed
 * again. Each update costs the size of the tail, not of the answer.
 */
export class BlockSplitter {
  /** The source text the committed blocks were lexed from, exactly as it arrived. */
  private committedSource = '';
  private committed: Token[] = [];
  /** Link reference definitions from committed blocks, so `[text][ref]` in the tail resolves. */
  private links: Links = {};

  split(source: string): Token[] {
    if (!source.startsWith(this.committedSource)) this.reset();
    const tail = source.slice(this.committedSource.length);
    const normalized = tail.replace(/\r\n?/g, '\n');
    const lexer = new Lexer({ gfm: true });
    Object.assign(lexer.tokens.links, this.links);
    const tokens = lexer.lex(normalized);
    const cut = this.finalCount(tokens, normalized.length);
    if (cut > 0) this.commit(source, tail, tokens.slice(0, cut));
    return cut > 0 || this.committed.length > 0 ? [...this.committed, ...tokens.slice(cut)] : tokens;
  }

  private reset(): void {
    this.committedSource = '';
    this.committed = [];
    this.links = {};
  }

  /** How many leading tokens are final; none when the tokens do not cover the text exactly. */
  private finalCount(tokens: Token[], length: number): number {
    let covered = 0;
    for (const token of tokens) covered += token.raw.length;
    if (covered !== length) return 0;
    let seen = 0;
    for (let index = tokens.length - 1; index >= 0; index -= 1) {
      if (tokens[index]?.type === 'space') continue;
      seen += 1;
      if (seen === 2) return index;
    }
    return 0;
  }

  private commit(source: string, tail: string, final: Token[]): void {
    let normalizedLength = 0;
    for (const token of final) {
      normalizedLength += token.raw.length;
      if (token.type === 'def') this.addLink(token as Tokens.Def);
    }
    const consumed = tail.includes('\r') ? originalLength(tail, normalizedLength) : normalizedLength;
    this.committedSource = source.slice(0, this.committedSource.length + consumed);
    this.committed.push(...final);
  }

  private addLink(def: Tokens.Def): void {
    // The lexer keys definitions by their normalised tag, and the first definition wins.
    if (!(def.tag in this.links)) this.links[def.tag] = { href: def.href, title: def.title };
  }
}

/** Length in the original text of its first `normalizedLength` characters once CR LF became LF. */
const originalLength = (text: string, normalizedLength: number): number => {
  let original = 0;
  for (let normalized = 0; normalized < normalizedLength; normalized += 1) {
    original += text[original] === '\r' && text[original + 1] === '\n' ? 2 : 1;
  }
  return original;
};
