import { useCallback, useEffect, type RefObject } from 'react';

/**
 * Calls `onNearEnd` when a scrolling element's end is within `thresholdPx` (spec: 100 px), on
 * scroll and whenever `size` changes (a short first page leaves nothing to scroll).
 */
export const useNearEnd = (ref: RefObject<HTMLElement | null>, onNearEnd: () => void, size: number, thresholdPx = 100) => {
  const check = useCallback(() => {
    const element = ref.current;
    if (!element || element.clientHeight === 0) return;
    if (element.scrollHeight - element.scrollTop - element.clientHeight <= thresholdPx) onNearEnd();
  }, [ref, onNearEnd, thresholdPx]);
  useEffect(check, [check, size]);
  return check;
};
