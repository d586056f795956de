/**
 * Why no text could be read from a file the model would read. `busy`: every reader was taken and
 * the queue full, the only failure not kept with the upload (the next question tries again).
 */
export type ReadFailure = 'unreadable' | 'encrypted' | 'too_long_to_read' | 'too_large_to_read' | 'no_text' | 'busy';

/** `text` is at most `maxChars` long; `chars` is the whole text's length, to say when it was cut. */
export type ReadText = { text: string; chars: number; error: ReadFailure | null };

/**
 * `maxChars` of text are kept; reading stops past `stopAfterChars` (a page of millions of tiny
 * text operators would otherwise be read to its end), and `chars` then counts what was read.
 */
export type ReadLimits = { maxChars: number; pdfMaxPages: number; stopAfterChars: number };

/** Files read as plain UTF-8 text, by their name: the bytes cannot tell a text file's kind. */
const TEXT_EXTENSIONS = new Set(
  (
    'txt text md markdown csv tsv json jsonl ndjson xml yaml yml toml ini cfg conf log html htm css scss less ' +
    'js mjs cjs jsx ts tsx py rb go rs java kt kts swift c h cc cpp hpp cs php pl sh bash zsh sql r lua dart scala vue svelte tex srt vtt'
  ).split(' '),
);

/** How a file's text is read: `pdf`, `text`, or null for a file that has none to read (images, audio, archives). */
export function textKind(file: { name: string; mimeType: string; kind: string }): 'pdf' | 'text' | null {
  if (file.mimeType === 'application/pdf') return 'pdf';
  if (file.kind !== 'other') return null;
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  return TEXT_EXTENSIONS.has(extension) ? 'text' : null;
}

function readPlainText(bytes: Uint8Array, maxChars: number): ReadText {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { text: '', chars: 0, error: 'unreadable' };
  }
  // A NUL byte means a binary file under a text file's name.
  if (text.includes('\0')) return { text: '', chars: 0, error: 'unreadable' };
  if (text.trim() === '') return { text: '', chars: 0, error: 'no_text' };
  return { text: text.slice(0, maxChars), chars: text.length, error: null };
}

type PdfItem = { str?: string; hasEOL?: boolean };

/** Text read so far: at most `maxChars` kept, all of it counted, until `stopAfterChars`. */
class Collected {
  text = '';
  chars = 0;
  constructor(private readonly limits: ReadLimits) {}
  add(piece: string): void {
    this.chars += piece.length;
    if (this.text.length < this.limits.maxChars) this.text += piece.slice(0, this.limits.maxChars - this.text.length);
  }
  get full(): boolean {
    return this.chars >= this.limits.stopAfterChars;
  }
}

/**
 * One page's text, trimmed, read a batch of items at a time so that a page of millions of items
 * stops at the limit instead of being read whole. Pages are set apart by a blank line.
 */
async function readPage(page: { streamTextContent(): ReadableStream<{ items: unknown[] }> }, into: Collected): Promise<void> {
  const reader = page.streamTextContent().getReader();
  // Whitespace is added only once text follows it: what ends a page is left out.
  let pending = into.chars > 0 ? '\n\n' : '';
  let started = false;
  // Past the limit the stream is left unread, not cancelled (pdf.js then fails to close it): the
  // reading side waits for room in the stream until the document is destroyed.
  while (!into.full) {
    const next = await reader.read();
    if (next.done) return;
    for (const item of next.value.items as PdfItem[]) {
      let piece = (item.str ?? '') + (item.hasEOL ? '\n' : '');
      if (!started) piece = piece.trimStart();
      const body = piece.trimEnd();
      if (body === '') {
        if (started) pending += piece;
        continue;
      }
      started = true;
      into.add(pending + body);
      pending = piece.slice(body.length);
    }
  }
}

/**
 * A PDF's text, page by page, with pdf.js: no code generated from the file (isEvalSupported off),
 * no fonts loaded. It runs in a worker thread (see text-reader.ts), which bounds its time and memory;
 * here it stops at `pdfMaxPages` pages or `stopAfterChars` characters.
 */
async function readPdf(bytes: Uint8Array, limits: ReadLimits): Promise<ReadText> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    // pdf.js takes the buffer over: give it a copy, the caller's bytes stay usable.
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const pages = Math.min(doc.numPages, limits.pdfMaxPages);
    const collected = new Collected(limits);
    for (let number = 1; number <= pages && !collected.full; number++) {
      const page = await doc.getPage(number);
      await readPage(page, collected);
      page.cleanup();
    }
    if (collected.text.trim() === '') return { text: '', chars: 0, error: 'no_text' };
    if (doc.numPages > pages && !collected.full) {
      const notice = `\n\n[Only the first ${pages} of ${doc.numPages} pages were read.]`;
      if (collected.text.length + notice.length <= limits.maxChars) collected.text += notice;
      collected.chars += notice.length;
    }
    return { text: collected.text, chars: collected.chars, error: null };
  } catch (error) {
    const name = (error as { name?: string }).name;
    return { text: '', chars: 0, error: name === 'PasswordException' ? 'encrypted' : 'unreadable' };
  } finally {
    void task.destroy().catch(() => {});
  }
}

/**
 * The text of a file the model should read, in the calling thread; never throws for what the file
 * holds. The server calls it only inside a worker (text-reader.ts): a hostile file can take
 * seconds and hundreds of megabytes.
 */
export async function readText(bytes: Uint8Array, kind: 'pdf' | 'text', limits: ReadLimits): Promise<ReadText> {
  return kind === 'pdf' ? readPdf(bytes, limits) : readPlainText(bytes, limits.maxChars);
}
