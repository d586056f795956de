import { useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { nextTask } from './next-task';

/**
 * Characters shown in order in the first step of a catch-up, before the page's pace is known.
 * Small: that step is the burst's first paint, with the end shown ahead of it (see `Markdown`),
 * and its cost is the cold one (the first blocks of their kinds, the first layout).
 */
export const FIRST_STEP = 2_000;
const MIN_STEP = 1_000;
const MAX_STEP = 200_000;
/**
 * A step is at most this many times the last: what one step cost says little about text of
 * another kind after it (a run of paragraphs, then tables and code), and a wrong guess must not
 * put the rest of a burst in one frame.
 */
const MAX_GROWTH = 2;
/** The work one step may cost the page: well inside a 50 ms task. */
export const STEP_BUDGET_MS = 30;

/** The next step waits at most this long for the page to be idle (then it is taken anyway). */
export const STEP_WAIT_MS = 150;

export type FrameScheduler = {
  /** Runs `next` when the page next has time to spare: see `usePacedText`. */
  frame: (next: () => void) => () => void;
  /** Runs `next` in a task of its own, once what `frame` ran has been rendered. */
  afterFrame: (next: () => void) => void;
};

const browserFrames: FrameScheduler = {
  frame: (next) => {
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(next, { timeout: STEP_WAIT_MS });
      return () => cancelIdleCallback(handle);
    }
    if (typeof requestAnimationFrame === 'function') {
      const handle = requestAnimationFrame(next);
      return () => cancelAnimationFrame(handle);
    }
    const handle = setTimeout(next, 16);
    return () => clearTimeout(handle);
  },
  afterFrame: nextTask,
};

/**
 * The part of a growing answer to render now. Text that arrives faster than the page can render
 * it (a model that sends thousands of tokens at once, a proxy that flushes a whole answer) is
 * shown in steps, so the page never freezes; text that arrives at a pace the page keeps up with is
 * shown at once. An answer already written (`arriving` false when first shown), or whose text
 * was replaced rather than extended, is shown whole.
 *
 * The steps fill in the answer in order behind its end, which `Markdown` shows at once; they are
 * taken when the page is idle (within `STEP_WAIT_MS`), so that text still arriving and the end's
 * paint go first: taken every frame, a step's render came between the last bytes and their paint
 * (ADR 015). Each step is rendered inside the callback that takes it, and what that cost sizes the
 * next: as large as fits `STEP_BUDGET_MS`, at most twice the last.
 */
export const usePacedText = (text: string, arriving: boolean, frames: FrameScheduler = browserFrames): string => {
  /** The text painted at the last frame; steps are taken from there. */
  const [painted, setPainted] = useState(arriving ? '' : text);
  const [step, setStep] = useState(FIRST_STEP);

  const extended = text.startsWith(painted);
  const visible = extended && text.length - painted.length > step ? text.slice(0, painted.length + step) : text;
  // All of it is shown: the next steps start from here (set while rendering, so nothing renders twice).
  if (visible === text && painted !== text) setPainted(text);

  /** The size the last step's cost calls for, taken with the next step. */
  const measuredStep = useRef(FIRST_STEP);
  /** What is rendered, for the step waiting: text that arrives meanwhile does not put it off. */
  const shown = useRef({ text, visible });
  const cancelStep = useRef<(() => void) | null>(null);
  useLayoutEffect(() => {
    shown.current = { text, visible };
    if (visible === text || cancelStep.current) return;
    cancelStep.current = frames.frame(() => {
      cancelStep.current = null;
      const now = shown.current;
      if (now.visible === now.text) return;
      const taken = measuredStep.current;
      const chars = Math.min(taken, now.text.length - now.visible.length);
      const started = performance.now();
      // The next step is rendered now (an update made here would otherwise be rendered in a task
      // of its own, after the measurement); what it costs sizes the one after.
      flushSync(() => {
        setStep(taken);
        setPainted(now.visible);
      });
      frames.afterFrame(() => {
        const perChar = Math.max(performance.now() - started, 1) / chars;
        const fits = Math.round(STEP_BUDGET_MS / perChar);
        measuredStep.current = Math.min(MAX_STEP, taken * MAX_GROWTH, Math.max(MIN_STEP, fits));
      });
    });
  }, [visible, text, frames]);
  useLayoutEffect(
    () => () => {
      cancelStep.current?.();
      cancelStep.current = null;
    },
    [],
  );

  return visible;
};
