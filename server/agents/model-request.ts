import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * The model service's answer to a POST: its status, and its body as text, read as it arrives.
 * `text()` reads the rest of it at once (an error's explanation). Once the caller has what it
 * wants, `release()` lets whatever is left arrive unread so the connection serves the next call,
 * and `close()` drops the connection (a stream left in the middle).
 */
export type ModelResponse = {
  status: number;
  body: AsyncIterator<string>;
  text(): Promise<string>;
  release(): void;
  close(): void;
};

/**
 * How long the model service may keep a reader waiting: for the first byte of its answer after the
 * question is sent (`firstByteMs`), and between two pieces of it (`silenceMs`, also the limit on a
 * connection that sends nothing at all). Past either the answer ends as failed and its streaming
 * slot is free again. MODEL_FIRST_BYTE_TIMEOUT_SECONDS and MODEL_SILENCE_TIMEOUT_SECONDS.
 */
export type ModelTimeouts = { firstByteMs: number; silenceMs: number };
export const DEFAULT_MODEL_TIMEOUTS: ModelTimeouts = { firstByteMs: 60_000, silenceMs: 90_000 };

/**
 * POSTs `body` to the model service and answers once its response's head has arrived. Node's own
 * HTTP client, not `fetch`: every question makes one such call, and `fetch` with its web streams
 * cost the server about three times the CPU of this for the same streamed answer
 * (docs/decisions/016-first-event-under-load.md). Redirects are not followed: a model endpoint
 * answers where it is configured. Aborting `signal` while the answer is read closes its
 * connection; once it has been read, released or closed, an abort touches nothing: its connection
 * may be serving another call by then. `lookup`: how the service's name is resolved (a provider
 * added in the console resolves through server/net/outbound.ts, which refuses what it must not reach).
 */
export function postToModel(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  timeouts: ModelTimeouts = DEFAULT_MODEL_TIMEOUTS,
  lookup?: LookupFunction,
): Promise<ModelResponse> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise((resolve, reject) => {
    let answered: http.IncomingMessage | undefined;
    const request = client.request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, ...(lookup ? { lookup } : {}) },
      (response) => {
        answered = response;
        response.once('end', done);
        response.once('close', done);
        response.setEncoding('utf8');
        // Leaving the iterator does not close the connection: `release` or `close` says what becomes of it.
        const pieces = response.iterator({ destroyOnReturn: false }) as AsyncIterator<string>;
        // The first piece ends the wait for the answer to begin; leaving lets go of the response.
        const body: AsyncIterator<string> = {
          next: async () => {
            const next = await pieces.next();
            clearTimeout(firstByte);
            return next;
          },
          return: (value?: unknown) => pieces.return!(value),
        };
        resolve({
          status: response.statusCode ?? 0,
          body,
          async text() {
            let text = '';
            for (let next = await body.next(); !next.done; next = await body.next()) text += next.value;
            return text;
          },
          release: () => {
            done();
            response.resume();
          },
          close: () => {
            done();
            response.destroy();
          },
        });
      },
    );
    // Not the request's own `signal` option: that one stays on the connection after the answer,
    // and an abort then would break whatever call the kept connection serves next.
    const onAbort = () => (answered ?? request).destroy(new Error('aborted'));
    function done() {
      clearTimeout(firstByte);
      signal.removeEventListener('abort', onAbort);
    }
    signal.addEventListener('abort', onAbort, { once: true });
    request.once('close', done);
    // Said to whoever is reading: the answer's reader once it has begun, else the request's.
    const giveUp = (why: string) => (answered ?? request).destroy(new Error(why));
    const firstByte = setTimeout(() => giveUp(`no answer began within ${timeouts.firstByteMs / 1000} s`), timeouts.firstByteMs);
    request.once('close', () => clearTimeout(firstByte));
    request.setTimeout(timeouts.silenceMs, () => giveUp(`nothing arrived for ${timeouts.silenceMs / 1000} s`));
    request.on('error', reject);
    request.end(body);
  });
}
