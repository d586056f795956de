import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Busboy, type BusboyFileStream } from '@fastify/busboy';
import { ApiError, badRequest, tooLarge } from '../http/errors';

export type ReceiveLimits = {
  /** The file itself; past it the upload is cut with 413. */
  maxFileBytes: number;
  /** Fields and files together. */
  maxParts: number;
  /** An upload that sends nothing for this long is cut. */
  idleMs: number;
  tooLargeMessage: string;
};

/** The file of an upload as it arrives, never held whole. */
export type IncomingFile = {
  name: string;
  /** Its first bytes (all of them for a file this short), to tell its kind before storing it. */
  head: Uint8Array;
  /** All its bytes, the head included; fails with the ApiError that cut the upload. */
  stream: Readable;
  /** Bytes given so far: the file's size once `stream` has ended. */
  size(): number;
  /** Settles when the whole body has been read: rejects with what was wrong with it. */
  finished: Promise<void>;
};

/**
 * The file's name as sent: browsers write a name's quote and line breaks as %22, %0D and %0A in
 * the part's header (HTML's form encoding), and they are read back as those characters.
 */
const sentName = (raw: string) => raw.replace(/%(22|0D|0A)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Enough bytes for every signature sniff() knows. */
const HEAD_BYTES = 16;

const invalid = () => badRequest('Invalid request: the multipart body could not be read.');
const noFile = () => badRequest('Invalid request: the field "file" must hold a file.');
const stalled = (idleMs: number) =>
  new ApiError(408, `The upload stalled: nothing arrived for ${Math.round(idleMs / 1000)} seconds. Please try again.`);
const tooManyParts = (maxParts: number) => tooLarge(`The upload has too many parts: send one file, with at most ${maxParts} parts in all.`);

/** The file's bytes as they come, counted, with its first `HEAD_BYTES` read ahead. */
async function counted(file: BusboyFileStream, onBytes: (count: number) => void, tooLarge: () => ApiError) {
  const chunks = (file as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const ahead: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    ahead.push(next.value);
    length += next.value.length;
  }
  async function* all() {
    for (const chunk of ahead) {
      onBytes(chunk.length);
      yield chunk;
    }
    if (!ended) {
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        onBytes(next.value.length);
        yield next.value;
      }
    }
    // busboy stops giving bytes past its fileSize limit and marks the file cut.
    if (file.truncated) throw tooLarge();
  }
  return { head: new Uint8Array(Buffer.concat(ahead).subarray(0, HEAD_BYTES)), stream: Readable.from(all(), { objectMode: false }) };
}

/**
 * Reads a multipart upload as it arrives (busboy): answers its one file as soon as the file's
 * first bytes are in, to be streamed on to storage. The body is refused as soon as it holds more
 * parts than allowed, its file grows past the limit (counted, whatever the body declared), or
 * nothing arrives for `idleMs` (a connection held open a byte at a time).
 */
export function receiveFile(request: Request, limits: ReceiveLimits): Promise<IncomingFile> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!request.body) return Promise.reject(invalid());
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { fileSize: limits.maxFileBytes, files: 1, parts: limits.maxParts, fields: limits.maxParts, fieldSize: 64 * 1024, headerPairs: 20 },
    });
  } catch {
    return Promise.reject(invalid());
  }
  const body = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>);
  let size = 0;
  let fileSeen = false;
  let output: Readable | null = null;
  let failure: ApiError | null = null;
  let idle: NodeJS.Timeout | undefined;

  return new Promise<IncomingFile>((resolveFile, rejectFile) => {
    let settleFinished!: { resolve: () => void; reject: (error: ApiError) => void };
    const finished = new Promise<void>((resolve, reject) => (settleFinished = { resolve, reject }));
    // Rejections are read by the caller once it has the file; before that, rejectFile says them.
    finished.catch(() => undefined);

    const fail = (error: ApiError) => {
      if (failure) return;
      failure = error;
      clearTimeout(idle);
      body.unpipe(parser);
      body.destroy();
      output?.destroy(error);
      rejectFile(error);
      settleFinished.reject(error);
    };
    const awake = () => {
      clearTimeout(idle);
      idle = setTimeout(() => fail(stalled(limits.idleMs)), limits.idleMs);
    };
    awake();
    body.on('data', awake);
    body.on('error', () => fail(invalid()));

    parser.on('file', (field, file, name) => {
      if (field !== 'file' || fileSeen) {
        file.resume();
        return;
      }
      fileSeen = true;
      const overLimit = () => new ApiError(413, limits.tooLargeMessage);
      file.on('limit', () => fail(overLimit()));
      counted(file, (count) => (size += count), overLimit).then(({ head, stream }) => {
        // Already refused: nobody will read it.
        if (failure) return void stream.destroy();
        output = stream;
        resolveFile({ name: sentName(name), head, stream, size: () => size, finished });
      }, () => fail(invalid()));
    });
    parser.on('partsLimit', () => fail(tooManyParts(limits.maxParts)));
    parser.on('filesLimit', () => fail(tooManyParts(limits.maxParts)));
    parser.on('fieldsLimit', () => fail(tooManyParts(limits.maxParts)));
    parser.on('error', () => fail(invalid()));
    parser.on('finish', () => {
      clearTimeout(idle);
      if (failure) return;
      if (!fileSeen) fail(noFile());
      else settleFinished.resolve();
    });
    body.pipe(parser);
  });
}
