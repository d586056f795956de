import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness } from './harness';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const UPLOAD = '/api/media/upload';

describe('paging', () => {
  it('answers 400 beyond page 100,000 or 100 items a page, instead of failing in the database', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    for (const path of ['/api/workflow/agent/published-list', '/api/workflow/application/list', '/api/workflow/agent-im/conversation']) {
      for (const body of [{ current: 1e20 }, { current: 100_001 }, { pageSize: 101 }, { pageSize: 1e20 }, { current: 2 ** 53 }]) {
        const reply = await t.post(path, body, visitor);
        expect(reply.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(reply.body.msg).toMatch(/^Invalid request: (current|pageSize): /);
      }
      expect((await t.post(path, { current: 100_000, pageSize: 100 }, visitor)).status).toBe(200);
    }
    const account = await h.operator(t);
    expect((await t.post('/api/kraken/task/list', { current: 1e20 }, account.headers)).status).toBe(400);
  });
});

describe('uploads', () => {
  it('refuse a body of many parts early, with 413', async () => {
    const t = h.makeApp();
    const form = new FormData();
    form.set('file', new File([PNG], 'pic.png'));
    for (let i = 0; i < 5000; i++) form.append(`f${i}`, 'x');
    const answer = await t.raw(UPLOAD, { method: 'POST', headers: h.visitor(), body: form });
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { msg: string }).msg).toMatch(/too many parts/);
    const few = new FormData();
    few.set('file', new File([PNG], 'pic.png'));
    few.set('note', 'a field or two is fine');
    expect((await t.raw(UPLOAD, { method: 'POST', headers: h.visitor(), body: few })).status).toBe(200);
  });

  it('cut a body that stops arriving, with 408', async () => {
    const t = h.makeApp({ config: { uploadIdleMs: 300 } });
    const boundary = 'xyzBOUNDARY';
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n`);
    // Sends the first bytes, then nothing, and never ends.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
    });
    const started = Date.now();
    const answer = await t.raw(UPLOAD, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...h.visitor() },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(answer.status).toBe(408);
    expect(((await answer.json()) as { msg: string }).msg).toMatch(/stalled/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('store and serve names without bidi or control characters, with a safe Content-Disposition', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const names: [string, string][] = [
      ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
      ['\u2066report\u2069\u200F\u200E\u061C.txt', 'report.txt'],
      ['a\u202Ab\u202Bc\u202Cd\u202De.bin', 'abcde.bin'],
      ['line\r\nbreak\u0007.txt', 'linebreak.txt'],
      ['quote"semi;colon%25\\.txt', 'quote"semi;colon%25\\.txt'.split('\\').pop()!],
    ];
    for (const [sent, kept] of names) {
      const form = new FormData();
      form.set('file', new File([new TextEncoder().encode('plain text')], sent));
      const reply = (await (await t.raw(UPLOAD, { method: 'POST', headers: visitor, body: form })).json()) as { data: { name: string; url: string } };
      expect(reply.data.name, JSON.stringify(sent)).toBe(kept);
      const file = await t.raw(reply.data.url, { headers: visitor });
      const disposition = file.headers.get('content-disposition')!;
      // eslint-disable-next-line no-control-regex
      expect(disposition).not.toMatch(/[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
      const ascii = /filename="([^"]*)"/.exec(disposition)![1]!;
      expect(ascii).not.toMatch(/[";\\%]/);
      const exact = /filename\*=UTF-8''(\S+)$/.exec(disposition)![1]!;
      expect(exact).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
      expect(decodeURIComponent(exact)).toBe(kept);
    }
  });
});
