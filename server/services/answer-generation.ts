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

/**
 * Saves the text written so far every `answerSaveIntervalMs` (not per token: one write a second
 * whatever the pace), so a server killed mid-answer still has it after a restart. A save still
 * under way when the next is due is not queued behind: the next tick saves the newer text. `stop`
 * waits for a write under way, so it cannot land after the final one. `lost` is called when the
 * answer turns out to be another's: taken over after a lease this instance failed to renew. The
 * lease itself is renewed for all the instance's answers at once (`renewAnswerLeases`).
 */
function periodicSave(services: Services, replyMessageId: string, read: () => string, lost: () => void) {
  const { answerSaveIntervalMs, leaseMs } = services.config;
  let saved = '';
  let saving: Promise<void> | null = null;
  const timer = setInterval(() => {
    const text = read();
    if (saving || text === saved) return;
    saved = text;
    saving = saveAndRenew(services.db, replyMessageId, services.instanceId, leaseMs, text)
      .then((ours) => {
        if (!ours) lost();
      })
      .catch((error: unknown) => services.log(`chat: saving a streaming answer failed: ${(error as Error).message}`))
      .finally(() => (saving = null));
  }, answerSaveIntervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await saving;
    },
  };
}

/**
 * Writes one answer, whoever reads it. The question is already stored and the answer created
 * `streaming`; the text is saved as it arrives and the answer stored as it ends: complete, failed
 * (with what arrived), or incomplete (stopped, or cut by a cap while nobody read it). The text
 * stored is always exactly the text readers were given: nothing is added once the end is decided.
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
  let text = '';
  let usage: TokenUsage | null = null;
  /** Decided once: from then on no text is added, and readers are told once it is stored. */
  let ending = false;
  let outcome: AnswerOutcome | null = null;
  let storedAs: () => void = () => {};
  const stored = new Promise<void>((resolve) => (storedAs = resolve));
  /** Set when another instance took the answer over: it is stored already, nothing more is written. */
  let lost = false;
  const saver = periodicSave(services, chat.replyMessageId, () => text, () => {
    lost = true;
    void end({ status: 'incomplete' });
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

  const finish = (outcome: { content: string; status: AnswerOutcome['status']; error?: string; usage?: TokenUsage | null }) =>
    storeAnswer(services.db, chat.replyMessageId, services.instanceId, outcome);
  const store = async (decided: AnswerOutcome): Promise<AnswerOutcome> => {
    await saver.stop();
    if (lost) return { status: 'incomplete' };
    const error = decided.status === 'failed' ? decided.msg : undefined;
    try {
      // Not stored when another instance took the answer over: it stored it incomplete.
      return (await finish({ content: text, status: decided.status, usage, ...(error ? { error } : {}) })) ? decided : { status: 'incomplete' };
    } catch (storeError) {
      if (decided.status === 'failed') return decided;
      const failed = failure(`storing the answer failed: ${describeError(storeError, services.config.logLevel)}`);
      await finish({ content: text, status: 'failed', error: failed.msg }).catch(() => {});
      return failed;
    }
  };

  /** One line and one count per answer, however it ended; `stopped`: on request (Stop, a retry, a shutdown). */
  const report = (final: AnswerOutcome, stopped: boolean) => {
    const as = stopped && final.status === 'incomplete' ? 'stopped' : final.status;
    const durationMs = Math.round(performance.now() - startedMs);
    metrics.answerEnded(as, startedMs);
    const tokens = usage ? `, ${usage.promptTokens} + ${usage.completionTokens} tokens` : '';
    services.log(`answer: ${as} after ${durationMs} ms, ${text.length} characters${tokens}`, {
      answer: chat.replyMessageId,
      agent: chat.agent.id,
      outcome: as,
      durationMs,
      chars: text.length,
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
        void nameConversation(services, chat.conversationId, questions[0]!.content, text);
      }
      for (const reader of [...readers]) reader({ type: 'settled', outcome: final });
      readers.clear();
      answers.tell(answer, { type: 'settled', outcome: final }, text.length);
      answers.remove(answer);
      storedAs();
    });
    return ended;
  };

  const followNow = (offset: number, reader: AnswerReader): Following => {
    const from = Math.min(Math.max(0, offset), text.length);
    const rest = text.slice(from);
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
    read: () => ({ text, outcome }),
    followNow,
    follow: async (offset, reader) => followNow(offset, reader),
    stop: () => end({ status: 'incomplete' }, true),
    stored,
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
      });
      let cut = false;
      for await (const piece of untilAborted(pieces, abort.signal)) {
        if (ending) break;
        const offset = text.length;
        text += piece;
        for (const reader of [...readers]) reader({ type: 'delta', text: piece });
        answers.tell(answer, { type: 'delta', text: piece }, offset);
        // Nobody reads it: an answer that runs on unattended is cut at the length cap.
        cut = readers.size === 0 && text.length >= answerUnwatchedMaxChars;
        if (cut) break;
      }
      await end(cut ? { status: 'incomplete' } : { status: 'complete', ...(usage ? { usage } : {}) });
    } catch (error) {
      if (!ending) await end(failure(describeError(error, services.config.logLevel)));
    }
  })();
  return answer;
}
