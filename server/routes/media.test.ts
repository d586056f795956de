import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { fileRefSchema } from '../../src/contract/media';
import { openHarness, type TestApp } from '../test/harness';

const UPLOAD = '/api/media/upload';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

async function upload(t: TestApp, headers: Record<string, string>, bytes: Uint8Array, name: string, type = 'application/octet-stream') {
  const form = new FormData();
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  const response = await t.raw(UPLOAD, { method: 'POST', body: form, headers });
  return { status: response.status, body: await response.json() };
}

describe('upload', () => {
  it('stores a file, tells its kind from its content, and serves it back', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const reply = await upload(t, visitor, PNG, 'holiday.txt', 'text/plain');
    expect(reply.status).toBe(200);
    const ref = v.parse(fileRefSchema, reply.body.data);
    expect(ref).toMatchObject({ name: 'holiday.txt', kind: 'image', mimeType: 'image/png', size: PNG.length });
    expect(ref.url).toBe(`/api/media/file/${ref.fileId}`);
    const file = await t.raw(ref.url, { headers: visitor });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-disposition')).toMatch(/^inline/);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
  });

  it('treats SVG as other and serves it only as a download', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const reply = await upload(t, visitor, SVG, 'logo.svg', 'image/svg+xml');
    expect(reply.body.data.kind).toBe('other');
    const file = await t.raw(reply.body.data.url, { headers: visitor });
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="logo.svg"/);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('recognises audio and video', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const mp3 = new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0]);
    const mp4 = new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]);
    expect((await upload(t, visitor, mp3, 'song')).body.data).toMatchObject({ kind: 'audio', mimeType: 'audio/mpeg' });
    expect((await upload(t, visitor, mp4, 'clip')).body.data).toMatchObject({ kind: 'video', mimeType: 'video/mp4' });
  });

  it('keeps a clean name without any path', async () => {
    const t = h.makeApp();
    const reply = await upload(t, h.visitor(), PNG, '../../etc/passwd\u0007.png');
    expect(reply.body.data.name).toBe('passwd.png');
  });

  it('refuses files over the limit with 413 and a clear message', async () => {
    const t = h.makeApp({ config: { uploadLimitBytes: 1000 } });
    const reply = await upload(t, h.visitor(), new Uint8Array(1001), 'big.bin');
    expect(reply.status).toBe(413);
    expect(reply.body).toMatchObject({ code: 1, success: false });
    expect(reply.body.msg).toMatch(/too large/);
    const huge = await upload(t, h.visitor(), new Uint8Array(200_000), 'huge.bin');
    expect(huge.status).toBe(413);
    expect((await upload(t, h.visitor(), new Uint8Array(1000), 'ok.bin')).status).toBe(200);
  });

  it('refuses requests without a file, or without an identity', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const form = new FormData();
    form.set('other', 'text');
    const noFile = await t.raw(UPLOAD, { method: 'POST', body: form, headers: visitor });
    expect(noFile.status).toBe(400);
    expect((await noFile.json()).msg).toMatch(/"file"/);
    const json = await t.post(UPLOAD, { file: 'x' }, visitor);
    expect(json.status).toBe(400);
    expect((await upload(t, visitor, new Uint8Array(0), 'empty')).status).toBe(400);
    expect((await upload(t, {}, PNG, 'a.png')).status).toBe(401);
  });

  it('answers 404 for unknown files', async () => {
    const t = h.makeApp();
    const reply = await t.get('/api/media/file/00000000-0000-0000-0000-000000000000');
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 1, msg: 'File not found' });
  });
});
