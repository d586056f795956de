import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, type Canary } from '../test/canary';
import { loopbackPictureSources } from '../test/pictures';
import { pngOf } from '../test/png';
import { fetchProviderPicture, PICTURE_MAX_BYTES, PICTURE_TIMEOUT_MS, PROVIDER_PICTURE_SOURCES, type PictureProvider, type PictureSources, type Resolve } from './provider-picture';

let canary: Canary;
beforeAll(async () => {
  canary = await startCanary();
});
afterAll(() => canary.close());
afterEach(() => {
  expect(canary.requests).toEqual([]);
});

/** A URL of the list with the canary's port in place of PORT. */
const atCanary = (url: string) => url.replace('PORT', String(canary.port));

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));
/** A stand-in for a provider's picture host on loopback. */
async function pictureHost(handle: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1', port = 0) {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}
const servesPng = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'image/png' });
  res.end(pngOf(4, [0, 128, 0]));
};

/** A resolver answering fixed addresses for some names, and refusing others, as DNS would. */
const resolverOf = (answers: Record<string, string[]>): Resolve & { asked: string[] } => {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const addresses = answers[hostname];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
};

describe('the default picture sources', () => {
  it('are the providers’ picture hosts, over https only, on public addresses only', () => {
    expect(PROVIDER_PICTURE_SOURCES).toEqual({
      hosts: { wechat: ['thirdwx.qlogo.cn', 'wx.qlogo.cn', '*.qlogo.cn'], google: ['*.googleusercontent.com'] },
      protocols: ['https:'],
      allowNonPublicAddresses: false,
    });
    expect(PICTURE_MAX_BYTES).toBe(2 * 1024 * 1024);
    expect(PICTURE_TIMEOUT_MS).toBe(4000);
  });

  it.each([
    ['google', 'http://127.0.0.1:PORT/internal'],
    ['google', 'https://127.0.0.1:PORT/internal'],
    ['wechat', 'http://localhost:PORT/'],
    ['wechat', 'https://localhost:PORT/'],
    ['google', 'http://[::1]:PORT/'],
    ['google', 'http://[::ffff:127.0.0.1]:PORT/'],
    ['wechat', 'http://2130706433:PORT/'],
    ['wechat', 'http://0177.0.0.1:PORT/'],
    ['wechat', 'http://0x7f.1:PORT/'],
    ['google', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/'],
    ['google', 'http://metadata.google.internal/computeMetadata/v1/'],
    ['wechat', 'http://thirdwx.qlogo.cn/mmopen/x/132'],
    ['wechat', 'https://thirdwx.qlogo.cn:PORT/mmopen/x/132'],
    ['wechat', 'https://thirdwx.qlogo.cn.evil.example/x.png'],
    ['wechat', 'https://qlogo.cn.evil.example/x.png'],
    ['google', 'https://lh3.googleusercontent.com@127.0.0.1/x.png'],
    ['google', 'https://evilgoogleusercontent.com/x.png'],
    ['google', 'https://thirdwx.qlogo.cn/x.png'],
    ['wechat', 'file:///etc/passwd'],
    ['wechat', 'gopher://127.0.0.1:6379/_FLUSHALL'],
    ['wechat', 'not a url'],
  ] satisfies [PictureProvider, string][])('refuse a %s picture at %s before any connection', async (provider, url) => {
    const resolve = resolverOf({});
    const result = await fetchProviderPicture(atCanary(url), provider, PROVIDER_PICTURE_SOURCES, { resolve });
    expect(result.ok).toBe(false);
    expect(resolve.asked).toEqual([]);
  });

  it('refuse an allowed host name whose DNS answer is loopback, private, link-local or mixed', async () => {
    const resolve = resolverOf({
      'thirdwx.qlogo.cn': ['127.0.0.1'],
      'wx.qlogo.cn': ['10.0.0.8'],
      'a.qlogo.cn': ['169.254.169.254'],
      'b.qlogo.cn': ['::1'],
      'c.qlogo.cn': ['::ffff:7f00:1'],
      'd.qlogo.cn': ['203.205.219.42', '127.0.0.1'],
      'lh3.googleusercontent.com': ['fd00:ec2::254'],
    });
    for (const host of ['thirdwx.qlogo.cn', 'wx.qlogo.cn', 'a.qlogo.cn', 'b.qlogo.cn', 'c.qlogo.cn', 'd.qlogo.cn']) {
      const result = await fetchProviderPicture(`https://${host}/mmopen/132`, 'wechat', PROVIDER_PICTURE_SOURCES, { resolve });
      expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/resolves to .* \((loopback|private|link-local)\)$/) });
    }
    const google = await fetchProviderPicture('https://lh3.googleusercontent.com/a/x=s96-c', 'google', PROVIDER_PICTURE_SOURCES, { resolve });
    expect(google).toMatchObject({ ok: false, reason: 'lh3.googleusercontent.com resolves to fd00:ec2::254 (unique-local)' });
  });
});

describe('with the canary’s own host and port on the allow-list (only the address check stands in the way)', () => {
  const canaryListed = (): PictureSources => ({
    hosts: { wechat: [`127.0.0.1:${canary.port}`, `[::1]:${canary.port}`, `localhost:${canary.port}`, `pics.qlogo.cn:${canary.port}`, `[::ffff:7f00:1]:${canary.port}`], google: [] },
    protocols: ['http:', 'https:'],
    allowNonPublicAddresses: false,
  });

  it.each([
    'http://127.0.0.1:PORT/internal',
    'https://127.0.0.1:PORT/',
    'http://2130706433:PORT/',
    'http://0177.0.0.1:PORT/',
    'http://127.1:PORT/',
    'http://[::1]:PORT/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://localhost:PORT/',
    'http://pics.qlogo.cn:PORT/',
  ])('%s is refused as not public', async (url) => {
    const resolve = resolverOf({ localhost: ['127.0.0.1', '::1'], 'pics.qlogo.cn': ['127.0.0.1'] });
    const result = await fetchProviderPicture(atCanary(url), 'wechat', canaryListed(), { resolve });
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/resolves to .*\((loopback)\)/) });
  });

  it('refuses localhost through the system resolver too', async () => {
    const result = await fetchProviderPicture(`http://localhost:${canary.port}/`, 'wechat', canaryListed());
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/^localhost resolves to .* \(loopback\)$/) });
  });
});

describe('fetching from an allowed host (a fake provider on loopback, allowed for the test)', () => {
  it('answers the image', async () => {
    const origin = await pictureHost(servesPng);
    const result = await fetchProviderPicture(`${origin}/headimg/132?token=secret`, 'wechat', loopbackPictureSources(origin));
    expect(result).toMatchObject({ ok: true, mimeType: 'image/png' });
  });

  it('does not follow a redirect, to the canary or anywhere', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const origin = await pictureHost((_req, res) => {
        res.writeHead(status, { location: `${canary.url}/latest/meta-data/` });
        res.end();
      });
      const result = await fetchProviderPicture(`${origin}/p.png`, 'google', loopbackPictureSources(origin, canary.url));
      expect(result).toEqual({ ok: false, reason: `it answered a redirect (${status}), which is not followed` });
    }
  });

  it('connects to the address it checked, whatever DNS answers next (no rebinding)', async () => {
    const picture = await pictureHost(servesPng, '127.0.0.1');
    const port = new URL(picture).port;
    const rebound = await startCanary();
    // a second listener on the same port of another loopback address: where a second DNS answer points
    const other = await pictureHost((req, res) => {
      rebound.requests.push(req.url ?? '');
      res.end();
    }, '127.0.0.2', Number(port));
    expect(other).toBe(`http://127.0.0.2:${port}`);
    let answers = 0;
    const resolve: Resolve = async () => [{ address: answers++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    const result = await fetchProviderPicture(`http://pics.qlogo.cn:${port}/a.png`, 'wechat', loopbackPictureSources(`http://pics.qlogo.cn:${port}`), { resolve });
    expect(result.ok).toBe(true);
    expect(answers).toBe(1);
    expect(rebound.requests).toEqual([]);
    await rebound.close();
  });

  it('stops reading beyond 2 MB, even when the length is not announced', async () => {
    let written = 0;
    const origin = await pictureHost((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(64 * 1024);
      pngOf(2, [0, 0, 0]).copy(chunk);
      const pump = () => {
        while (written < 10 * PICTURE_MAX_BYTES) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const result = await fetchProviderPicture(`${origin}/big.png`, 'google', loopbackPictureSources(origin));
    expect(result).toEqual({ ok: false, reason: `its answer is larger than ${PICTURE_MAX_BYTES} bytes` });
    expect(written).toBeLessThan(10 * PICTURE_MAX_BYTES);
    const announced = await pictureHost((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(PICTURE_MAX_BYTES + 1) });
      res.write(pngOf(2, [0, 0, 0]));
    });
    expect(await fetchProviderPicture(`${announced}/big.png`, 'google', loopbackPictureSources(announced))).toMatchObject({ ok: false });
  });

  it('gives up when the host is too slow, and refuses what is not an image', async () => {
    const slow = await pictureHost(() => undefined);
    const started = Date.now();
    const late = await fetchProviderPicture(`${slow}/p.png`, 'google', loopbackPictureSources(slow), { timeoutMs: 300 });
    expect(late).toEqual({ ok: false, reason: 'no answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(2000);

    const page = await pictureHost((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end('<html><script>alert(1)</script></html>');
    });
    expect(await fetchProviderPicture(`${page}/p.png`, 'google', loopbackPictureSources(page))).toEqual({ ok: false, reason: 'not an image' });
    const svg = await pictureHost((_req, res) => res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
    expect(await fetchProviderPicture(`${svg}/p.svg`, 'google', loopbackPictureSources(svg))).toEqual({ ok: false, reason: 'not an image' });
  });
});
