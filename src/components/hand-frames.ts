import { act } from '@testing-library/react';
import { vi } from 'vitest';
import type { FrameScheduler } from './use-paced-text';

/**
 * For tests: frames run by hand, on a clock of their own. `run(costMs)` runs the waiting frame,
 * says its rendering cost `costMs` (a number, or worked out after the frame from what it did),
 * then runs what waited for the end of the frame (the step's measurement).
 */
export const handFrames = () => {
  let clock = 0;
  let pending: (() => void) | null = null;
  let after: (() => void) | null = null;
  let asked = 0;
  const frames: FrameScheduler = {
    frame: (next) => {
      asked += 1;
      pending = next;
      return () => {
        if (pending === next) pending = null;
      };
    },
    afterFrame: (next) => {
      after = next;
    },
  };
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  return {
    frames,
    waiting: () => pending !== null,
    /** How many times a frame was asked for. */
    asked: () => asked,
    /** Runs the waiting frame outside `act`: only what the frame itself renders synchronously is rendered by its end. */
    runAsTheBrowserDoes: () => {
      const next = pending;
      pending = null;
      next?.();
    },
    run: (costMs: number | (() => number)) => {
      const next = pending;
      pending = null;
      act(() => next?.());
      clock += typeof costMs === 'function' ? costMs() : costMs;
      const measured = after;
      after = null;
      measured?.();
    },
  };
};
