import type { MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Compresses what the server makes as it answers (JSON, a share page's HTML) with gzip when the
 * client accepts it, above COMPRESS_MIN_BYTES, adding `Vary: Accept-Encoding`. Left alone: the
 * built files, which carry their own encoding from the build (server/http/spa.ts); server-sent
 * events, so each event of an answer leaves the moment it is written; and anything already
 * encoded or marked `no-transform`.
 */
export const compressAnswers = (): MiddlewareHandler => compress({ threshold: COMPRESS_MIN_BYTES });
