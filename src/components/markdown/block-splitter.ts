import type { Token, Tokens } from 'marked';
import { lexMarkdown } from './budgeted-lexer';

type Link = { href: string | null; title: string | null };
type Links = Record<string, Link>;

const CANNOT_HOLD_REFERENCES = new Set(['space', 'def', 'code', 'hr', 'html', 'math']);

/**
 * Turns a growing answer into top-level blocks while lexing only its tail. Blocks before the last
 * two non-blank ones are final: nothing appended later can change them (a blank line then `2.`
 * can still join a list, hence two), so they are kept, with their token objects, and never lexed
 * again. Each update costs the size of the tail, not of the answer.
 *
 * The one exception is a reference link written before its definition (`[text][ref]`, with
 * `[ref]: url` further down): when a definition appears or changes, the few final blocks that
 * mention that label are lexed again, alone, so the link resolves as it would from history.
 */
export class BlockSplitter {
  /** The source text the committed blocks were lexed from, exactly as it arrived. */
  private committedSource = '';
  private committed: Token[] = [];
  /** Definitions from committed blocks; the lexer gives them to references in the tail. */
  private links: Links = {};
  /** Definitions seen in the tail on the last update, which may still be growing. */
  private tailLinks: Links = {};
  /** Indexes of committed blocks that may hold a reference link. */
  private referenceHolders: number[] = [];

  split(source: string): Token[] {
    if (!source.startsWith(this.committedSource)) this.reset();
    const tail = source.slice(this.committedSource.length);
    const normalized = tail.replace(/\r\n?/g, '\n');
    const tokens = this.lex(normalized, this.links);
    const cut = this.finalCount(tokens, normalized.length);
    const committedTags = cut > 0 ? this.commit(source, tail, tokens.slice(0, cut)) : [];
    this.resolveForwardReferences(tokens.slice(cut), committedTags);
    return [...this.committed, ...tokens.slice(cut)];
  }

  private reset(): void {
    this.committedSource = '';
    this.committed = [];
    this.links = {};
    this.tailLinks = {};
    this.referenceHolders = [];
  }

  private lex(text: string, links: Links): Token[] {
    return lexMarkdown(text, links);
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

  /** Keeps the final blocks; returns the labels of the definitions among them that are new. */
  private commit(source: string, tail: string, final: Token[]): string[] {
    const added: string[] = [];
    let normalizedLength = 0;
    for (const token of final) {
      normalizedLength += token.raw.length;
      // The lexer keys definitions by their normalised tag, and the first definition wins.
      if (token.type === 'def') {
        const def = token as Tokens.Def;
        if (!this.links[def.tag]) added.push(def.tag);
        this.links[def.tag] ??= { href: def.href, title: def.title };
      }
      if (!CANNOT_HOLD_REFERENCES.has(token.type) && token.raw.includes('[')) this.referenceHolders.push(this.committed.length);
      this.committed.push(token);
    }
    const consumed = tail.includes('\r') ? originalLength(tail, normalizedLength) : normalizedLength;
    this.committedSource = source.slice(0, this.committedSource.length + consumed);
    return added;
  }

  /** `committedTags`: definitions committed by this update, which earlier blocks may not have seen in the tail. */
  private resolveForwardReferences(tailTokens: Token[], committedTags: string[]): void {
    const tailLinks: Links = {};
    for (const token of tailTokens) {
      if (token.type === 'def') tailLinks[(token as Tokens.Def).tag] ??= { href: token.href, title: token.title };
    }
    const changed = [...new Set([...changedTags(this.tailLinks, tailLinks), ...committedTags])];
    this.tailLinks = tailLinks;
    if (changed.length === 0 || this.referenceHolders.length === 0) return;
    const links = { ...tailLinks, ...this.links };
    for (const index of this.referenceHolders) {
      const block = this.committed[index];
      if (!block || !mentionsAny(block.raw, changed)) continue;
      const relexed = this.lex(block.raw, links);
      if (relexed.length === 1 && relexed[0]?.raw === block.raw) this.committed[index] = relexed[0];
    }
  }
}

const sameLink = (a: Link | undefined, b: Link | undefined): boolean => a?.href === b?.href && a?.title === b?.title;

const changedTags = (before: Links, after: Links): string[] =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((tag) => !sameLink(before[tag], after[tag]));

const mentionsAny = (raw: string, tags: string[]): boolean => {
  const folded = raw.toLowerCase().replace(/\s+/g, ' ');
  return tags.some((tag) => folded.includes(`[${tag}]`));
};

/** Length in the original text of its first `normalizedLength` characters once CR LF became LF. */
const originalLength = (text: string, normalizedLength: number): number => {
  let original = 0;
  for (let normalized = 0; normalized < normalizedLength; normalized += 1) {
    original += text[original] === '\r' && text[original + 1] === '\n' ? 2 : 1;
  }
  return original;
};
