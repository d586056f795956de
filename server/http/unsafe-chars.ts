/**
 * Characters a name or a log line must not carry as they are: C0 and C1 controls (NUL, CR, LF,
 * ESC of ANSI sequences), line separators, the byte-order mark, and the bidi controls that make
 * `invoice\u202Efdp.exe` read as `invoiceexe.pdf`.
 */
// eslint-disable-next-line no-control-regex
export const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** The text with every unsafe character removed (for names shown to people). */
export const withoutUnsafeChars = (text: string): string => text.replace(UNSAFE_CHARS, '');
