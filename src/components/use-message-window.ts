import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** A long conversation opens on its latest messages, this many at a time. */
export const MESSAGE_WINDOW = 40;
/** Scrolling this close to the top brings in the earlier messages. */
const REVEAL_THRESHOLD_PX = 100;

const measure = (box: HTMLElement) => ({ height: box.scrollHeight, top: box.scrollTop });

/** Keeps the message that was on screen in place after earlier ones were added above it. */
const keepPlace = (box: HTMLElement, before: { height: number; top: number }) => {
  box.scrollTop = before.top + (box.scrollHeight - before.height);
};

/**
 * Which messages are in the page: the latest MESSAGE_WINDOW when a conversation opens (a
 * thousand-message chat opens as fast as a short one), and earlier ones, a window at a time, as
 * the reader scrolls up, keeping what they were reading where it was.
 */
export const useMessageWindow = <T>(messages: T[], scroller: RefObject<HTMLElement | null>, conversationKey: string | null) => {
  const [count, setCount] = useState(MESSAGE_WINDOW);
  const [seenKey, setSeenKey] = useState(conversationKey);
  if (seenKey !== conversationKey) {
    setSeenKey(conversationKey);
    setCount(MESSAGE_WINDOW);
  }
  const hidden = Math.max(0, messages.length - count);
  const visible = hidden > 0 ? messages.slice(hidden) : messages;
  const anchor = useRef<{ height: number; top: number } | null>(null);

  const revealEarlier = () => {
    const box = scroller.current;
    if (!box || hidden === 0 || anchor.current) return;
    anchor.current = measure(box);
    setCount((current) => current + MESSAGE_WINDOW);
  };

  useLayoutEffect(() => {
    const box = scroller.current;
    const before = anchor.current;
    if (!box || !before) return;
    keepPlace(box, before);
    anchor.current = null;
  }, [count, scroller]);

  const onScroll = () => {
    const box = scroller.current;
    if (box && box.scrollTop <= REVEAL_THRESHOLD_PX) revealEarlier();
  };

  return { visible, hidden, revealEarlier, onScroll };
};
