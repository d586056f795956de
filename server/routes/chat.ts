import type { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { agentFailureMessage } from '../../src/contract/agent-failure';
import type { ChatEvent } from '../../src/contract/chat';
import type { ResponderLanguage } from '../agents/runtime';
import type { Services } from '../deps';
import { ownerOf, type Owner } from '../http/caller';
import { clientAddress } from '../http/client-address';
import { newReference } from '../http/incident';
import { preferredLanguage } from '../http/language';
import { describeError } from '../http/log-line';
import { defineRoute, type AppEnv } from '../http/route';
import { questionQuotas } from '../limits/identity-quotas';
import { spend } from '../limits/quotas';
import { finishReply, prepareChat, saveStreamingText, type PreparedChat } from '../services/chat';

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

/** How long a retry waits for the answer it replaces to be stored, once told to stop. */
const REPLACED_ANSWER_WAIT_MS = 3000;

/**
 * Answers this server is writing, by the question they answer. Someone who presses stop and
 * then retry at once can reach the server before it has noticed the stop: the retry stops the
 * old answer itself and waits for it to be stored, instead of being refused.
 */
type RunningAnswer = { owner: string; stop: () => void; settled: Promise<void> };
type RunningAnswers = Map<string, RunningAnswer>;

const ownerKey = (owner: Owner) => (owner.userId ? `user:${owner.userId}` : `visitor:${owner.visitorId}`);

async function stopRunningAnswer(running: RunningAnswers, questionId: string, owner: string): Promise<void> {
  const answer = running.get(questionId);
  if (!answer || answer.owner !== owner) return;
  answer.stop();
  await Promise.race([answer.settled, new Promise((resolve) => setTimeout(resolve, REPLACED_ANSWER_WAIT_MS))]);
}

/**
 * Saves the text streamed so far every `answerSaveIntervalMs` (not per token: one write a second
 * whatever the pace), so a server killed mid-answer still has it after a restart. `stop` waits for a save
 * under way, so it cannot land after the final write.
 */
function periodicSave(services: Services, replyMessageId: string, read: () => string) {
  let saved = '';
  let saving: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    const text = read();
    if (text === saved) return;
    saved = text;
    saving = saving
      .then(() => saveStreamingText(services.db, replyMessageId, text))
      .catch((error: unknown) => services.log(`chat: saving a streaming answer failed: ${(error as Error).message}`));
  }, services.config.answerSaveIntervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await saving;
    },
  };
}

/**
 * Streams one answer. The question is already stored; the text is saved as it streams, and the
 * answer is stored as it ends: complete, failed (with what arrived), or incomplete (the client
 * went away mid-answer). A failure shows the person a generic sentence and a reference; what
 * went wrong (which may quote the model service's key or address) goes to the log only.
 */
async function streamAnswer(
  services: Services,
  stream: SSEStreamingApi,
  chat: PreparedChat,
  running: RunningAnswers,
  owner: string,
  language: ResponderLanguage | null,
) {
  const abort = new AbortController();
  stream.onAbort(() => abort.abort());
  let settle = () => {};
  const me: RunningAnswer = { owner, stop: () => abort.abort(), settled: new Promise<void>((resolve) => (settle = resolve)) };
  running.set(chat.userMessageId, me);
  const heartbeat = setInterval(() => void stream.write(': ping\n\n'), services.config.sseHeartbeatMs);
  let content = '';
  const saver = periodicSave(services, chat.replyMessageId, () => content);
  const failed = async (detail: string) => {
    const ref = newReference();
    services.log(`chat: ref ${ref}: agent ${chat.agent.id} failed: ${detail}`);
    const msg = agentFailureMessage(ref);
    await saver.stop();
    await finishReply(services.db, chat.replyMessageId, { content, status: 'failed', error: msg }).catch(() => {});
    await send(stream, { type: 'error', msg, ref }).catch(() => {});
  };
  try {
    await send(stream, {
      type: 'start',
      conversationId: chat.conversationId,
      userMessageId: chat.userMessageId,
      replyMessageId: chat.replyMessageId,
    });
    try {
      const pieces = services.runtime.streamAnswer({
        agent: chat.agent,
        history: chat.history,
        signal: abort.signal,
        ...(language ? { language } : {}),
      });
      for await (const piece of untilAborted(pieces, abort.signal)) {
        if (abort.signal.aborted) break;
        content += piece;
        await send(stream, { type: 'delta', messageId: chat.replyMessageId, text: piece });
      }
    } catch (error) {
      if (!abort.signal.aborted) {
        await failed(describeError(error, services.config.logLevel));
        return;
      }
    }
    await saver.stop();
    if (abort.signal.aborted) {
      await finishReply(services.db, chat.replyMessageId, { content, status: 'incomplete' });
      return;
    }
    await finishReply(services.db, chat.replyMessageId, { content, status: 'complete' });
    await send(stream, { type: 'end', messageIds: [chat.userMessageId, chat.replyMessageId] });
  } catch (error) {
    await failed(`storing the answer failed: ${describeError(error, services.config.logLevel)}`);
  } finally {
    clearInterval(heartbeat);
    await saver.stop();
    if (running.get(chat.userMessageId) === me) running.delete(chat.userMessageId);
    settle();
  }
}

export function chatRoutes(app: Hono<AppEnv>, services: Services) {
  const running: RunningAnswers = new Map();
  defineRoute(app, services, 'chat', async ({ input, caller, c }) => {
    const owner = ownerOf(caller);
    if (input.retryMessageId !== undefined) await stopRunningAnswer(running, input.retryMessageId, ownerKey(owner));
    // Everything that can be refused is refused here, as a JSON error, before the stream opens.
    const quotas = questionQuotas(services.config, owner, clientAddress(c, services.config.trustProxy));
    await spend(services.counters, quotas, 1, services.clock.now());
    let chat: PreparedChat;
    try {
      chat = await prepareChat(services.db, services.clock, caller, owner, input, {
        historyCharBudget: services.config.historyCharBudget,
        streamingAnswers: services.config.streamingAnswersPerIdentity,
      });
    } catch (error) {
      // A question refused here never reaches the agent: it costs nothing.
      await services.counters.takeBack(quotas.map((quota) => quota.key));
      throw error;
    }
    // Proxies such as nginx would otherwise hold the deltas back until the answer is complete.
    c.header('X-Accel-Buffering', 'no');
    const language = preferredLanguage(c.req.header('accept-language'));
    return streamSSE(c, (stream) => streamAnswer(services, stream, chat, running, ownerKey(owner), language));
  });
}
