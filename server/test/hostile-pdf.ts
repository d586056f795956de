import { deflateSync } from 'node:zlib';

/**
 * A small valid PDF that is costly to read: one page whose FlateDecode content stream holds
 * `operators` text-showing operators, `(a) Tj` each. Two million of them make about 14 MB of
 * content that compresses to a few tens of kilobytes, like the file that stalled the server.
 */
export function textBombPdf(operators = 2_000_000, operator = '(a) Tj'): Uint8Array {
  const content = Buffer.from(`BT /F1 12 Tf 72 720 Td\n${`${operator}\n`.repeat(operators)}ET\n`, 'latin1');
  const stream = deflateSync(content, { level: 9 });
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const write = (part: Buffer | string) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  const object = (id: number, body: (Buffer | string)[]) => {
    offsets[id] = length;
    write(`${id} 0 obj\n`);
    for (const piece of body) write(piece);
    write('\nendobj\n');
  };
  write('%PDF-1.4\n');
  object(1, ['<< /Type /Catalog /Pages 2 0 R >>']);
  object(2, ['<< /Type /Pages /Kids [4 0 R] /Count 1 >>']);
  object(3, ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>']);
  object(4, ['<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>']);
  object(5, [`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, '\nendstream']);
  const xref = length;
  write(`xref\n0 6\n0000000000 65535 f \n`);
  for (let id = 1; id <= 5; id++) write(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  write(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts));
}
