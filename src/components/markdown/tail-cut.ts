/** Characters of an answer's end shown first when it arrives faster than it can be painted: about a screenful. */
export const TAIL_CHARS = 3_000;
/** A tail longer than this is not shown ahead (a single block that long is painted in order). */
export const MAX_TAIL_CHARS = 24_000;

const FENCE = /^ *(`{3,}|~{3,})(.*)$/;
const MATH_FENCE = /^ *(\$\$|\\\[|\\\])[ \t]*$/;

/**
 * Finds where the end of a growing answer can be lexed on its own: the start of a line that
 * follows a blank line, or of a code fence's opening line, never inside a code fence or a display
 * formula. Lines are scanned once, as the text grows; text that was replaced is scanned again.
 *
 * Any fence is honoured whatever its indentation (a fence inside a list item is indented), so a
 * cut may be missed, never put inside a fence. The cut only decides what is shown ahead of the
 * rest: the blocks kept in the end are lexed with the whole text, in order.
 */
export class TailCuts {
  private scanned = '';
  /** The fence open at the end of the scanned lines: its marker and length, or the formula's. */
  private open: { marker: string; length: number } | null = null;
  private previousBlank = false;
  /** Positions where a block starts outside any fence, in order. */
  private cuts: number[] = [];

  /** The cut to show the end of `text` from, after `from`; null when there is none worth taking. */
  cutNear(text: string, from: number): number | null {
    this.scan(text);
    const end = text.length;
    let best: number | null = null;
    // The last cut leaving at least a screenful, if the tail it leaves is not too long…
    for (let index = this.cuts.length - 1; index >= 0; index -= 1) {
      const cut = this.cuts[index] ?? 0;
      if (cut <= from || end - cut > MAX_TAIL_CHARS) break;
      if (end - cut >= TAIL_CHARS) return cut;
      // …else the earliest one after it: a shorter tail.
      best = cut;
    }
    return best;
  }

  private scan(text: string): void {
    if (!text.startsWith(this.scanned)) {
      this.scanned = '';
      this.open = null;
      this.previousBlank = false;
      this.cuts = [];
    }
    // Whole lines only: the last, unfinished one is scanned once it ends.
    const lastNewline = text.lastIndexOf('\n');
    let at = this.scanned.length;
    while (at <= lastNewline) {
      const next = text.indexOf('\n', at);
      this.line(text.slice(at, next).replace(/\r$/, ''), at);
      at = next + 1;
    }
    if (at > this.scanned.length) this.scanned = text.slice(0, at);
  }

  private line(line: string, start: number): void {
    const blank = line.trim() === '';
    if (this.open) {
      const fence = FENCE.exec(line);
      const math = MATH_FENCE.exec(line);
      const marker = this.open.marker;
      if (marker === '$$' || marker === '\\[') {
        if (math && (math[1] === '$$' || math[1] === '\\]')) this.open = null;
      } else if (fence?.[1]?.[0] === marker && fence[1].length >= this.open.length && (fence[2] ?? '').trim() === '') {
        this.open = null;
      }
      this.previousBlank = false;
      return;
    }
    const fence = FENCE.exec(line);
    // A backtick fence's info string has no backtick; otherwise it is inline code.
    if (fence?.[1] && !(fence[1][0] === '`' && (fence[2] ?? '').includes('`'))) {
      if (!/^[ \t]/.test(line)) this.cuts.push(start);
      this.open = { marker: fence[1][0] ?? '`', length: fence[1].length };
    } else {
      const math = MATH_FENCE.exec(line);
      // An indented line after a blank one may continue a list item: not a cut.
      if (!blank && this.previousBlank && !/^[ \t]/.test(line)) this.cuts.push(start);
      if (math?.[1] === '$$' || math?.[1] === '\\[') this.open = { marker: math[1], length: 2 };
    }
    this.previousBlank = blank;
  }
}
