/** Why no text could be read from a file the model would read. */
export type ReadFailure = 'unreadable' | 'encrypted' | 'too_long_to_read' | 'no_text';

/** `text` is at most `maxChars` long; `chars` is the whole text's length, to say when it was cut. */
export type ReadText = { text: string; chars: number; error: ReadFailure | null };

export type ReadLimits = { maxChars: number; pdfMaxPages: number; timeoutMs: number };

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

/**
 * A PDF's text, page by page, with pdf.js in Node: no worker thread, no code generated from the
 * file (isEvalSupported off), no fonts loaded. A file with thousands of pages or built to be slow
 * stops at `pdfMaxPages` or `timeoutMs`, whichever comes first.
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), limits.timeoutMs)));
  const read = async (): Promise<ReadText> => {
    const doc = await task.promise;
    const pages = Math.min(doc.numPages, limits.pdfMaxPages);
    let text = '';
    let chars = 0;
    for (let number = 1; number <= pages; number++) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      const pageText = (content.items as PdfItem[]).map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : '')).join('');
      page.cleanup();
      const piece = (number > 1 ? '\n\n' : '') + pageText.trim();
      chars += piece.length;
      if (text.length < limits.maxChars) text += piece.slice(0, limits.maxChars - text.length);
    }
    if (doc.numPages > pages) {
      const notice = `\n\n[Only the first ${pages} of ${doc.numPages} pages were read.]`;
      chars += notice.length;
      if (text.length + notice.length <= limits.maxChars) text += notice;
    }
    if (text.trim() === '') return { text: '', chars: 0, error: 'no_text' };
    return { text, chars, error: null };
  };
  try {
    const outcome = await Promise.race([read(), timedOut]);
    if (outcome === 'timeout') return { text: '', chars: 0, error: 'too_long_to_read' };
    return outcome;
  } catch (error) {
    const name = (error as { name?: string }).name;
    return { text: '', chars: 0, error: name === 'PasswordException' ? 'encrypted' : 'unreadable' };
  } finally {
    clearTimeout(timer);
    void task.destroy().catch(() => {});
  }
}

/** The text of a file the model should read; never throws for what the file holds. */
export async function readText(bytes: Uint8Array, kind: 'pdf' | 'text', limits: ReadLimits): Promise<ReadText> {
  return kind === 'pdf' ? readPdf(bytes, limits) : readPlainText(bytes, limits.maxChars);
}
