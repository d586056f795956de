import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export type CappedGet = { ok: true; status: number; body: Buffer } | { ok: false; reason: string };

/**
 * One GET to an address someone else chose (a provider's picture, a model provider's list): a
 * fresh connection through `lookup` (which decides which addresses may be reached), no redirect
 * followed, at most `maxBytes` of answer within `timeoutMs`. Never throws; a refusal says why,
 * never with the headers sent (a key) nor the URL's query (the console reads these sentences:
 * `src/machines/admin-models-refusals.ts`).
 */
export function cappedGet(
  url: URL,
  options: { headers: Record<string, string>; lookup: LookupFunction; maxBytes: number; timeoutMs: number; timeoutReason: string },
): Promise<CappedGet> {
  return new Promise((settle) => {
    let done = false;
    const finish = (result: CappedGet) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.destroy();
      settle(result);
    };
    const refuse = (reason: string) => finish({ ok: false, reason });
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      headers: options.headers,
      lookup: options.lookup,
      // a fresh connection each time: a pooled one could have been opened to another address
      agent: false,
    });
    const timer = setTimeout(() => refuse(options.timeoutReason), options.timeoutMs);
    // A lookup that refused an address says so in its error's message (EADDRNOTALLOWED).
    request.on('error', (error: NodeJS.ErrnoException) => refuse(error.code === 'EADDRNOTALLOWED' ? error.message : `could not connect (${error.code ?? error.name})`));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) return refuse(`it answered a redirect (${status}), which is not followed`);
      if (Number(response.headers['content-length'] ?? 0) > options.maxBytes) return refuse(`its answer is larger than ${options.maxBytes} bytes`);
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > options.maxBytes) return refuse(`its answer is larger than ${options.maxBytes} bytes`);
        chunks.push(chunk);
      });
      response.on('error', () => refuse('the answer broke off'));
      response.on('end', () => finish({ ok: true, status, body: Buffer.concat(chunks) }));
    });
    request.end();
  });
}
