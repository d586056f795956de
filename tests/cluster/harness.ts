import { SERVE_ARGS } from '../../server/test/serve-command';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The pieces of a small deployment on loopback, for the cluster test: server instances as real
 * processes (`npm run serve`: the server's build) on one PostgreSQL, an S3-compatible
 * store, a round-robin proxy in front, and an OpenAI-compatible model endpoint the test controls.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Listens on a free loopback port; the backlog holds a thousand connections opened at once. */
const listen = (server: Server) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', 4096, () => resolve((server.address() as { port: number }).port));
  });
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * An OpenAI-compatible `/chat/completions` that streams `pieces` pieces, `gapMs` apart (the first
 * at once). A question containing "[long]" gets `longPieces` pieces instead, for stop and resume.
 */
export async function startFakeModel(options: { pieces?: number; gapMs?: number; longPieces?: number } = {}) {
  const { pieces = 5, gapMs = 5, longPieces = 400 } = options;
  let requests = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests += 1;
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const count = body.includes('[long]') ? longPieces : pieces;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let sent = 0;
      const send = () => {
        if (res.destroyed) return;
        if (sent === count) {
          res.end('data: [DONE]\n\n');
          return;
        }
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: `word${sent} ` } }] })}\n\n`);
        sent += 1;
        setTimeout(send, gapMs);
      };
      send();
    });
  });
  const port = await listen(server);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests: () => requests, close: () => closeServer(server) };
}

export type Instance = {
  name: string;
  url: string;
  output: () => string;
  /** Ends the process with this signal and waits for it to exit; answers its exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  /** Sends a signal and goes on (SIGSTOP and SIGCONT: a paused machine). */
  signal: (signal: NodeJS.Signals) => void;
};

/**
 * One server instance as a process, answering once it says where it runs. Its data folder is a
 * new one, removed when it stops, unless one is given (to start again on the same data).
 */
export async function startInstance(name: string, env: Record<string, string>, options: { dataDir?: string } = {}): Promise<Instance> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), `kraken-${name}-`));
  const child: ChildProcess = spawn(process.execPath, SERVE_ARGS, {
    cwd: REPO,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /running at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`instance ${name} exited (${code}) before it started:\n${output}`)));
  });
  return {
    name,
    url,
    output: () => output,
    signal: (signal) => void child.kill(signal),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** A round-robin proxy: each request goes to the next instance, bodies streamed both ways. */
export async function startProxy(targets: () => string[]) {
  let next = 0;
  // A new connection per request: an instance's idle keep-alive connection closing as the proxy
  // reuses it would show as a reset no client caused.
  const upstreamAgent = new Agent({ keepAlive: false });
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const live = targets();
    const target = new URL(live[next++ % live.length]!);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent: upstreamAgent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Longer than any client keeps an idle connection: a client never sends on one the proxy just closed.
  server.keepAliveTimeout = 60_000;
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    },
  };
}

/**
 * LinkedIn's Posts API as far as a text post goes: records every post, answers the later ones as
 * LinkedIn does, and holds the first one unanswered, telling the test when its connection drops
 * (the instance that sent it was killed).
 */
export async function startHeldLinkedIn() {
  let posts = 0;
  let firstHeld: (() => void) | null = null;
  const heldDropped = new Promise<void>((resolve) => (firstHeld = resolve));
  let heldArrived: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (heldArrived = resolve));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/rest/posts')) {
        res.writeHead(404).end();
        return;
      }
      posts += 1;
      if (posts === 1) {
        res.socket?.once('close', () => firstHeld?.());
        heldArrived();
        return;
      }
      res.writeHead(201, { 'x-restli-id': `urn:li:share:${posts}` }).end();
    });
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    posts: () => posts,
    /** The first post reached the platform and waits for its answer. */
    arrived,
    /** The connection of the held post closed. */
    heldDropped,
    close: async () => {
      server.closeAllConnections();
      await closeServer(server);
    },
  };
}
