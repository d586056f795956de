import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';

/**
 * A chat backend on loopback that misbehaves on purpose. It answers the few JSON calls the chat
 * screen makes (create, list, detail, messages) honestly, and plays a script on the chat POST:
 * events, raw bytes, pauses, a trickle, a reset, a clean close, or nothing at all.
 */
export type FaultStep =
  /** One contract event as a `data:` line. */
  | { event: ChatEvent }
  /** Bytes written as they are (a comment, a malformed event, half a line). */
  | { raw: string }
  | { delayMs: number }
  /** Each character on its own, `everyMs` apart. */
  | { trickle: string; everyMs: number }
  /** Wait until the test opens the gate (see `FaultServer.release`). */
  | { gate: true }
  /** Stay open until the client goes away. */
  | { hang: true }
  /** Break the connection with a TCP reset. */
  | { reset: true };

export type FaultScript = {
  status?: number;
  headers?: Record<string, string>;
  /** Played after the head; the answer then closes cleanly (unless a step reset it). */
  steps?: FaultStep[];
  /** Cut the connection as soon as the request arrives: not one byte of an answer. */
  dropBeforeAnswer?: true;
};

export type SeenPost = { body: Record<string, unknown>; headers: IncomingMessage['headers']; clientWentAway: boolean };

export const CONVERSATION_ID = 'conv-fault-1';
export const USER_MESSAGE_ID = 'msg-user-1';
export const REPLY_MESSAGE_ID = 'msg-reply-1';

/** Whoever sends a bearer token is this user, until the chat endpoint is scripted to say otherwise. */
export const SIGNED_IN_USER = { id: 'user-fault-1', username: 'baker@example.com', nickname: 'Baker', avatar: '' };

export const startEvent = (): FaultStep => ({
  event: { type: 'start', conversationId: CONVERSATION_ID, userMessageId: USER_MESSAGE_ID, replyMessageId: REPLY_MESSAGE_ID },
});
export const deltaEvent = (text: string): FaultStep => ({ event: { type: 'delta', messageId: REPLY_MESSAGE_ID, text } });
export const endEvent = (): FaultStep => ({ event: { type: 'end', messageIds: [USER_MESSAGE_ID, REPLY_MESSAGE_ID] } });

export type FaultServer = {
  origin: string;
  /** Every chat POST that reached the server, in order. */
  posts: SeenPost[];
  /** The scripts for the next chat POSTs, used in order; the last one repeats. */
  script(...scripts: FaultScript[]): void;
  /** Opens the current gate step. */
  release(): void;
  reset(): void;
  close(): Promise<void>;
};

const envelope = (data: unknown) => JSON.stringify({ code: 0, msg: 'ok', data, success: true });

const conversation = () => ({
  conversationId: CONVERSATION_ID,
  source: 'agent',
  sourceId: 'SpecialNoAgentFallback',
  title: '',
  pinned: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });

/** A start event names the conversation the request was for, so a real SPA session stays coherent. */
const echoConversation = (event: ChatEvent, seen: SeenPost): ChatEvent =>
  event.type === 'start' && typeof seen.body.conversationId === 'string' ? { ...event, conversationId: seen.body.conversationId } : event;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFaultServer(): Promise<FaultServer> {
  const posts: SeenPost[] = [];
  let scripts: FaultScript[] = [];
  const sockets = new Set<Socket>();
  let openGate: (() => void) | null = null;
  let gateOpened = false;

  const nextScript = (): FaultScript => (scripts.length > 1 ? scripts.shift()! : (scripts[0] ?? { steps: [startEvent(), endEvent()] }));

  const play = async (script: FaultScript, request: IncomingMessage, response: ServerResponse, seen: SeenPost) => {
    const gone = new Promise<void>((resolve) => response.on('close', () => resolve()));
    response.on('close', () => {
      if (!response.writableFinished) seen.clientWentAway = true;
    });
    if (script.dropBeforeAnswer) {
      request.socket.resetAndDestroy();
      return;
    }
    response.writeHead(script.status ?? 200, script.headers ?? { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.flushHeaders();
    for (const step of script.steps ?? []) {
      if (response.destroyed) return;
      if ('event' in step) response.write(`data: ${JSON.stringify(echoConversation(step.event, seen))}\n\n`);
      else if ('raw' in step) response.write(step.raw);
      else if ('delayMs' in step) await Promise.race([pause(step.delayMs), gone]);
      else if ('trickle' in step) {
        for (const character of step.trickle) {
          if (response.destroyed) return;
          response.write(character);
          await Promise.race([pause(step.everyMs), gone]);
        }
      } else if ('gate' in step) {
        if (!gateOpened) await Promise.race([new Promise<void>((resolve) => (openGate = resolve)), gone]);
        gateOpened = false;
      } else if ('hang' in step) await gone;
      else if ('reset' in step) {
        request.socket.resetAndDestroy();
        return;
      }
    }
    if (!response.destroyed) response.end();
  };

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const body = request.method === 'POST' ? await readBody(request) : '';
    const json = (data: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(envelope(data));
    };
    switch (url.pathname) {
      case endpoints.chat.path: {
        const seen: SeenPost = { body: JSON.parse(body || '{}') as Record<string, unknown>, headers: request.headers, clientWentAway: false };
        posts.push(seen);
        await play(nextScript(), request, response, seen);
        return;
      }
      case endpoints.conversationCreate.path:
      case endpoints.conversationDetail.path:
        return json(conversation());
      case endpoints.conversationList.path:
        return json({ list: [], total: 0, current: 1, pageSize: 10 });
      case endpoints.messages.path:
        return json([]);
      case endpoints.userInfo.path:
        if (request.headers.authorization) return json(SIGNED_IN_USER);
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: 1, msg: 'Please log in.', data: null, success: false }));
        return;
      default:
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: 1, msg: 'No such endpoint', data: null, success: false }));
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    posts,
    script: (...next) => {
      scripts = next;
    },
    release: () => {
      if (openGate) {
        openGate();
        openGate = null;
      } else gateOpened = true;
    },
    reset: () => {
      posts.length = 0;
      scripts = [];
      openGate = null;
      gateOpened = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
