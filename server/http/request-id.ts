import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What a proxy's or a client's id may be to be kept: a short token of plain characters. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

const current = new AsyncLocalStorage<{ requestId: string; receivedMs: number }>();

/** The id of the request whose work is running now (an answer it started included), if any. */
export const currentRequestId = (): string | undefined => current.getStore()?.requestId;

/** When the request whose work is running now arrived (`performance.now()`), if any. */
export const requestReceivedMs = (): number | undefined => current.getStore()?.receivedMs;

/**
 * Gives every request an id: the one a proxy sent in X-Request-Id when it is a safe short token,
 * else a new one. It is sent back in the response's X-Request-Id and written on every log line of
 * the work the request started, so a person quoting it finds the lines.
 */
export const requestId = (): MiddlewareHandler => async (c, next) => {
  const receivedMs = performance.now();
  const given = c.req.header(REQUEST_ID_HEADER);
  const id = given !== undefined && SAFE_ID.test(given) ? given : randomUUID();
  await current.run({ requestId: id, receivedMs }, next);
  c.res.headers.set(REQUEST_ID_HEADER, id);
};
