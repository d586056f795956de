import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useStickToBottom } from './use-stick-to-bottom';

/** A scroll box's geometry, which jsdom does not lay out: the test says how tall the content is. */
type Geometry = { height: number; client: number; top: number };

const SCREEN = 600;

let observers: Array<() => void> = [];

class FakeResizeObserver {
  private readonly callback: () => void;
  constructor(callback: () => void) {
    this.callback = callback;
    observers.push(this.callback);
  }
  observe() {}
  disconnect() {
    observers = observers.filter((callback) => callback !== this.callback);
  }
}

beforeEach(() => {
  observers = [];
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  // Content changes are followed at once here, not at the next frame.
  vi.stubGlobal('requestAnimationFrame', undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const Chat = ({ content }: { content: string }) => {
  const { ref, atBottom, onScroll, jumpToLatest } = useStickToBottom<HTMLDivElement>(content);
  return (
    <>
      <div ref={ref} onScroll={onScroll} data-testid="box" tabIndex={0}>
        <p>{content}</p>
        <textarea aria-label="Edit" />
      </div>
      {!atBottom && (
        <button type="button" onClick={jumpToLatest}>
          Jump to latest
        </button>
      )}
    </>
  );
};

/** The chat with a box whose scroll geometry the test drives, starting at the end of 3 screens. */
const renderChat = () => {
  const geometry: Geometry = { height: 3 * SCREEN, client: SCREEN, top: 2 * SCREEN };
  const view = render(<Chat content="first" />);
  const box = screen.getByTestId('box');
  Object.defineProperties(box, {
    scrollHeight: { configurable: true, get: () => geometry.height },
    clientHeight: { configurable: true, get: () => geometry.client },
    clientWidth: { configurable: true, get: () => 800 },
    scrollTop: {
      configurable: true,
      get: () => geometry.top,
      set: (value: number) => {
        geometry.top = Math.max(0, Math.min(value, geometry.height - geometry.client));
      },
    },
  });
  box.scrollTo = ((options: ScrollToOptions) => {
    box.scrollTop = options.top ?? 0;
    fireEvent.scroll(box);
  }) as typeof box.scrollTo;
  const atEnd = () => geometry.top === geometry.height - geometry.client;
  /** Content grows by `px` without anyone scrolling; the browser reports a scroll at `top` if given (anchoring). */
  const grow = (px: number, options: { scrollTo?: number } = {}) => {
    geometry.height += px;
    if (options.scrollTo !== undefined) {
      geometry.top = options.scrollTo;
      fireEvent.scroll(box);
    }
  };
  /** The resize observers see the new size (after layout, before paint). */
  const laidOut = () => act(() => observers.forEach((callback) => callback()));
  const readerScrollsTo = (top: number) => {
    box.scrollTop = top;
    fireEvent.scroll(box);
  };
  // A browser's observers report the first size as soon as they observe.
  laidOut();
  return { ...view, box, geometry, atEnd, grow, laidOut, readerScrollsTo };
};

const jumpButton = () => screen.queryByRole('button', { name: 'Jump to latest' });

describe('useStickToBottom', () => {
  it('follows an answer that grows by several screens between two frames, with scroll events far from the end', () => {
    const chat = renderChat();
    for (let burst = 1; burst <= 5; burst += 1) {
      // A burst of three screens, and a scroll event while the view is still where it was: three
      // screens from the end, which alone used to let go.
      chat.grow(3 * SCREEN);
      fireEvent.scroll(chat.box);
      // Content shrinking as blocks above settle: the view is held at the new end.
      chat.grow(-SCREEN / 2, { scrollTo: chat.geometry.height - SCREEN / 2 - chat.geometry.client });
      expect(jumpButton()).toBeNull();
      // Scroll anchoring, which would move the view as blocks above it change size, is off.
      expect(chat.box.style.overflowAnchor).toBe('none');
      chat.laidOut();
      expect(chat.atEnd()).toBe(true);
    }
    // Growth reported by a re-render rather than the observers is followed too.
    chat.grow(4 * SCREEN);
    chat.rerender(<Chat content="second" />);
    expect(chat.atEnd()).toBe(true);
    expect(jumpButton()).toBeNull();
  });

  it('lets go when the reader turns the wheel up, stays where they left it while the answer grows, and comes back on Jump to latest', () => {
    const chat = renderChat();
    fireEvent.wheel(chat.box, { deltaY: 120 });
    expect(jumpButton()).toBeNull();
    fireEvent.wheel(chat.box, { deltaY: -120 });
    chat.readerScrollsTo(chat.geometry.top - 120);
    expect(jumpButton()).not.toBeNull();
    // Where they read, anchoring keeps their place when blocks above change size.
    expect(chat.box.style.overflowAnchor).toBe('');
    const left = chat.geometry.top;
    chat.grow(5 * SCREEN);
    chat.laidOut();
    chat.rerender(<Chat content="more" />);
    expect(chat.geometry.top).toBe(left);

    fireEvent.click(jumpButton()!);
    expect(chat.atEnd()).toBe(true);
    expect(jumpButton()).toBeNull();
    chat.grow(2 * SCREEN);
    chat.laidOut();
    expect(chat.atEnd()).toBe(true);
  });

  it('comes back when the reader scrolls to the end themselves', () => {
    const chat = renderChat();
    fireEvent.keyDown(chat.box, { key: 'PageUp' });
    chat.readerScrollsTo(chat.geometry.top - SCREEN);
    expect(jumpButton()).not.toBeNull();
    chat.readerScrollsTo(chat.geometry.height - chat.geometry.client - 50);
    expect(jumpButton()).toBeNull();
    chat.grow(3 * SCREEN);
    chat.laidOut();
    expect(chat.atEnd()).toBe(true);
  });

  it('stays where the reader left it when content shrinks until the end reaches the view', () => {
    const chat = renderChat();
    fireEvent.wheel(chat.box, { deltaY: -120 });
    chat.readerScrollsTo(chat.geometry.top - SCREEN);
    expect(jumpButton()).not.toBeNull();
    // Space kept for text not yet painted turns out smaller than guessed: the browser pulls the
    // view up to the new end and reports a scroll there, which nobody made.
    chat.grow(-1.5 * SCREEN, { scrollTo: SCREEN / 2 });
    expect(chat.atEnd()).toBe(true);
    expect(jumpButton()).not.toBeNull();
    chat.grow(3 * SCREEN);
    chat.laidOut();
    chat.rerender(<Chat content="more" />);
    expect(chat.geometry.top).toBe(SCREEN / 2);
    expect(jumpButton()).not.toBeNull();
  });

  it.each([
    ['a key that scrolls up', (box: HTMLElement) => fireEvent.keyDown(box, { key: 'Home' })],
    ['a finger moving down the screen', (box: HTMLElement) => {
      fireEvent.touchStart(box, { touches: [{ clientY: 100 }] });
      fireEvent.touchMove(box, { touches: [{ clientY: 180 }] });
    }],
    ['a press on the scrollbar', (box: HTMLElement) => fireEvent.pointerDown(box, { clientX: 805 })],
    ['a scroll up that no growth explains', (box: HTMLElement) => {
      box.scrollTop -= 300;
      fireEvent.scroll(box);
    }],
  ])('lets go on %s', (_what, act) => {
    const chat = renderChat();
    act(chat.box);
    expect(jumpButton()).not.toBeNull();
    chat.grow(2 * SCREEN);
    chat.laidOut();
    expect(chat.atEnd()).toBe(false);
  });

  it('holds on while the reader moves the caret or swipes the content up', () => {
    const chat = renderChat();
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Edit' }), { key: 'ArrowUp' });
    fireEvent.touchStart(chat.box, { touches: [{ clientY: 300 }] });
    fireEvent.touchMove(chat.box, { touches: [{ clientY: 200 }] });
    fireEvent.pointerDown(chat.box, { clientX: 300 });
    expect(jumpButton()).toBeNull();
    chat.grow(2 * SCREEN);
    chat.laidOut();
    expect(chat.atEnd()).toBe(true);
  });
});
