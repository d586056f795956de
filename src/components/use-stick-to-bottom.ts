import { useCallback, useEffect, useRef, useState } from 'react';

/** How close to the end still counts as "reading the latest". */
export const STICK_THRESHOLD_PX = 100;

/** Keys that scroll a page up. */
const KEYS_UP = new Set(['PageUp', 'ArrowUp', 'Home']);

const isEditable = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement && (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' || target.tagName === 'SELECT');

const distanceToEnd = (box: HTMLElement): number => box.scrollHeight - box.scrollTop - box.clientHeight;

/**
 * Keeps a scroll container pinned to its end while content grows, and lets go only when the reader
 * scrolls up themselves: the wheel, a touch, the keyboard, the scrollbar, or a scroll up that no
 * change of content explains (only shrinking content moves the view up, as the browser's scroll
 * anchoring is off while the view follows: it would move the view whenever blocks above it
 * change size). Content growing by more than a screen between two frames never lets go. It holds
 * again on "Jump to latest" or when the reader scrolls down to the end, never because content
 * shrank until the end reached the view. `atBottom` tells the
 * screen whether to offer "Jump to latest".
 */
export const useStickToBottom = <T extends HTMLElement>(content: unknown) => {
  const ref = useRef<T>(null);
  const [atBottom, setAtBottom] = useState(true);
  const stuck = useRef(true);
  /** Where the view was at the last scroll, and how tall its content was. */
  const last = useRef({ top: 0, height: 0 });

  const remember = useCallback((box: HTMLElement) => {
    last.current = { top: box.scrollTop, height: box.scrollHeight };
  }, []);

  const hold = useCallback((value: boolean) => {
    stuck.current = value;
    setAtBottom(value);
    // Anchoring keeps a reader's place when blocks above it change size; the end needs none.
    if (ref.current) ref.current.style.overflowAnchor = value ? 'none' : '';
  }, []);

  /** The reader scrolls up: let go, if there is anywhere to scroll to. */
  const letGo = useCallback(() => {
    const box = ref.current;
    if (box && stuck.current && box.scrollHeight - box.clientHeight > STICK_THRESHOLD_PX) hold(false);
  }, [hold]);

  const onScroll = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    const before = last.current;
    if (distanceToEnd(box) <= STICK_THRESHOLD_PX) {
      // Only the reader's own scroll down takes them back: content that shrank under a reader who
      // had scrolled up (the end coming to the view, the view pushed up to the new end) does not.
      if (!stuck.current && box.scrollTop > before.top) hold(true);
    } else if (box.scrollTop < before.top - 1 && box.scrollHeight >= before.height) {
      letGo();
    }
    remember(box);
  }, [hold, letGo, remember]);

  /** Shows the end, unless the reader has scrolled up. */
  const follow = useCallback(() => {
    const box = ref.current;
    if (!box || !stuck.current) return;
    box.scrollTop = box.scrollHeight;
    remember(box);
  }, [remember]);

  const jumpToLatest = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    hold(true);
    box.scrollTo({ top: box.scrollHeight });
  }, [hold]);

  // What the reader does to scroll up. Listeners on the box, passive: none of them stops a scroll.
  useEffect(() => {
    const box = ref.current;
    if (!box) return undefined;
    let touchY: number | null = null;
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY < 0) letGo();
    };
    const onTouchStart = (event: TouchEvent) => {
      touchY = event.touches[0]?.clientY ?? null;
    };
    const onTouchMove = (event: TouchEvent) => {
      const y = event.touches[0]?.clientY;
      // A finger moving down the screen scrolls the content up.
      if (y !== undefined && touchY !== null && y > touchY) letGo();
      touchY = y ?? touchY;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (isEditable(event.target)) return;
      if (KEYS_UP.has(event.key) || (event.key === ' ' && event.shiftKey)) letGo();
    };
    const onPointerDown = (event: PointerEvent) => {
      // On the scrollbar: on the box itself, past its content's width.
      if (event.target === box && event.clientX - box.getBoundingClientRect().left - box.clientLeft >= box.clientWidth) letGo();
    };
    if (stuck.current) box.style.overflowAnchor = 'none';
    const options = { passive: true };
    box.addEventListener('wheel', onWheel, options);
    box.addEventListener('touchstart', onTouchStart, options);
    box.addEventListener('touchmove', onTouchMove, options);
    box.addEventListener('keydown', onKeyDown);
    box.addEventListener('pointerdown', onPointerDown);
    return () => {
      box.removeEventListener('wheel', onWheel);
      box.removeEventListener('touchstart', onTouchStart);
      box.removeEventListener('touchmove', onTouchMove);
      box.removeEventListener('keydown', onKeyDown);
      box.removeEventListener('pointerdown', onPointerDown);
    };
  }, [letGo]);

  // At the next frame, not in the update's own task: reading the height lays out everything the
  // update added, and a large update (a burst's first step) would do that inside the task that
  // rendered it, one long task instead of two (measured in a Chromium trace of a burst).
  useEffect(() => {
    if (typeof requestAnimationFrame !== 'function') {
      follow();
      return undefined;
    }
    const frame = requestAnimationFrame(follow);
    return () => cancelAnimationFrame(frame);
  }, [content, follow]);

  // Content also grows between updates (an answer painted over several frames, a picture loaded),
  // and the box itself changes size (the message box grows, the window turns).
  useEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver !== 'function') return undefined;
    const observer = new ResizeObserver(follow);
    observer.observe(box);
    for (const child of box.children) observer.observe(child);
    return () => observer.disconnect();
  }, [content, follow]);

  return { ref, atBottom, onScroll, jumpToLatest };
};
