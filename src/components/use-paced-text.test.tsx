import { renderHook } from '@testing-library/react';
import { handFrames } from './hand-frames';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_STEP, STEP_BUDGET_MS, usePacedText } from './use-paced-text';

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

  it('paints a burst over a few frames, each a larger part of the same text, until all of it is shown', () => {
    const hand = handFrames();
    const text = answer(100_000);
    const { result, rerender } = renderHook(({ text }) => usePacedText(text, true, hand.frames), { initialProps: { text: '' } });
    rerender({ text });
    expect(result.current).toBe(text.slice(0, FIRST_STEP));
    const shown = [result.current.length];
    // A fast page: 8,000 characters cost 4 ms, so the next steps are as large as the budget allows.
    while (hand.waiting()) {
      hand.run(4);
      expect(text.startsWith(result.current)).toBe(true);
      shown.push(result.current.length);
    }
    expect(result.current).toBe(text);
    expect(new Set(shown).size).toBeLessThan(5);
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

  it('shows text that was replaced rather than extended whole, at once', () => {
    const hand = handFrames();
    const { result, rerender } = renderHook(({ text }) => usePacedText(text, true, hand.frames), { initialProps: { text: 'Once upon a time' } });
    rerender({ text: 'Once' });
    expect(result.current).toBe('Once');
  });
});
