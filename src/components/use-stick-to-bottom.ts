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

  const jumpToLatest = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    stuck.current = true;
    setAtBottom(true);
    box.scrollTo({ top: box.scrollHeight });
  }, []);

  useEffect(() => {
    const box = ref.current;
    if (box && stuck.current) box.scrollTop = box.scrollHeight;
  }, [content]);

  // Content also grows between updates (an answer painted over several frames, a picture loaded).
  useEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver !== 'function') return undefined;
    const observer = new ResizeObserver(() => {
      if (stuck.current) box.scrollTop = box.scrollHeight;
    });
    for (const child of box.children) observer.observe(child);
    return () => observer.disconnect();
  }, [content]);

  return { ref, atBottom, onScroll, jumpToLatest };
};
