import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postToModel } from './model-request';

let server: Server;
let origin: string;
let handle: (req: IncomingMessage, res: ServerResponse, body: string) => void = () => {};
/** How each request's connection ended, seen from the model's side. */
const closed: Promise<void>[] = [];

function listener(req: IncomingMessage, res: ServerResponse) {
  closed.push(new Promise((resolve) => res.on('close', () => resolve())));
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (piece: string) => (body += piece));
  req.on('end', () => handle(req, res, body));
}

beforeAll(async () => {
  server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const read = async (body: AsyncIterator<string>) => {
  let text = '';
  for (let next = await body.next(); !next.done; next = await body.next()) text += next.value;
  return text;
};

describe('a request to the model service', () => {
  it('sends the body with its length and headers, and reads the answer as text as it comes, a character cut between reads included', async () => {
    let seen: { headers: IncomingMessage['headers']; body: string } | undefined;
    handle = (req, res, body) => {
      seen = { headers: req.headers, body };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const bytes = Buffer.from('data: 你好\n\n');
      // The first character's three bytes in two writes.
      res.write(bytes.subarray(0, 7));
      setTimeout(() => res.end(bytes.subarray(7)), 20);
    };
    const body = JSON.stringify({ question: 'où ?' });
    const response = await postToModel(`${origin}/v1/chat/completions`, { 'content-type': 'application/json', authorization: 'Bearer k' }, body, new AbortController().signal);
    expect(response.status).toBe(200);
    expect(await read(response.body)).toBe('data: 你好\n\n');
    expect(seen!.body).toBe(body);
    expect(seen!.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen!.headers.authorization).toBe('Bearer k');
  });

  it('answers a refusal with its status and its explanation', async () => {
    handle = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"slow down"}}');
    };
    const response = await postToModel(`${origin}/v1`, {}, '{}', new AbortController().signal);
    expect(response.status).toBe(429);
    expect(await response.text()).toBe('{"error":{"message":"slow down"}}');
  });

  it('does not follow a redirect: the endpoint is where it is configured', async () => {
    let asked = 0;
    handle = (_req, res) => {
      asked += 1;
      res.writeHead(307, { location: `${origin}/elsewhere` });
      res.end();
    };
    const response = await postToModel(`${origin}/v1`, {}, '{}', new AbortController().signal);
    expect(response.status).toBe(307);
    expect(asked).toBe(1);
  });

  it('closes the connection when aborted mid-answer', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    };
    const controller = new AbortController();
    const response = await postToModel(`${origin}/v1`, {}, '{}', controller.signal);
    const pieces = response.body;
    expect((await pieces.next()).value).toBe('data: one\n\n');
    controller.abort();
    await expect(pieces.next()).rejects.toThrow();
    await closed.at(-1);
  });

  it('once an answer is read, its abort and its idle limit leave the kept connection to the next call', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: [DONE]\n\n');
    };
    const ports = new Set<number | undefined>();
    server.on('request', (req: IncomingMessage) => ports.add(req.socket.remotePort));
    try {
      const controller = new AbortController();
      const first = await postToModel(`${origin}/v1`, {}, '{}', controller.signal, { firstByteMs: 100, silenceMs: 100 });
      expect(await read(first.body)).toBe('data: [DONE]\n\n');
      first.release();
      // Later than the idle limit, and aborted as an answer's end aborts it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.abort();
      const second = await postToModel(`${origin}/v1`, {}, '{}', new AbortController().signal);
      expect(await read(second.body)).toBe('data: [DONE]\n\n');
      expect(ports.size).toBe(1);
    } finally {
      server.removeAllListeners('request');
      server.on('request', listener);
    }
  });

  it('refuses at once when already aborted, sending nothing', async () => {
    const before = closed.length;
    const controller = new AbortController();
    controller.abort();
    await expect(postToModel(`${origin}/v1`, {}, '{}', controller.signal)).rejects.toThrow('aborted');
    expect(closed).toHaveLength(before);
  });

  it('gives up on an answer that falls silent for the silence time, and says so', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
    };
    const response = await postToModel(`${origin}/v1`, {}, '{}', new AbortController().signal, { firstByteMs: 5000, silenceMs: 200 });
    await expect(read(response.body)).rejects.toThrow('nothing arrived for 0.2 s');
    await closed.at(-1);
  });

  it('gives up, and says so, on a service that never answers at all', async () => {
    handle = () => {};
    await expect(postToModel(`${origin}/v1`, {}, '{}', new AbortController().signal, { firstByteMs: 5000, silenceMs: 200 })).rejects.toThrow('nothing arrived for 0.2 s');
    await closed.at(-1);
  });

  it('gives up on an answer whose head came but whose first byte does not, before the silence limit', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
    };
    const response = await postToModel(`${origin}/v1`, {}, '{}', new AbortController().signal, { firstByteMs: 300, silenceMs: 5000 });
    await expect(read(response.body)).rejects.toThrow('no answer began within 0.3 s');
    await closed.at(-1);
  });

  it('keeps reading an answer that began in time, however long it then takes', async () => {
    handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      let sent = 0;
      const more = setInterval(() => {
        sent += 1;
        if (sent < 6) res.write(`data: ${sent}\n\n`);
        else {
          clearInterval(more);
          res.end('data: [DONE]\n\n');
        }
      }, 100);
    };
    // Six pieces 100 ms apart: longer in all than the first-byte limit, never silent for as long as the silence limit.
    const response = await postToModel(`${origin}/v1`, {}, '{}', new AbortController().signal, { firstByteMs: 150, silenceMs: 2000 });
    expect(await read(response.body)).toContain('data: [DONE]');
  });

  it('speaks TLS to an https address', async () => {
    // The test's server speaks plain HTTP: a TLS hello to it fails, which a plain request would not.
    handle = (_req, res) => res.end();
    await expect(postToModel(`${origin.replace('http:', 'https:')}/v1`, {}, '{}', new AbortController().signal)).rejects.toThrow(
      /SSL|TLS|EPROTO|wrong version/i,
    );
  });
});
