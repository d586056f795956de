import { useCallback, useEffect, useRef, useState } from 'react';

/** How close to the end still counts as "reading the latest". */
export const STICK_THRESHOLD_PX = 100;

/**
 * Keeps a scroll container pinned to its end while content grows, and lets go as soon as the
 * reader scrolls up. `atBottom` tells the screen whether to offer a "jump to latest" button.
 */
export const useStickToBottom = <T extends HTMLElement>(content: unknown) => {
  const ref = useRef<T>(null);
  const [atBottom, setAtBottom] = useState(true);
  const stuck = useRef(true);

  const onScroll = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    const near = box.scrollHeight - box.scrollTop - box.clientHeight <= STICK_THRESHOLD_PX;
    stuck.current = near;
    setAtBottom(near);
  }, []);

  /** Shows the end, unless the reader has scrolled up. */
  const follow = useCallback(() => {
    const box = ref.current;
    if (box && stuck.current) box.scrollTop = box.scrollHeight;
  }, []);

  const jumpToLatest = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    stuck.current = true;
    setAtBottom(true);
    box.scrollTo({ top: box.scrollHeight });
  }, []);

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

  // Content also grows between updates (an answer painted over several frames, a picture loaded).
  useEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver !== 'function') return undefined;
    const observer = new ResizeObserver(follow);
    for (const child of box.children) observer.observe(child);
    return () => observer.disconnect();
  }, [content, follow]);

  return { ref, atBottom, onScroll, jumpToLatest };
};
