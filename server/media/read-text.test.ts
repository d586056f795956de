import { describe, expect, it } from 'vitest';
import { tinyPdf } from '../test/pdf';
import { readText, textKind } from './read-text';

const limits = { maxChars: 1000, pdfMaxPages: 10, stopAfterChars: 100_000 };

describe('reading a file’s text', () => {
  it('reads text files by their name and PDFs by their bytes, nothing else', () => {
    expect(textKind({ name: 'notes.MD', mimeType: 'application/octet-stream', kind: 'other' })).toBe('text');
    expect(textKind({ name: 'main.py', mimeType: 'application/octet-stream', kind: 'other' })).toBe('text');
    expect(textKind({ name: 'paper', mimeType: 'application/pdf', kind: 'other' })).toBe('pdf');
    expect(textKind({ name: 'archive.zip', mimeType: 'application/octet-stream', kind: 'other' })).toBeNull();
    expect(textKind({ name: 'photo.txt', mimeType: 'image/png', kind: 'image' })).toBeNull();
  });

  it('refuses a binary file named like text', async () => {
    expect(await readText(new Uint8Array([0xff, 0xfe, 0x00, 0x41]), 'text', limits)).toEqual({ text: '', chars: 0, error: 'unreadable' });
    expect(await readText(new Uint8Array([0x41, 0x00, 0x42]), 'text', limits)).toMatchObject({ error: 'unreadable' });
  });

  it('keeps at most maxChars and says how long the whole text is', async () => {
    expect(await readText(new TextEncoder().encode('abcdef'), 'text', { ...limits, maxChars: 4 })).toEqual({ text: 'abcd', chars: 6, error: null });
  });

  it('reads a PDF page by page, stopping at the page limit and saying so', async () => {
    const read = await readText(tinyPdf(['first page', 'second page', 'third page']), 'pdf', { ...limits, pdfMaxPages: 2 });
    expect(read.error).toBeNull();
    expect(read.text).toBe('first page\n\nsecond page\n\n[Only the first 2 of 3 pages were read.]');
  });

  it('stops reading a PDF after stopAfterChars characters, keeping maxChars of them', async () => {
    const read = await readText(tinyPdf(['abcdefghij', 'klmnopqrst', 'uvwxyz']), 'pdf', { ...limits, maxChars: 4, stopAfterChars: 15 });
    expect(read).toEqual({ text: 'abcd', chars: 22, error: null });
  });

  it('answers a damaged PDF and a PDF without text with a reason, never a throw', async () => {
    expect(await readText(new TextEncoder().encode('%PDF-1.4\n1 0 obj garbage'), 'pdf', limits)).toMatchObject({ error: 'unreadable' });
    expect(await readText(tinyPdf(['']), 'pdf', limits)).toMatchObject({ error: 'no_text' });
  });
});
