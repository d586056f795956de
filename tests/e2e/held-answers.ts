import { pause } from '../../server/agents/offline-responder';
import type { AgentRuntime } from '../../server/agents/runtime';

/** At most this many words while held: an answer a test forgot to let go still ends (in ~2 min at 60 ms). */
const MOST_HELD_WORDS = 2_000;

/**
 * Answers whose end the test decides, for browser tests that must act while an answer is still
 * being written (a second tab, a reload, Stop from elsewhere, a lost network). Each answer opens
 * with `first`, then writes one numbered word every `gapMs` for as long as answers are held, and
 * ends with `last` once they are let go. An answer written at a fixed pace ends by itself after a
 * while, and on a busy machine a step could come after that end; a held answer cannot end before
 * the test says so.
 */
export function heldAnswers(options: { first: string; last: string; gapMs: number }) {
  let held = true;
  const runtime: AgentRuntime = {
    label: 'held answers (browser tests)',
    async *streamAnswer({ signal }) {
      for (const piece of [options.first, ' ']) {
        if (signal.aborted) return;
        yield piece;
      }
      for (let word = 1; held && word <= MOST_HELD_WORDS; word += 1) {
        await pause(options.gapMs, signal);
        if (signal.aborted) return;
        // a paragraph every twenty words, so the answer grows in height as a real one does
        yield word % 20 === 0 ? `word${word}.\n\n` : `word${word} `;
      }
      await pause(options.gapMs, signal);
      if (signal.aborted) return;
      yield options.last;
    },
  };
  return {
    runtime,
    /** From now on answers keep being written until `release()` (the start). */
    hold: () => {
      held = true;
    },
    /** Every answer being written, and every one asked until `hold()`, ends at its next word. */
    release: () => {
      held = false;
    },
  };
}

/**
 * Answers written by `inner`, which a test can hold at the end of their first line: a test that
 * must act while an answer is still being written (Stop, Escape, a glance at the drafts arriving)
 * holds, asks, acts and lets go, and no pace of the machine can end the answer first. Not held,
 * answers pass through untouched.
 */
export function holdableAnswers(inner: AgentRuntime) {
  let letGo: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  const runtime: AgentRuntime = {
    label: inner.label,
    async *streamAnswer(input) {
      let lineEnded = false;
      let waited = false;
      for await (const piece of inner.streamAnswer(input)) {
        yield piece;
        lineEnded ||= piece.includes('\n');
        if (!waited && gate && lineEnded) {
          waited = true;
          await untilOpen(gate, input.signal);
          if (input.signal.aborted) return;
        }
      }
    },
  };
  return {
    runtime,
    /**
     * Until `release()`, answers stop once their first line has ended: at its end, or at their
     * next piece if they were already past it. Each answer stops once at most.
     */
    hold: () => {
      gate ??= new Promise((resolve) => {
        letGo = resolve;
      });
    },
    /** Every answer waiting goes on; answers asked from now on are not held. */
    release: () => {
      letGo?.();
      gate = undefined;
      letGo = undefined;
    },
  };
}

/** Until the gate opens or the answer is stopped, whichever comes first. */
const untilOpen = (gate: Promise<void>, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done);
    void gate.then(done);
  });
