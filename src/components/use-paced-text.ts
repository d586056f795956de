import { useLayoutEffect, useRef, useState } from 'react';
import { nextTask } from './next-task';

/**
 * Characters shown in order in the first step of a catch-up, before the page's pace is known.
 * Small: that step is the burst's first paint, with the end shown ahead of it (see `Markdown`),
 * and its cost is the cold one (the first blocks of their kinds, the first layout).
 */
export const FIRST_STEP = 2_000;
const MIN_STEP = 1_000;
const MAX_STEP = 200_000;
/** The work one step may cost the page (render, layout, paint): well inside a 50 ms task. */
export const STEP_BUDGET_MS = 30;

export type FrameScheduler = {
  /** Runs `next` before the next paint. */
  frame: (next: () => void) => () => void;
  /** Runs `next` once the current frame has been rendered. */
  afterFrame: (next: () => void) => void;
};

const browserFrames: FrameScheduler = {
  frame: (next) => {
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
 * shown in steps, one a frame, each as large as the last step shows the page can render within
 * its budget, so the page never freezes; text that arrives at a pace the page keeps up with is
 * shown at once. An answer already written (`arriving` false when first shown), or whose text
 * was replaced rather than extended, is shown whole.
 */
export const usePacedText = (text: string, arriving: boolean, frames: FrameScheduler = browserFrames): string => {
  /** The text painted at the last frame; steps are taken from there. */
  const [painted, setPainted] = useState(arriving ? '' : text);
  const [step, setStep] = useState(FIRST_STEP);

  const extended = text.startsWith(painted);
  const visible = extended && text.length - painted.length > step ? text.slice(0, painted.length + step) : text;
  // All of it is shown: the next steps start from here (set while rendering, so nothing renders twice).
  if (visible === text && painted !== text) setPainted(text);

  /** The size the last step's cost calls for, taken with the next step (so each frame renders once). */
  const measuredStep = useRef(FIRST_STEP);
  useLayoutEffect(() => {
    if (visible === text) return undefined;
    return frames.frame(() => {
      setStep(measuredStep.current);
      setPainted(visible);
      // The next step is rendered now; what it costs, layout and paint included, sizes the one after.
      const started = performance.now();
      const chars = Math.min(measuredStep.current, text.length - visible.length);
      frames.afterFrame(() => {
        const perChar = Math.max(performance.now() - started, 1) / chars;
        measuredStep.current = Math.round(Math.min(MAX_STEP, Math.max(MIN_STEP, STEP_BUDGET_MS / perChar)));
      });
    });
  }, [visible, text, frames]);

  return visible;
};
