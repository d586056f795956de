import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake model service received: its path, headers and JSON body (if any). */
export type Received = { method: string; path: string; headers: IncomingMessage['headers']; body: Record<string, unknown> | null };

const chunk = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

/**
 * An OpenAI-compatible service on loopback for tests: it keeps every request, answers
 * `/chat/completions` with `answer` (streamed, or as one message when not streaming), and
 * `GET /models` with `models`. `on` replaces its answer to a path, for hostile ones.
 */
export async function fakeModelService(options: { answer?: string; models?: string[] } = {}) {
  const received: Received[] = [];
  const overrides = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
  let answer = options.answer ?? 'ok';
  let listed = options.models ?? ['model-a', 'model-b'];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (piece) => (text += piece));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      let body: Record<string, unknown> | null;
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      received.push({ method: req.method ?? '', path, headers: req.headers, body });
      const override = overrides.get(path);
      if (override) return override(req, res);
      if (path.endsWith('/models') && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ object: 'list', data: listed.map((id) => ({ id, object: 'model' })) }));
      }
      if (path.endsWith('/chat/completions')) {
        if (body?.stream) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(chunk({ choices: [{ delta: { content: answer }, finish_reason: 'stop' }] }));
          return res.end('data: [DONE]\n\n');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ choices: [{ message: { content: 'A title' } }] }));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    /** The OpenAI-compatible base, e.g. http://127.0.0.1:41234/v1. */
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    received,
    /** The questions' requests (streamed), oldest first. */
    questions: () => received.filter((r) => r.path.endsWith('/chat/completions') && r.body?.stream === true),
    answerWith: (text: string) => void (answer = text),
    list: (models: string[]) => void (listed = models),
    on: (path: string, handler: (req: IncomingMessage, res: ServerResponse) => void) => void overrides.set(path, handler),
    reset: () => {
      received.length = 0;
      overrides.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
