import type { Context, Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { failureReference } from '../../src/contract/agent-failure';
import type { ChatEvent } from '../../src/contract/chat';
import type { Services } from '../deps';
import { ownerOf, type Caller, type Owner } from '../http/caller';
import { clientAddress } from '../http/client-address';
import { insufficientStorage } from '../http/errors';
import { preferredLanguage } from '../http/language';
import { requestReceivedMs } from '../http/request-id';
import { defineRoute, type AppEnv, type Handler } from '../http/route';
import { deltaBatcher } from './delta-batcher';
import { metrics } from '../observability/metrics';
import { questionQuotas } from '../limits/identity-quotas';
import { spend } from '../limits/quotas';
import { startGeneration } from '../services/answer-generation';
import { findOwnedAnswer } from '../services/answers';
import { prepareChat, type PreparedChat } from '../services/chat';
import { toMessage, type MessageRow } from '../services/conversations';
import { localLiveAnswers, type AnswerOutcome, type AnswerUpdate, type LiveAnswer, type LiveAnswers } from '../services/live-answers';
import type { StreamSlot } from '../services/open-streams';

type ChatInput = Parameters<Handler<'chat'>>[0]['input'];

/** How a retry waits for the answer it replaces to be stored, once told to stop. */
const REPLACED_ANSWER_WAIT_MS = 3000;

const ownerKey = (owner: Owner) => (owner.userId ? `user:${owner.userId}` : `visitor:${owner.visitorId}`);

/**
 * Someone who presses stop and then retry at once can reach the server before the stop: the
 * retry stops the old answer itself and waits for it to be stored, instead of being refused.
 */
async function stopRunningAnswer(answers: LiveAnswers, questionId: string, owner: string): Promise<void> {
  const answer = await answers.findByQuestion(questionId);
  if (!answer || answer.owner !== owner) return;
  await Promise.race([answer.stop(), new Promise((resolve) => setTimeout(resolve, REPLACED_ANSWER_WAIT_MS))]);
}

/** What closes a stream, by how the answer ended; `null` closes it without an event. */
type Closing = (outcome: AnswerOutcome) => ChatEvent | null;

/** The chat call's own ending, as old clients know it: a stopped answer just closes. */
const chatClosing = (answer: Pick<LiveAnswer, 'questionId' | 'messageId'>): Closing => (outcome) =>
  outcome.status === 'complete'
    ? { type: 'end', messageIds: [answer.questionId, answer.messageId], ...(outcome.usage ? { usage: outcome.usage } : {}) }
    : outcome.status === 'failed'
      ? { type: 'error', msg: outcome.msg, ref: outcome.ref }
      : null;

/** The resume call says how every answer ended, a stopped one included. */
const resumeClosing = (answer: Pick<LiveAnswer, 'questionId' | 'messageId'>): Closing => (outcome) =>
  outcome.status === 'incomplete' ? { type: 'incomplete', messageId: answer.messageId } : chatClosing(answer)(outcome);

/**
 * Relays one answer to one reader: `first`, the text from `offset`, the text as it is written,
 * then how it ended. The reader leaving (a reload, a closed tab, a lost network) only ends this
 * relay: the answer goes on for its other readers and is stored all the same.
 *
 * Text is not sent a piece at a time: what arrives while a write is still under way (a slow
 * socket), or within `sseDeltaBatchMs` of its arrival, goes out as one delta event. A fast model
 * then costs a few events a frame instead of one per token, and a reader that cannot keep up
 * gets bigger events instead of a growing queue. Pending text always goes before any other
 * event, in order, so offsets stay exact.
 */
function relay(
  services: Services,
  stream: SSEStreamingApi,
  answer: LiveAnswer,
  offset: number,
  first: (offset: number) => ChatEvent,
  closing: Closing,
  slot: StreamSlot,
) {
  return new Promise<void>((resolve) => {
    let queue: Promise<unknown> = Promise.resolve();
    const write = (text: string) => {
      queue = queue.then(() => stream.write(text)).catch(() => {});
    };
    const send = (event: ChatEvent) => write(`data: ${JSON.stringify(event)}\n\n`);
    const deltas = deltaBatcher((text) => {
      send({ type: 'delta', messageId: answer.messageId, text });
      return queue;
    }, services.config.sseDeltaBatchMs);
    /** Any other event goes after the text that came before it. */
    const sendAfterText = (event: ChatEvent) => {
      deltas.flush();
      send(event);
    };
    const heartbeat = setInterval(() => write(': ping\n\n'), services.config.sseHeartbeatMs);
    let unfollow = () => {};
    let over = false;
    const close = () => {
      if (over) return;
      over = true;
      clearInterval(heartbeat);
      deltas.flush();
      unfollow();
      void queue.then(() => resolve());
    };
    stream.onAbort(close);
    // Signed out (here or on another instance): the reader's stream ends; the answer goes on and is stored.
    if (slot.ended.aborted) close();
    else slot.ended.addEventListener('abort', close, { once: true });
    const tell = (update: AnswerUpdate) => {
      if (over) return;
      if (update.type === 'delta') {
        deltas.add(update.text);
        return;
      }
      const last = closing(update.outcome);
      if (last) sendAfterText(last);
      close();
    };
    // The text from the offset and every later piece come in order; what comes before the offset
    // actually used is known (an answer written elsewhere) is held until `first` is sent.
    let early: AnswerUpdate[] | null = [];
    void answer
      .follow(offset, (update) => (early ? early.push(update) : tell(update)))
      .then((following) => {
        unfollow = following.unfollow;
        send(first(following.offset));
        const held = early ?? [];
        early = null;
        for (const update of held) tell(update);
        if (over) unfollow();
      })
      .catch(() => close());
  });
}

/** An answer that is not being written here: what is stored, told as the resume call tells it. */
async function replayStored(stream: SSEStreamingApi, row: MessageRow, offset: number) {
  const from = Math.min(offset, row.content.length);
  const events: ChatEvent[] = [{ type: 'resume', messageId: row.id, offset: from }];
  if (row.content.length > from) events.push({ type: 'delta', messageId: row.id, text: row.content.slice(from) });
  const ids = { questionId: row.replyTo ?? '', messageId: row.id };
  if (row.status === 'complete') {
    const { usage } = toMessage(row);
    events.push({ type: 'end', messageIds: ids.questionId ? [ids.questionId, row.id] : [row.id], ...(usage ? { usage } : {}) });
  }
  if (row.status === 'incomplete') events.push({ type: 'incomplete', messageId: row.id });
  if (row.status === 'failed') {
    const msg = toMessage(row).error ?? '';
    const ref = failureReference(msg);
    events.push({ type: 'error', msg, ...(ref ? { ref } : {}) });
  }
  // Still `streaming` but written by no one here: the stream closes without an ending.
  for (const event of events) await stream.writeSSE({ data: JSON.stringify(event) });
}

export function chatRoutes(app: Hono<AppEnv>, services: Services, answers: LiveAnswers = localLiveAnswers()) {
  defineRoute(app, services, 'chat', async ({ input, caller, c }) => {
    const owner = ownerOf(caller);
    const slot = services.streams.open(caller, owner);
    try {
      return await answerStream(input, caller, owner, c, slot);
    } catch (error) {
      slot.close();
      throw error;
    }
  });

  async function answerStream(input: ChatInput, caller: Caller, owner: Owner, c: Context, slot: StreamSlot) {
    const received = requestReceivedMs() ?? performance.now();
    // A question whose answer could not be stored is not asked: no text would be shown and then lost.
    const full = await services.storageRoom();
    if (full) {
      services.log(`chat: a question was refused: ${full}`, { level: 'warn' });
      throw insufficientStorage('The server has no room left to store messages. Your message was not sent; please try again later.');
    }
    if (input.retryMessageId !== undefined) await stopRunningAnswer(answers, input.retryMessageId, ownerKey(owner));
    // Everything that can be refused is refused here, as a JSON error, before the stream opens.
    const quotas = questionQuotas(services.config, owner, clientAddress(c, services.config.trustProxy));
    await spend(services.counters, quotas, 1, services.clock.now());
    let chat: PreparedChat;
    try {
      // Kept in memory: a question reads no table for it (server/models/registry.ts).
      const registry = await services.models.current();
      chat = await prepareChat(
        services.db,
        services.clock,
        caller,
        owner,
        input,
        {
          historyCharBudget: services.config.historyCharBudget,
          streamingAnswers: services.config.streamingAnswersPerIdentity,
          lease: { owner: services.instanceId, ms: services.config.leaseMs },
        },
        registry,
      );
    } catch (error) {
      // A question refused here never reaches the agent: it costs nothing.
      await services.counters.takeBack(quotas.map((quota) => quota.key));
      throw error;
    }
    const answer = startGeneration(services, answers, chat, ownerKey(owner), preferredLanguage(c.req.header('accept-language')));
    // Proxies such as nginx would otherwise hold the deltas back until the answer is complete.
    c.header('X-Accel-Buffering', 'no');
    const start: ChatEvent = {
      type: 'start',
      conversationId: chat.conversationId,
      userMessageId: chat.userMessageId,
      replyMessageId: chat.replyMessageId,
      userMessageCreatedAt: chat.userMessageCreatedAt.toISOString(),
      replyMessageCreatedAt: chat.replyMessageCreatedAt.toISOString(),
      model: chat.model,
    };
    const first = () => {
      metrics.firstEventSent(received);
      return start;
    };
    // A continued answer's reader has its text already: the stream carries what is added.
    const from = chat.continuing?.length ?? 0;
    return streamSSE(c, (stream) => relay(services, stream, answer, from, first, chatClosing(answer), slot).finally(slot.close));
  }

  defineRoute(app, services, 'chatResume', async ({ input, caller, c }) => {
    const owner = ownerOf(caller);
    const slot = services.streams.open(caller, owner);
    try {
      const row = await findOwnedAnswer(services.db, owner, input.conversationId, input.messageId);
      const live = await answers.find(row.id);
      c.header('X-Accel-Buffering', 'no');
      if (live && live.owner === ownerKey(owner)) {
        return streamSSE(c, (stream) =>
          relay(services, stream, live, input.offset, (offset) => ({ type: 'resume', messageId: live.messageId, offset }), resumeClosing(live), slot).finally(
            slot.close,
          ),
        );
      }
      // Read again: it may have been stored since it was looked for among the running answers.
      const stored = await findOwnedAnswer(services.db, owner, input.conversationId, input.messageId);
      return streamSSE(c, (stream) => replayStored(stream, stored, input.offset).finally(slot.close));
    } catch (error) {
      slot.close();
      throw error;
    }
  });

  defineRoute(app, services, 'chatStop', async ({ input, caller }) => {
    const owner = ownerOf(caller);
    const row = await findOwnedAnswer(services.db, owner, input.conversationId, input.messageId);
    const live = await answers.find(row.id);
    if (live && live.owner === ownerKey(owner)) await live.stop();
    return toMessage(await findOwnedAnswer(services.db, owner, input.conversationId, input.messageId));
  });
}
