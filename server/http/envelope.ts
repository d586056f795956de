import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { FAILURE, SUCCESS, type Envelope } from '../../src/contract/envelope';

export const okBody = <T>(data: T): Envelope<T> => ({ code: SUCCESS, msg: 'ok', data, success: true });
export const failBody = (msg: string, reason?: string): Envelope<null> => ({ code: FAILURE, msg, data: null, success: false, ...(reason ? { reason } : {}) });

/**
 * A JSON answer with its length: the compression in front (server/http/compression.ts) leaves
 * small answers as they are, which it can only tell from the length.
 */
export const json = (c: Context, body: unknown, status: ContentfulStatusCode = 200) => {
  const text = JSON.stringify(body);
  return c.body(text, status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
};

export const fail = (c: Context, status: ContentfulStatusCode, msg: string, reason?: string) => json(c, failBody(msg, reason), status);
