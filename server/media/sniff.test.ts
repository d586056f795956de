import { describe, expect, it } from 'vitest';
import { sniff } from './sniff';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('file kind from content', () => {
  it.each([
    ['png', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]), 'image', 'image/png'],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image', 'image/jpeg'],
    ['gif', bytes('GIF89a'), 'image', 'image/gif'],
    ['webp', bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '), 'image', 'image/webp'],
    ['wav', bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '), 'audio', 'audio/wav'],
    ['mp3 with ID3', bytes('ID3', [4, 0]), 'audio', 'audio/mpeg'],
    ['mp3 frame', bytes([0xff, 0xfb, 0x90, 0x64]), 'audio', 'audio/mpeg'],
    ['ogg', bytes('OggS', [0]), 'audio', 'audio/ogg'],
    ['m4a', bytes([0, 0, 0, 0x20], 'ftypM4A '), 'audio', 'audio/mp4'],
    ['mp4', bytes([0, 0, 0, 0x20], 'ftypisom'), 'video', 'video/mp4'],
    ['webm', bytes([0x1a, 0x45, 0xdf, 0xa3]), 'video', 'video/webm'],
    ['svg', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'other', 'application/octet-stream'],
    ['pdf', bytes('%PDF-1.7'), 'other', 'application/pdf'],
    ['text', bytes('hello'), 'other', 'application/octet-stream'],
    ['empty', bytes(), 'other', 'application/octet-stream'],
  ])('%s', (_name, content, kind, mimeType) => {
    expect(sniff(content)).toEqual({ kind, mimeType });
  });
});
