import { renderHook } from '@testing-library/react';
import { handFrames } from './hand-frames';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_STEP, STEP_BUDGET_MS, STEP_WAIT_MS, usePacedText } from './use-paced-text';

const answer = (length: number) => Array.from({ length }, (_, index) => String.fromCharCode(97 + (index % 26))).join('');

describe('painting an answer within the frame budget', () => {
  afterEach(() => void vi.restoreAllMocks());

  it('shows an answer already written whole, at once', () => {
    const hand = handFrames();
    const text = answer(100_000);
    const { result } = renderHook(() => usePacedText(text, false, hand.frames));
    expect(result.current).toBe(text);
    expect(hand.waiting()).toBe(false);
  });

  it('shows text that arrives at a pace the page keeps up with as it arrives', () => {
    const hand = handFrames();
    const { result, rerender } = renderHook(({ text }) => usePacedText(text, true, hand.frames), { initialProps: { text: '' } });
    for (const text of ['Hel', 'Hello', 'Hello, world']) {
      rerender({ text });
      expect(result.current).toBe(text);
    }
  });

  it('paints a burst over a few frames, each a larger part of the same text and at most twice the last, until all of it is shown', () => {
    const hand = handFrames();
    const text = answer(100_000);
    const { result, rerender } = renderHook(({ text }) => usePacedText(text, true, hand.frames), { initialProps: { text: '' } });
    rerender({ text });
    expect(result.current).toBe(text.slice(0, FIRST_STEP));
    const shown = [result.current.length];
    // A fast page: every step costs 4 ms, so each is as large as the growth allows.
    while (hand.waiting()) {
      hand.run(4);
      expect(text.startsWith(result.current)).toBe(true);
      shown.push(result.current.length);
    }
    expect(result.current).toBe(text);
    const steps = shown.map((length, index) => length - (shown[index - 1] ?? 0));
    expect(steps.slice(0, -1)).toEqual([2_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
    expect(steps.at(-1)).toBe(100_000 - 64_000);
  });

  it('renders the next step inside the frame, so that what is measured after the frame is its cost', () => {
    const hand = handFrames();
    const text = answer(100_000);
    const { result, rerender } = renderHook(({ text }) => usePacedText(text, true, hand.frames), { initialProps: { text: '' } });
    rerender({ text });
    // The frame runs as the browser runs it, outside React's test scheduler: the step is on the page when it returns.
    hand.runAsTheBrowserDoes();
    expect(result.current).toBe(text.slice(0, 2 * FIRST_STEP));
  });

  it('takes smaller steps on a page that renders slowly, so no frame runs long', () => {
    const hand = handFrames();
    const text = answer(100_000);
    const { result, rerender } = renderHook(({ text }) => usePacedText(text, true, hand.frames), { initialProps: { text: '' } });
    rerender({ text });
    // The next step costs the page twice the budget: the one after is half as large.
    hand.run(STEP_BUDGET_MS * 2);
    expect(result.current).toBe(text.slice(0, 2 * FIRST_STEP));
    hand.run(1);
    expect(result.current).toBe(text.slice(0, 2 * FIRST_STEP + FIRST_STEP / 2));
  });

  it('keeps the step waiting when more text arrives, so a stream that goes on cannot put the catch-up off', () => {
    const hand = handFrames();
    const { result, rerender } = renderHook(({ text }) => usePacedText(text, true, hand.frames), { initialProps: { text: '' } });
    const text = answer(100_000);
    rerender({ text: text.slice(0, 50_000) });
    expect(hand.asked()).toBe(1);
    rerender({ text: text.slice(0, 75_000) });
    rerender({ text });
    expect(hand.asked()).toBe(1);
    hand.run(1);
    expect(result.current).toBe(text.slice(0, 2 * FIRST_STEP));
  });

  it('takes its steps when the page is idle, and within a short wait when it is not', () => {
    const idle = vi.fn((_next: IdleRequestCallback, _options?: IdleRequestOptions) => 1);
    vi.stubGlobal('requestIdleCallback', idle);
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    try {
      const { rerender, unmount } = renderHook(({ text }) => usePacedText(text, true), { initialProps: { text: '' } });
      rerender({ text: answer(100_000) });
      expect(idle).toHaveBeenCalledTimes(1);
      expect(idle.mock.calls[0]?.[1]).toEqual({ timeout: STEP_WAIT_MS });
      unmount();
      expect(cancelIdleCallback).toHaveBeenCalledWith(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('shows text that was replaced rather than extended whole, at once', () => {
    const hand = handFrames();
    const { result, rerender } = renderHook(({ text }) => usePacedText(text, true, hand.frames), { initialProps: { text: 'Once upon a time' } });
    rerender({ text: 'Once' });
    expect(result.current).toBe('Once');
  });
});
