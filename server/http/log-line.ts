import { hostname } from 'node:os';
import { pino } from 'pino';
import type { LogFormat } from '../config';
import { prettyLine } from './pretty-log';
import { redactSecrets } from './redact';
import { currentRequestId } from './request-id';
import { UNSAFE_CHARS } from './unsafe-chars';

/**
 * Control characters (CR, LF, ESC of ANSI sequences, NUL...), line separators and bidi controls
 * written as visible escapes: a value can then neither start a forged log line nor recolour or
 * reorder the terminal it is read in. A multi-line stack trace becomes one line too.
 */
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export const escapeForLog = (value: string): string =>
  value.replace(UNSAFE_CHARS, (ch) => NAMED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What a line says besides its message, for a machine to read: `{ outcome: 'complete', chars: 120 }`. */
export type LogFields = { level?: LogLevel } & Record<string, string | number | boolean | null | undefined>;

/** Writes one log line: a message for people, fields for machines; `info` unless `fields.level` says. */
export type Log = (message: string, fields?: LogFields) => void;

export type LogOptions = {
  /** JSON lines (the default), or lines for a person at a terminal. */
  format?: LogFormat;
  /** Lines below it are not written (LOG_LEVEL). */
  level?: 'info' | 'debug';
  /** This server instance, on every line. */
  instance?: string;
};

const clean = (value: LogFields[string]) => (typeof value === 'string' ? escapeForLog(redactSecrets(value)) : value);

/**
 * The one log sink: every line written through it, whoever calls it, has its secrets hidden and
 * its control characters escaped, then is written by pino as one JSON line with the time, level,
 * instance and the id of the request whose work wrote it (or, with `format: 'pretty'`, as a
 * line for a person at a terminal) and handed to `sink`.
 */
export function safeLog(sink: (line: string) => void, options: LogOptions = {}): Log {
  const pretty = options.format === 'pretty';
  const logger = pino(
    {
      level: options.level ?? 'info',
      base: { instance: options.instance, host: hostname(), pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    { write: (line: string) => sink(pretty ? prettyLine(line) : line.replace(/\n$/, '')) },
  );
  return (message, fields = {}) => {
    const { level = 'info', ...rest } = fields;
    const cleaned = Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, clean(value)]));
    logger[level](cleaned, escapeForLog(redactSecrets(message)));
  };
}

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
