import http, { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOpenAiRuntime } from './openai-runtime';
import { AgentError, CONTINUE_INSTRUCTION, type RuntimeAgent } from './runtime';

type Seen = { path: string; headers: IncomingMessage['headers']; body: Record<string, unknown>; port: number | undefined; closed: Promise<void> };
let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let behaviour: (res: ServerResponse) => void = () => {};

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ delta: { content }, finish_reason: finish }] })}\n\n`;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
      seen.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(body), port: req.socket.remotePort, closed });
      behaviour(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const agent: RuntimeAgent = { id: 'a', name: 'Writer', systemPrompt: 'You write posts.' };
const history = [
  { role: 'user' as const, content: 'first' },
  { role: 'assistant' as const, content: 'answer' },
  { role: 'user' as const, content: 'second' },
];

async function collect(iterable: AsyncIterable<string>) {
  const pieces: string[] = [];
  for await (const piece of iterable) pieces.push(piece);
  return pieces;
}

describe('OpenAI-compatible runtime', () => {
  it('streams deltas from /chat/completions with the system prompt first', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': keep-alive\n\n');
      res.write(chunk('Hel'));
      res.write('data: {"choices":[{"delta":{"role":"assistant"}}]}\r\n\r\n');
      res.write(chunk('lo'));
      res.end(chunk('!', 'stop') + 'data: [DONE]\n\n');
    };
    seen.length = 0;
    const runtime = createOpenAiRuntime({ baseUrl, apiKey: 'sk-test', model: 'test-model' });
    const pieces = await collect(runtime.streamAnswer({ agent, history, signal: new AbortController().signal }));
    expect(pieces.join('')).toBe('Hello!');
    expect(seen[0]!.path).toBe('/v1/chat/completions');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(seen[0]!.body).toEqual({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'system', content: 'You write posts.' }, ...history],
    });
  });

  it('continues an answer cut short: the model reads the answer so far, then is asked to go on from it', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk(' and the rest.', 'stop') + 'data: [DONE]\n\n');
    };
    seen.length = 0;
    const runtime = createOpenAiRuntime({ baseUrl, apiKey: 'sk-test', model: 'test-model' });
    const pieces = await collect(runtime.streamAnswer({ agent, history, signal: new AbortController().signal, continuing: 'The first part' }));
    expect(pieces.join('')).toBe(' and the rest.');
    expect((seen[0]!.body as { messages: unknown[] }).messages).toEqual([
      { role: 'system', content: 'You write posts.' },
      ...history,
      { role: 'assistant', content: 'The first part' },
      { role: 'user', content: CONTINUE_INSTRUCTION },
    ]);
  });

  it('hands on the text of one burst of thousands of tokens as a few pieces, every character in order', async () => {
    const tokens = Array.from({ length: 5000 }, (_, index) => `t${index} `);
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // A buffering proxy flushes the whole answer at once; a line may be cut between two reads.
      const body = tokens.map((token) => chunk(token)).join('') + chunk('', 'stop') + 'data: [DONE]\n\n';
      res.end(body);
    };
    const pieces = await collect(createOpenAiRuntime({ baseUrl, model: 'm' }).streamAnswer({ agent, history, signal: new AbortController().signal }));
    expect(pieces.join('')).toBe(tokens.join(''));
    expect(pieces.length).toBeLessThan(tokens.length / 50);
  });

  it('keeps the text that came in the same read as a failure, then fails', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk('Half ') + chunk('an answer') + 'data: {"error":{"message":"overloaded"}}\n\n');
    };
    const pieces: string[] = [];
    const reading = (async () => {
      for await (const piece of createOpenAiRuntime({ baseUrl, model: 'm' }).streamAnswer({ agent, history, signal: new AbortController().signal })) pieces.push(piece);
    })();
    await expect(reading).rejects.toThrow(/overloaded/);
    expect(pieces.join('')).toBe('Half an answer');
  });

  it('sends no Authorization header without a key', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: [DONE]\n\n');
    };
    seen.length = 0;
    await collect(createOpenAiRuntime({ baseUrl, model: 'm' }).streamAnswer({ agent, history, signal: new AbortController().signal }));
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it('surfaces HTTP errors with the service message', async () => {
    behaviour = (res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
    };
    const runtime = createOpenAiRuntime({ baseUrl, apiKey: 'bad', model: 'm' });
    const failure = collect(runtime.streamAnswer({ agent, history, signal: new AbortController().signal }));
    await expect(failure).rejects.toBeInstanceOf(AgentError);
    await expect(failure).rejects.toThrow('The model service answered HTTP 401: Incorrect API key provided.');
  });

  it('says so when the service cannot be reached', async () => {
    const runtime = createOpenAiRuntime({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
    await expect(collect(runtime.streamAnswer({ agent, history, signal: new AbortController().signal }))).rejects.toThrow(
      /could not be reached/,
    );
  });

  it("gives the answer up once the model keeps it waiting past the configured limits, saying which", async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
    };
    const waiting = createOpenAiRuntime({ baseUrl, model: 'm', timeouts: { firstByteMs: 200, silenceMs: 60_000 } });
    await expect(collect(waiting.streamAnswer({ agent, history, signal: new AbortController().signal }))).rejects.toThrow(/no answer began within 0.2 s/);

    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('half'));
    };
    const silent = createOpenAiRuntime({ baseUrl, model: 'm', timeouts: { firstByteMs: 60_000, silenceMs: 200 } });
    await expect(collect(silent.streamAnswer({ agent, history, signal: new AbortController().signal }))).rejects.toThrow(/nothing arrived for 0.2 s/);
  });

  it("names a conversation with one plain request, from its question and answer, and answers null to a refusal", async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Vector databases explained' } }] }));
    };
    seen.length = 0;
    const runtime = createOpenAiRuntime({ baseUrl, model: 'm' });
    const title = await runtime.nameConversation!({ question: 'What is a vector database?', answer: 'It stores embeddings.', signal: new AbortController().signal });
    expect(title).toBe('Vector databases explained');
    expect(seen[0]!.body).toMatchObject({ model: 'm', stream: false });
    expect(JSON.stringify(seen[0]!.body.messages)).toContain('What is a vector database?');

    behaviour = (res) => {
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"slow down"}}');
    };
    expect(await runtime.nameConversation!({ question: 'q', answer: 'a', signal: new AbortController().signal })).toBeNull();
  });

  it('fails clearly when the stream is cut before it ends', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk('half'));
    };
    const runtime = createOpenAiRuntime({ baseUrl, model: 'm' });
    await expect(collect(runtime.streamAnswer({ agent, history, signal: new AbortController().signal }))).rejects.toThrow(
      /closed the stream before the answer was complete/,
    );
  });

  it('stops when aborted', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('one'));
      // never ends
    };
    const controller = new AbortController();
    const runtime = createOpenAiRuntime({ baseUrl, model: 'm' });
    const pieces: string[] = [];
    for await (const piece of runtime.streamAnswer({ agent, history, signal: controller.signal })) {
      pieces.push(piece);
      controller.abort();
    }
    expect(pieces).toEqual(['one']);
  });

  it('reads answers to their end through one kept connection, [DONE] before the response ends and an abort after the answer included', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('yes', 'stop') + 'data: [DONE]\n\n');
      setTimeout(() => res.end(), 20);
    };
    seen.length = 0;
    const runtime = createOpenAiRuntime({ baseUrl, model: 'm' });
    for (let i = 0; i < 3; i++) {
      const controller = new AbortController();
      expect(await collect(runtime.streamAnswer({ agent, history, signal: controller.signal }))).toEqual(['yes']);
      // As an answer's end does, while the rest of the response is still on its way: no effect.
      controller.abort();
      // Once the rest of the response has come, unread, its connection waits for the next call.
      await vi.waitFor(() => expect(Object.values(http.globalAgent.freeSockets).flat()).toHaveLength(1));
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((one) => one.port)).size).toBe(1);
  });

  it('closes the connection of an answer left in the middle, and the next one opens its own', async () => {
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('one'));
      // never ends
    };
    seen.length = 0;
    const runtime = createOpenAiRuntime({ baseUrl, model: 'm' });
    for await (const piece of runtime.streamAnswer({ agent, history, signal: new AbortController().signal })) {
      expect(piece).toBe('one');
      break;
    }
    await seen[0]!.closed;
    behaviour = (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chunk('two', 'stop') + 'data: [DONE]\n\n');
    };
    expect(await collect(runtime.streamAnswer({ agent, history, signal: new AbortController().signal }))).toEqual(['two']);
    expect(seen[1]!.port).not.toBe(seen[0]!.port);
  });
});
