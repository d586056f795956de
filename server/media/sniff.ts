import type { FileKind } from '../../src/contract/media';

export type Sniffed = { kind: FileKind; mimeType: string };

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/**
 * The file's kind from its first bytes, never from its name or the declared type. SVG is "other"
 * on purpose: it can carry script, so it is only ever offered as a download.
 */
export function sniff(bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'image', mimeType: 'image/png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'image', mimeType: 'image/jpeg' };
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return { kind: 'image', mimeType: 'image/gif' };
  const riff = ascii(bytes, 0, 4) === 'RIFF' ? ascii(bytes, 8, 12) : '';
  if (riff === 'WEBP') return { kind: 'image', mimeType: 'image/webp' };
  if (riff === 'WAVE') return { kind: 'audio', mimeType: 'audio/wav' };
  if (ascii(bytes, 0, 3) === 'ID3' || (bytes.length > 1 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0))
    return { kind: 'audio', mimeType: 'audio/mpeg' };
  if (ascii(bytes, 0, 4) === 'OggS') return { kind: 'audio', mimeType: 'audio/ogg' };
  if (ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 12);
    if (brand.startsWith('M4A') || brand.startsWith('M4B')) return { kind: 'audio', mimeType: 'audio/mp4' };
    return { kind: 'video', mimeType: 'video/mp4' };
  }
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return { kind: 'video', mimeType: 'video/webm' };
  if (ascii(bytes, 0, 5) === '%PDF-') return { kind: 'other', mimeType: 'application/pdf' };
  return { kind: 'other', mimeType: 'application/octet-stream' };
}
