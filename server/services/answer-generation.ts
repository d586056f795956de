import type { ResponderLanguage, TokenUsage } from '../agents/runtime';
import { agentFailureMessage } from '../../src/contract/agent-failure';
import type { Services } from '../deps';
import { newReference } from '../http/incident';
import { describeError } from '../http/log-line';
import { metrics } from '../observability/metrics';
import type { PreparedChat } from './chat';
import { saveAndRenew, storeAnswer } from './answer-leases';
import type { AnswerOutcome, AnswerReader, Following, LiveAnswers, LocalAnswer } from './live-answers';
import { nameConversation } from './conversation-title';

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

/** How long to wait before trying a write again while the database does not take them. */
const retryDelayMs = (failures: number) => Math.min(2000, 100 * 2 ** Math.min(failures, 5));

/**
 * The answer's text on its way to the readers, stored first. The model's pieces are gathered; a
 * write stores all that was gathered (renewing the lease) and only once it succeeds is that text
 * handed on (`show`). Writes follow each other at most every `answerCommitMs`, the first at once,
 * one at a time, so a slow model costs one write per piece and a fast one a write per interval.
 *
 * Whatever happens to this process, a database or a disk, what any reader was shown is stored:
 * killed or paused, the stored text holds all that was shown; a write that fails is tried again
 * (the readers wait) for up to `answerStoreRetryMs` of failures in a row, and then `gaveUp` ends
 * the answer; a write refused because another instance took the answer over (its lease lapsed
 * while this one was paused or cut off) calls `lost`, and nothing more is shown from here.
 */
function storedBeforeShown(
  services: Services,
  replyMessageId: string,
  /** Text already stored (an answer continued): counted as shown, never written again. */
  stored: string,
  on: { show: (text: string, offset: number) => void; lost: () => void; gaveUp: (error: unknown) => void },
) {
  const { answerCommitMs, answerStoreRetryMs, leaseMs } = services.config;
  let gathered = stored;
  let shown = stored.length;
  let writing: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastWriteMs = -Infinity;
  let failingSinceMs: number | null = null;
  let failures = 0;
  let closed = false;

  const schedule = (waitMs = Math.max(0, lastWriteMs + answerCommitMs - performance.now())) => {
    if (timer || writing || closed || gathered.length === shown) return;
    timer = setTimeout(write, waitMs);
  };
  const write = () => {
    timer = null;
    if (closed || gathered.length === shown) return;
    const text = gathered;
    lastWriteMs = performance.now();
    writing = saveAndRenew(services.db, replyMessageId, services.instanceId, leaseMs, text)
      .then(
        (ours) => {
          failingSinceMs = null;
          failures = 0;
          if (closed) return;
          if (!ours) {
            closed = true;
            on.lost();
            return;
          }
          if (text.length > shown) on.show(text.slice(shown), shown);
          shown = text.length;
        },
        (error: unknown) => {
          failures += 1;
          failingSinceMs ??= lastWriteMs;
          services.log(`chat: storing a streaming answer failed (${failures} in a row): ${(error as Error).message}`, { level: 'warn' });
          if (closed) return;
          if (performance.now() - failingSinceMs >= answerStoreRetryMs) {
            closed = true;
            on.gaveUp(error);
          }
        },
      )
      .finally(() => {
        writing = null;
        schedule(failures > 0 ? retryDelayMs(failures) : undefined);
      });
  };

  return {
    /** A piece from the model: stored, then shown. */
    gather(piece: string) {
      gathered += piece;
      schedule();
    },
    /** All the model sent so far, shown or not. */
    gathered: () => gathered,
    /** The text shown so far: every character of it is stored. */
    shown: () => gathered.slice(0, shown),
    /** No more writes of this kind; resolves once the one under way has landed. */
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await writing;
    },
    /**
     * The end's own write, tried again while the database does not take it, for what is left of
     * `answerStoreRetryMs` since the writes began failing. Resolves with what `store` answered,
     * or rejects with the last error when the time is up.
     */
    async last<T>(store: () => Promise<T>): Promise<T> {
      for (;;) {
        try {
          return await store();
        } catch (error) {
          failures += 1;
          failingSinceMs ??= performance.now();
          if (performance.now() - failingSinceMs >= answerStoreRetryMs) throw error;
          services.log(`chat: storing an answer's end failed (${failures} in a row): ${(error as Error).message}`, { level: 'warn' });
          await new Promise((resolve) => setTimeout(resolve, Math.min(retryDelayMs(failures), answerStoreRetryMs - (performance.now() - failingSinceMs!))));
        }
      }
    },
    /** Marks the text up to the end as shown, once the end's write stored it; answers what was not yet shown. */
    showAll() {
      const rest = gathered.slice(shown);
      shown = gathered.length;
      return rest;
    },
  };
}

/**
 * Writes one answer, whoever reads it. The question is already stored and the answer created
 * `streaming`; its text is stored as it arrives, before any reader is given it, and the answer
 * stored as it ends: complete, failed (with what arrived), or incomplete (stopped, or cut by a cap
 * while nobody read it). The text stored is always exactly the text readers were given, or more
 * when this instance was cut off before it could hand the rest on: never less.
 */
export function startGeneration(
  services: Services,
  answers: LiveAnswers,
  chat: PreparedChat,
  owner: string,
  /** The language the asker reads the product in, for answers the server writes itself. */
  language: ResponderLanguage | null = null,
): LocalAnswer {
  const { answerUnwatchedMaxMs, answerUnwatchedMaxChars } = services.config;
  const startedMs = performance.now();
  const abort = new AbortController();
  const readers = new Set<AnswerReader>();
  let usage: TokenUsage | null = null;
  /** Decided once: from then on no text is added, and readers are told once it is stored. */
  let ending = false;
  let outcome: AnswerOutcome | null = null;
  let storedAs: () => void = () => {};
  const stored = new Promise<void>((resolve) => (storedAs = resolve));
  /** Set when another instance took the answer over: it is stored already, nothing more is written or shown. */
  let lost = false;

  const show = (piece: string, offset: number) => {
    for (const reader of [...readers]) reader({ type: 'delta', text: piece });
    answers.tell(answer, { type: 'delta', text: piece }, offset);
  };
  const fenced = () => {
    if (lost || outcome) return;
    lost = true;
    services.log(`chat: answer ${chat.replyMessageId} was taken over by another instance; this one stops relaying it`, { level: 'warn' });
    void end({ status: 'incomplete' });
  };
  const text = storedBeforeShown(services, chat.replyMessageId, chat.continuing ?? '', {
    show,
    lost: fenced,
    gaveUp: (error) => void end(failure(`the database did not store the answer: ${describeError(error, services.config.logLevel)}`)),
  });

  let unwatchedTimer: ReturnType<typeof setTimeout> | null = null;
  const watchUnwatched = () => {
    if (unwatchedTimer || readers.size > 0 || ending) return;
    unwatchedTimer = setTimeout(() => void end({ status: 'incomplete' }), answerUnwatchedMaxMs);
  };
  const forgetUnwatched = () => {
    if (unwatchedTimer) clearTimeout(unwatchedTimer);
    unwatchedTimer = null;
  };

  const failure = (detail: string): Extract<AnswerOutcome, { status: 'failed' }> => {
    const ref = newReference();
    services.log(`chat: ref ${ref}: agent ${chat.agent.id} failed: ${detail}`, { level: 'error' });
    return { status: 'failed', msg: agentFailureMessage(ref), ref };
  };

  /**
   * Stores the end with all the text gathered, then shows what was not yet shown. When the
   * database does not take it in time, the readers are told the answer failed and shown nothing
   * more: the row keeps the text they saw, and is stored incomplete by whichever instance finds
   * its lease lapsed.
   */
  const store = async (decided: AnswerOutcome): Promise<AnswerOutcome> => {
    await text.close();
    if (lost) return { status: 'incomplete' };
    const content = text.gathered();
    const error = decided.status === 'failed' ? decided.msg : undefined;
    const finish = (status: AnswerOutcome['status'], error?: string) =>
      text.last(() => storeAnswer(services.db, chat.replyMessageId, services.instanceId, { content, status, usage, ...(error ? { error } : {}) }));
    try {
      // Not stored when another instance took the answer over: it stored it incomplete.
      if (!(await finish(decided.status, error))) return { status: 'incomplete' };
    } catch (storeError) {
      return decided.status === 'failed' ? decided : failure(`storing the answer failed: ${describeError(storeError, services.config.logLevel)}`);
    }
    const rest = text.showAll();
    if (rest) show(rest, content.length - rest.length);
    return decided;
  };

  /** One line and one count per answer, however it ended; `stopped`: on request (Stop, a retry, a shutdown). */
  const report = (final: AnswerOutcome, stopped: boolean) => {
    const as = stopped && final.status === 'incomplete' ? 'stopped' : final.status;
    const durationMs = Math.round(performance.now() - startedMs);
    const chars = text.shown().length;
    metrics.answerEnded(as, startedMs);
    const tokens = usage ? `, ${usage.promptTokens} + ${usage.completionTokens} tokens` : '';
    services.log(`answer: ${as} after ${durationMs} ms, ${chars} characters${tokens}`, {
      answer: chat.replyMessageId,
      agent: chat.agent.id,
      outcome: as,
      durationMs,
      chars,
      promptTokens: usage?.promptTokens ?? null,
      completionTokens: usage?.completionTokens ?? null,
    });
  };

  let ended: Promise<void> | null = null;
  const end = (decided: AnswerOutcome, stopped = false): Promise<void> => {
    if (ended) return ended;
    ending = true;
    forgetUnwatched();
    abort.abort();
    ended = store(decided).then((final) => {
      outcome = final;
      report(final, stopped);
      // The first exchange of a conversation, answered whole: the model names it.
      const questions = chat.history.filter((message) => message.role === 'user');
      if (services.config.modelTitles && final.status === 'complete' && questions.length === 1) {
        void nameConversation(services, chat.conversationId, questions[0]!.content, text.shown(), chat.agent.model);
      }
      for (const reader of [...readers]) reader({ type: 'settled', outcome: final });
      readers.clear();
      // Fenced off, this instance is no longer the answer's writer: its readers elsewhere hear from
      // the one that took it over (which may write it on), not from here.
      if (!lost) answers.tell(answer, { type: 'settled', outcome: final }, text.shown().length);
      answers.remove(answer);
      storedAs();
    });
    return ended;
  };

  const followNow = (offset: number, reader: AnswerReader): Following => {
    const shown = text.shown();
    const from = Math.min(Math.max(0, offset), shown.length);
    const rest = shown.slice(from);
    if (rest) reader({ type: 'delta', text: rest });
    if (outcome) {
      reader({ type: 'settled', outcome });
      return { offset: from, unfollow: () => {} };
    }
    readers.add(reader);
    forgetUnwatched();
    return {
      offset: from,
      unfollow: () => {
        readers.delete(reader);
        watchUnwatched();
      },
    };
  };

  const answer: LocalAnswer = {
    messageId: chat.replyMessageId,
    questionId: chat.userMessageId,
    conversationId: chat.conversationId,
    owner,
    read: () => ({ text: text.shown(), outcome }),
    followNow,
    follow: async (offset, reader) => followNow(offset, reader),
    stop: () => end({ status: 'incomplete' }, true),
    stored,
    fenced,
  };
  answers.add(answer);
  watchUnwatched();

  void (async () => {
    try {
      const pieces = services.runtime.streamAnswer({
        agent: chat.agent,
        history: chat.history,
        signal: abort.signal,
        onUsage: (reported) => void (usage = reported),
        ...(language ? { language } : {}),
        ...(chat.continuing !== undefined ? { continuing: chat.continuing } : {}),
      });
      let cut = false;
      for await (const piece of untilAborted(pieces, abort.signal)) {
        if (ending) break;
        text.gather(piece);
        // Nobody reads it: an answer that runs on unattended is cut at the length cap.
        cut = readers.size === 0 && text.gathered().length >= answerUnwatchedMaxChars;
        if (cut) break;
      }
      await end(cut ? { status: 'incomplete' } : { status: 'complete', ...(usage ? { usage } : {}) });
    } catch (error) {
      if (!ending) await end(failure(describeError(error, services.config.logLevel)));
    }
  })();
  return answer;
}
