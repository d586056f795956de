import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, checkBaseUrl, guardedGet, guardedLookup } from './outbound';

/** Where the server connects on an admin's say-so (a model provider): the addresses it refuses, and how. */
const strict = { privateNetwork: false };
const relaxed = { privateNetwork: true };

describe('the addresses a model provider may have', () => {
  it('are public ones; with MODEL_PROVIDERS_ON_PRIVATE_NETWORK also this machine and private networks; never metadata, multicast or reserved', () => {
    const table: [string, boolean, boolean][] = [
      ['1.1.1.1', true, true],
      ['2606:4700:4700::1111', true, true],
      ['127.0.0.1', false, true],
      ['::1', false, true],
      ['10.0.0.5', false, true],
      ['192.168.1.10', false, true],
      ['172.20.0.1', false, true],
      ['100.64.0.1', false, true],
      ['fd00::1', false, true],
      ['::ffff:127.0.0.1', false, true],
      ['169.254.169.254', false, false],
      ['fe80::1', false, false],
      ['0.0.0.0', false, false],
      ['224.0.0.1', false, false],
      ['198.51.100.7', false, false],
    ];
    for (const [address, publicOnly, withPrivate] of table) {
      expect(addressAllowed(address, strict), address).toBe(publicOnly);
      expect(addressAllowed(address, relaxed), address).toBe(withPrivate);
    }
  });

  it('are written as an http(s) base URL without credentials, query or fragment', () => {
    expect(checkBaseUrl('https://api.openai.com/v1', strict)).toBeInstanceOf(URL);
    for (const raw of ['ftp://1.1.1.1/', 'https://u:p@1.1.1.1/v1', 'https://1.1.1.1/v1?x=1', 'https://1.1.1.1/v1#x', 'javascript:alert(1)', 'v1']) {
      expect(typeof checkBaseUrl(raw, relaxed), raw).toBe('string');
    }
    expect(checkBaseUrl('http://localhost:11434/v1', strict)).toMatch(/loopback/);
    expect(checkBaseUrl('http://localhost:11434/v1', relaxed)).toBeInstanceOf(URL);
  });
});

describe('a connection to a provider', () => {
  let server: ReturnType<typeof createServer>;
  let port: number;
  let answer: (res: ServerResponse) => void;
  beforeAll(async () => {
    server = createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const get = (host: string, policy = relaxed, extra: { maxBytes?: number; timeoutMs?: number } = {}) =>
    guardedGet(new URL(`http://${host}:${port}/v1/models`), { policy, headers: {}, maxBytes: extra.maxBytes ?? 1000, timeoutMs: extra.timeoutMs ?? 2000 });

  it('resolves names through the policy: a name that leads to a refused address is refused when connecting', async () => {
    answer = (res) => res.end('{}');
    expect(await get('localhost', strict)).toMatchObject({ ok: false, reason: expect.stringMatching(/localhost resolves to .*loopback/) });
    expect(await get('127.0.0.1', strict)).toMatchObject({ ok: false, reason: expect.stringMatching(/loopback/) });
    expect(await get('localhost', relaxed)).toEqual({ ok: true, status: 200, text: '{}' });
    const refused = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(strict)('localhost', {}, (error) => resolve(error)));
    expect(refused?.code).toBe('EADDRNOTALLOWED');
  });

  it('follows no redirect, reads no more than its cap, and gives up after its time', async () => {
    answer = (res) => res.writeHead(301, { location: 'http://169.254.169.254/' }).end();
    expect(await get('127.0.0.1')).toMatchObject({ ok: false, reason: expect.stringMatching(/redirect \(301\)/) });
    answer = (res) => {
      res.writeHead(200);
      res.write('x'.repeat(800));
      res.end('x'.repeat(800));
    };
    expect(await get('127.0.0.1')).toMatchObject({ ok: false, reason: expect.stringMatching(/larger than 1000 bytes/) });
    answer = () => {};
    expect(await get('127.0.0.1', relaxed, { timeoutMs: 100 })).toMatchObject({ ok: false, reason: expect.stringMatching(/no answer within/) });
  });
});
