/**
 * Markdown keeps HTML character references as written; a browser would decode them while parsing
 * HTML, but we never hand text to an HTML parser, so we decode them here. Unknown names stay as
 * written, which is what a browser shows too.
 */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', shy: '\u00ad',
  copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–', minus: '−',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·',
  times: '×', divide: '÷', deg: '°', plusmn: '±', micro: 'µ', sect: '§', para: '¶',
  euro: '€', pound: '£', yen: '¥', cent: '¢', check: '✓', cross: '✗',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', lArr: '⇐', rArr: '⇒', hArr: '⇔',
  le: '≤', ge: '≥', ne: '≠', asymp: '≈', infin: '∞', sum: '∑', prod: '∏', radic: '√',
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', pi: 'π', sigma: 'σ', lambda: 'λ', mu: 'μ',
  // Punctuation references, common in obfuscated URLs such as `javascript&colon;`.
  colon: ':', semi: ';', comma: ',', period: '.', sol: '/', bsol: '\\', lpar: '(', rpar: ')',
  num: '#', excl: '!', quest: '?', equals: '=', plus: '+', percnt: '%', ast: '*', lowbar: '_',
  Tab: '\t', NewLine: '\n', grave: '`', Hat: '^', verbar: '|', lsqb: '[', rsqb: ']',
  lcub: '{', rcub: '}', dollar: '$', commat: '@',
};

const REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

const fromCodePoint = (code: number): string =>
  code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);

export const decodeEntities = (text: string): string =>
  text.includes('&')
    ? text.replace(REFERENCE, (match, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
        if (hex) return fromCodePoint(parseInt(hex, 16));
        if (decimal) return fromCodePoint(parseInt(decimal, 10));
        return (name && NAMED[name]) ?? match;
      })
    : text;
