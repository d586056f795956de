import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGE_WINDOW, useMessageWindow } from './use-message-window';

const messages = (count: number, from = 0) => Array.from({ length: count }, (_, index) => `m${from + index}`);

describe('the message window', () => {
  const scroller = { current: document.createElement('div') };

  it('opens a long conversation on its latest messages', () => {
    const { result } = renderHook(({ list }) => useMessageWindow(list, scroller, 'c1'), { initialProps: { list: messages(1000) } });
    expect(result.current.visible).toHaveLength(MESSAGE_WINDOW);
    expect(result.current.visible.at(-1)).toBe('m999');
    expect(result.current.hidden).toBe(1000 - MESSAGE_WINDOW);
  });

  it('keeps everything said while the conversation is open, however long it grows', () => {
    const { result, rerender } = renderHook(({ list, key }) => useMessageWindow(list, scroller, key), {
      initialProps: { list: [] as string[], key: null as string | null },
    });
    rerender({ list: messages(2), key: 'c2' });
    rerender({ list: messages(2 * MESSAGE_WINDOW + 10), key: 'c2' });
    expect(result.current.hidden).toBe(0);
    expect(result.current.visible).toHaveLength(2 * MESSAGE_WINDOW + 10);
  });

  it('brings earlier messages in a window at a time, and starts over for another conversation', () => {
    const { result, rerender } = renderHook(({ list, key }) => useMessageWindow(list, scroller, key), {
      initialProps: { list: messages(100), key: 'c3' },
    });
    act(() => result.current.revealEarlier());
    expect(result.current.visible).toHaveLength(2 * MESSAGE_WINDOW);
    rerender({ list: messages(100, 1000), key: 'c4' });
    expect(result.current.visible).toHaveLength(MESSAGE_WINDOW);
    expect(result.current.visible[0]).toBe('m1060');
  });
});
