import http from 'node:http';
import https from 'node:https';

/**
 * The model service's answer to a POST: its status, and its body as text, read as it arrives.
 * `text()` reads the rest of it at once (an error's explanation).
 */
export type ModelResponse = { status: number; body: AsyncIterable<string>; text(): Promise<string> };

/** With no byte from the model service for this long, the request is given up (a hung connection). */
export const MODEL_IDLE_TIMEOUT_MS = 300_000;

/**
 * POSTs `body` to the model service and answers once its response's head has arrived. Node's own
 * HTTP client, not `fetch`: every question makes one such call, and `fetch` with its web streams
 * cost the server about three times the CPU of this for the same streamed answer
 * (docs/decisions/016-first-event-under-load.md). Redirects are not followed: a model endpoint
 * answers where it is configured. Aborting `signal` closes the connection.
 */
export function postToModel(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  idleTimeoutMs = MODEL_IDLE_TIMEOUT_MS,
): Promise<ModelResponse> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let answered: http.IncomingMessage | undefined;
    const request = client.request(
      target,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal },
      (response) => {
        answered = response;
        response.setEncoding('utf8');
        resolve({
          status: response.statusCode ?? 0,
          body: response,
          async text() {
            let text = '';
            for await (const piece of response) text += piece as string;
            return text;
          },
        });
      },
    );
    // Said to whoever is reading: the answer's reader once it has begun, else the request's.
    request.setTimeout(idleTimeoutMs, () => (answered ?? request).destroy(new Error(`nothing arrived for ${idleTimeoutMs / 1000} s`)));
    request.on('error', reject);
    request.end(body);
  });
}
