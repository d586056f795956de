/** Deepest nesting of arrays and objects a request body may have; the contract's deepest is a few levels. */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether the JSON text nests deeper than `limit`, found in one pass over its characters
 * (brackets inside strings do not count). Run before JSON.parse: a body of 800 kB of `[` would
 * otherwise be parsed and then overflow the stack of every recursive walk that follows it.
 * Malformed text is not judged here; JSON.parse refuses it afterwards.
 */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const ch = text.charCodeAt(index);
    if (inString) {
      if (ch === BACKSLASH) index++;
      else if (ch === QUOTE) inString = false;
    } else if (ch === QUOTE) {
      inString = true;
    } else if (ch === OPEN_OBJECT || ch === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (ch === CLOSE_OBJECT || ch === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}
