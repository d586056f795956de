import type { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { ChatEvent } from '../../src/contract/chat';
import { AgentError } from '../agents/runtime';
import type { Services } from '../deps';
import { ownerOf } from '../http/caller';
import { defineRoute, type AppEnv } from '../http/route';
import { finishReply, prepareChat, type PreparedChat } from '../services/chat';

const GENERIC_FAILURE = 'The agent could not answer this time. Please try again.';

/** Iterates until the signal aborts, even when the source ignores the signal and hangs. */
async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncIterable<T> {
  const iterator = source[Symbol.asyncIterator]();
  const aborted = new Promise<'aborted'>((resolve) => {
    if (signal.aborted) resolve('aborted');
    signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next === 'aborted' || next.done) return;
      yield next.value;
    }
  } finally {
    void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}

const send = (stream: SSEStreamingApi, event: ChatEvent) => stream.writeSSE({ data: JSON.stringify(event) });

/**
 * Streams one answer. The question is already stored; the answer is stored as it ends: complete,
 * failed (agent error, with what arrived), or incomplete (the client went away mid-answer).
 */
async function streamAnswer(services: Services, stream: SSEStreamingApi, chat: PreparedChat) {
  const abort = new AbortController();
  stream.onAbort(() => abort.abort());
  const heartbeat = setInterval(() => void stream.write(': ping\n\n'), services.config.sseHeartbeatMs);
  let content = '';
  try {
    await send(stream, {
      type: 'start',
      conversationId: chat.conversationId,
      userMessageId: chat.userMessageId,
      replyMessageId: chat.replyMessageId,
    });
    try {
      const pieces = services.runtime.streamAnswer({ agent: chat.agent, history: chat.history, signal: abort.signal });
      for await (const piece of untilAborted(pieces, abort.signal)) {
        if (abort.signal.aborted) break;
        content += piece;
        await send(stream, { type: 'delta', messageId: chat.replyMessageId, text: piece });
      }
    } catch (error) {
      if (!abort.signal.aborted) {
        if (!(error instanceof AgentError)) services.log(`chat: agent ${chat.agent.id} failed: ${(error as Error).stack ?? error}`);
        const msg = error instanceof AgentError ? error.message : GENERIC_FAILURE;
        await finishReply(services.db, chat.replyMessageId, { content, status: 'failed', error: msg });
        await send(stream, { type: 'error', msg });
        return;
      }
    }
    if (abort.signal.aborted) {
      await finishReply(services.db, chat.replyMessageId, { content, status: 'incomplete' });
      return;
    }
    await finishReply(services.db, chat.replyMessageId, { content, status: 'complete' });
    await send(stream, { type: 'end', messageIds: [chat.userMessageId, chat.replyMessageId] });
  } catch (error) {
    services.log(`chat: storing the answer failed: ${(error as Error).stack ?? error}`);
    await finishReply(services.db, chat.replyMessageId, { content, status: 'failed', error: GENERIC_FAILURE }).catch(() => {});
    await send(stream, { type: 'error', msg: GENERIC_FAILURE });
  } finally {
    clearInterval(heartbeat);
  }
}

export function chatRoutes(app: Hono<AppEnv>, services: Services) {
  defineRoute(app, services, 'chat', async ({ input, caller, c }) => {
    // Everything that can be refused is refused here, as a JSON error, before the stream opens.
    const chat = await prepareChat(services.db, services.clock, caller, ownerOf(caller), input);
    // Proxies such as nginx would otherwise hold the deltas back until the answer is complete.
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, (stream) => streamAnswer(services, stream, chat));
  });
}
