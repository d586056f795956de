// A fake OpenAI-compatible model service on 127.0.0.1 for measurements: POST .../chat/completions
// answers at once with a streamed first piece, then holds every answer open until `release()`, so
// all the streams of a round are open at the same time; then the rest and `data: [DONE]`.
// Plain JavaScript: the load bench imports it without a TypeScript loader.
import { createServer } from 'node:http';

const chunk = (content, finish = null) => `data: ${JSON.stringify({ choices: [{ delta: { content }, finish_reason: finish }] })}\n\n`;

/**
 * @param {{ pieces?: string[] }} [options]
 * @returns {Promise<{ baseUrl: string; requests: () => number; hold: () => void; release: () => void; close: () => Promise<void> }>}
 */
export async function startFakeModel(options = {}) {
  const pieces = options.pieces ?? ['Load ', 'test ', 'answer.'];
  let held = [];
  let holding = true;
  let requests = 0;
  const finish = (response) => {
    if (response.writableEnded || response.destroyed) return;
    for (const piece of pieces.slice(1, -1)) response.write(chunk(piece));
    response.end(chunk(pieces.at(-1) ?? '', 'stop') + 'data: [DONE]\n\n');
  };
  const server = createServer((request, response) => {
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404).end();
      return;
    }
    requests += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(chunk(pieces[0] ?? ''));
      if (holding) held.push(response);
      else finish(response);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    /** From now on answers are held open (the default). */
    hold: () => {
      holding = true;
    },
    /** Finishes the answers held, and every answer asked for until `hold()`. */
    release: () => {
      holding = false;
      const now = held;
      held = [];
      for (const response of now) finish(response);
    },
    close: () =>
      new Promise((done) => {
        for (const response of held) response.destroy();
        held = [];
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
