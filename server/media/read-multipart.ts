import { ApiError, badRequest } from '../http/errors';

export type MultipartLimits = {
  /** Fields and files together. */
  maxParts: number;
  /** An upload that sends nothing for this long is cut. */
  idleMs: number;
  /** The whole body, framing included. */
  maxBytes: number;
  tooLargeMessage: string;
};

const stalled = (idleMs: number) =>
  new ApiError(408, `The upload stalled: nothing arrived for ${Math.round(idleMs / 1000)} seconds. Please try again.`);

/**
 * Reads a multipart body, refusing it as soon as it holds more parts than allowed (a body of
 * thousands of tiny fields costs the parser far more than its size suggests) and cutting it when
 * the client stops sending: a connection held open a byte at a time would otherwise tie up the
 * server for as long as the client likes. A body declared or found larger than `maxBytes` is
 * refused as soon as that is known, whether or not it announced its length.
 */
export async function readMultipart(request: Request, limits: MultipartLimits): Promise<FormData> {
  const contentType = request.headers.get('content-type') ?? '';
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary || !request.body) throw badRequest('Invalid request: the multipart body could not be read.');
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limits.maxBytes) throw new ApiError(413, limits.tooLargeMessage);
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const reader = request.body.getReader();
  const chunks: Buffer[] = [];
  // The end of the previous chunk, shorter than a delimiter: a delimiter split across two chunks
  // is counted once, in the chunk that completes it.
  let carry = Buffer.alloc(0);
  let delimiters = 0;
  let size = 0;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<'idle'>((resolve) => (timer = setTimeout(() => resolve('idle'), limits.idleMs)));
      const next = await Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer));
      if (next === 'idle') throw stalled(limits.idleMs);
      if (next.done) break;
      const chunk = Buffer.from(next.value);
      size += chunk.length;
      if (size > limits.maxBytes) throw new ApiError(413, limits.tooLargeMessage);
      chunks.push(chunk);
      const window = Buffer.concat([carry, chunk]);
      for (let at = window.indexOf(delimiter); at >= 0; at = window.indexOf(delimiter, at + delimiter.length)) delimiters++;
      carry = window.subarray(Math.max(0, window.length - (delimiter.length - 1)));
      // n parts are framed by n + 1 delimiters (the last one closes the body).
      if (delimiters - 1 > limits.maxParts) {
        throw new ApiError(413, `The upload has too many parts: send one file, with at most ${limits.maxParts} parts in all.`);
      }
    }
  } catch (error) {
    void reader.cancel().catch(() => {});
    if (error instanceof ApiError) throw error;
    throw badRequest('Invalid request: the multipart body could not be read.');
  }
  try {
    return await new Response(Buffer.concat(chunks), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw badRequest('Invalid request: the multipart body could not be read.');
  }
}
