import { describe, expect, it } from 'vitest';
import { textBombPdf } from '../test/hostile-pdf';
import { tinyPdf } from '../test/pdf';
import { createTextReader, type TextReaderLimits } from './text-reader';

const roomy: TextReaderLimits = { concurrency: 2, queueMax: 4, timeoutMs: 20_000, heapMb: 256, stopAfterChars: 1_000_000 };
const read = { maxChars: 1000, pdfMaxPages: 10 };

describe('reading files in worker threads', () => {
  it('reads text files and PDFs in a worker as in the calling thread', async () => {
    const reader = createTextReader(roomy);
    expect(await reader.read(new TextEncoder().encode('hello'), 'text', read)).toEqual({ text: 'hello', chars: 5, error: null });
    expect(await reader.read(tinyPdf(['first page', 'second page']), 'pdf', read)).toEqual({
      text: 'first page\n\nsecond page',
      chars: 23,
      error: null,
    });
    expect(await reader.read(new TextEncoder().encode('%PDF-1.4\n1 0 obj garbage'), 'pdf', read)).toMatchObject({ error: 'unreadable' });
    expect(reader.load()).toEqual({ running: 0, waiting: 0 });
  });

  // The event loop's delay meanwhile is measured with the whole server, in server/test/hostile-files.test.ts.
  it('stops a PDF built to be slow at the time limit, while another file is read beside it', async () => {
    // Six million text operators take pdf.js many seconds on any machine (three million took 5.5 s
    // here): two seconds stops it whatever the machine's speed, and leave the quick file time to start.
    const reader = createTextReader({ ...roomy, timeoutMs: 2000 });
    const bomb = textBombPdf(6_000_000);
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    let slowDone = false;
    const slow = reader.read(bomb, 'pdf', read).finally(() => (slowDone = true));
    const quick = await reader.read(new TextEncoder().encode('still answering'), 'text', read);
    expect(quick.text).toBe('still answering');
    expect(slowDone).toBe(false);
    expect(await slow).toEqual({ text: '', chars: 0, error: 'too_long_to_read' });
    expect(reader.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('stops a worker past its heap limit', async () => {
    const reader = createTextReader({ ...roomy, heapMb: 24 });
    expect(await reader.read(textBombPdf(3_000_000, '(a) Tj 0 0 Td'), 'pdf', read)).toEqual({ text: '', chars: 0, error: 'too_large_to_read' });
  });

  it('reads at most `concurrency` files at once, queues `queueMax`, and turns the next away at once', async () => {
    const reader = createTextReader({ ...roomy, concurrency: 1, queueMax: 1, timeoutMs: 1500 });
    const bomb = textBombPdf(3_000_000);
    const first = reader.read(bomb, 'pdf', read);
    const second = reader.read(bomb, 'pdf', read);
    expect(reader.load()).toEqual({ running: 1, waiting: 1 });
    expect(await reader.read(bomb, 'pdf', read)).toEqual({ text: '', chars: 0, error: 'busy' });
    expect((await first).error).toBe('too_long_to_read');
    expect(reader.load()).toEqual({ running: 1, waiting: 0 });
    expect((await second).error).toBe('too_long_to_read');
    expect(reader.load()).toEqual({ running: 0, waiting: 0 });
  });
});
