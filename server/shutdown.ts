import type { LiveAnswers, LocalAnswer } from './services/live-answers';

/** A registry of running answers that also lists those written here, so a shutdown can wait for them. */
export function watchedAnswers(inner: LiveAnswers): { answers: LiveAnswers; running(): LocalAnswer[] } {
  const running = new Set<LocalAnswer>();
  return {
    answers: {
      find: (messageId) => inner.find(messageId),
      findByQuestion: (questionId) => inner.findByQuestion(questionId),
      add(answer) {
        inner.add(answer);
        running.add(answer);
      },
      remove(answer) {
        inner.remove(answer);
        running.delete(answer);
      },
      tell: (answer, update, offset) => inner.tell(answer, update, offset),
      sweep: (options) => inner.sweep(options),
      continueWith: (continuer) => inner.continueWith(continuer),
      close: () => inner.close(),
    },
    running: () => [...running],
  };
}

/**
 * Lets the answers being written finish for up to `graceMs`, then stops the others: each is
 * stored incomplete with the text its readers were given, and its readers are told so. Resolves
 * once every answer is stored; answers how many finished and how many were stopped.
 */
export async function settleAnswers(running: () => LocalAnswer[], graceMs: number): Promise<{ finished: number; stopped: number }> {
  const before = running();
  if (before.length === 0) return { finished: 0, stopped: 0 };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.all(before.map((answer) => answer.stored)), graceOver]);
  clearTimeout(timer);
  // Answers asked for on a connection still open during the grace are stopped as well.
  const left = running();
  await Promise.all(left.map((answer) => answer.stop()));
  return { finished: Math.max(0, before.length - left.filter((answer) => before.includes(answer)).length), stopped: left.length };
}
