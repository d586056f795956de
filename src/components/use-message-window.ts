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
 * Which messages are in the page: when a conversation opens, its latest MESSAGE_WINDOW (a
 * thousand-message chat opens as fast as a short one); from there on, everything said while it
 * is open stays; earlier ones come in a window at a time as the reader scrolls up, keeping what
 * they were reading where it was.
 */
export const useMessageWindow = <T>(messages: T[], scroller: RefObject<HTMLElement | null>, conversationKey: string | null) => {
  /** Index of the first message shown; fixed when the conversation's messages first arrive. */
  const [start, setStart] = useState<number | null>(null);
  const [seenKey, setSeenKey] = useState(conversationKey);
  if (seenKey !== conversationKey) {
    setSeenKey(conversationKey);
    setStart(null);
  }
  if (start === null && messages.length > 0 && seenKey === conversationKey) {
    setStart(Math.max(0, messages.length - MESSAGE_WINDOW));
  }
  const hidden = Math.min(start ?? 0, messages.length);
  const visible = hidden > 0 ? messages.slice(hidden) : messages;
  const anchor = useRef<{ height: number; top: number } | null>(null);

  const revealEarlier = () => {
    const box = scroller.current;
    if (!box || hidden === 0 || anchor.current) return;
    anchor.current = measure(box);
    setStart((current) => Math.max(0, (current ?? 0) - MESSAGE_WINDOW));
  };

  useLayoutEffect(() => {
    const box = scroller.current;
    const before = anchor.current;
    if (!box || !before) return;
    keepPlace(box, before);
    anchor.current = null;
  }, [start, scroller]);

  const onScroll = () => {
    const box = scroller.current;
    if (box && box.scrollTop <= REVEAL_THRESHOLD_PX) revealEarlier();
  };

  return { visible, hidden, revealEarlier, onScroll };
};
