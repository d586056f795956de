import { redactSecrets } from './redact';
import { UNSAFE_CHARS } from './unsafe-chars';

/**
 * Control characters (CR, LF, ESC of ANSI sequences, NUL...), line separators and bidi controls
 * written as visible escapes: a value can then neither start a forged log line nor recolour or
 * reorder the terminal it is read in. A multi-line stack trace becomes one line too.
 */
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export const escapeForLog = (value: string): string =>
  value.replace(UNSAFE_CHARS, (ch) => NAMED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A log sink that writes every line with its secrets hidden and escaped, whoever calls it. */
export const safeLog =
  (sink: (line: string) => void) =>
  (line: string): void =>
    sink(escapeForLog(redactSecrets(line)));

/**
 * An error for the log: its stack, with the cause's message. A failed database query's message
 * lists the query's parameters (a login name, a chat question); they are left out unless
 * LOG_LEVEL=debug.
 */
export function describeError(error: unknown, level: 'info' | 'debug' = 'info'): string {
  if (!(error instanceof Error)) return String(error);
  let text = error.stack ?? `${error.name}: ${error.message}`;
  const params = (error as { params?: unknown }).params;
  if (level !== 'debug' && Array.isArray(params)) {
    text = text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, `\nparams: ${params.length} hidden (LOG_LEVEL=debug shows them)`);
  }
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause ? `${text}\ncaused by: ${cause}` : text;
}
