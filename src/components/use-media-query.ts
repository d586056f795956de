import { useSyncExternalStore } from 'react';

/** Whether a media query matches now, following it as the window changes. */
export const useMediaQuery = (query: string): boolean =>
  useSyncExternalStore(
    (onChange) => {
      if (typeof matchMedia === 'undefined') return () => undefined;
      const list = matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof matchMedia === 'undefined' ? false : matchMedia(query).matches),
    () => false,
  );

/** Spec: the mobile layout applies up to 1024 px wide. */
export const MOBILE_QUERY = '(max-width: 1024px)';

/** A touch screen is the only pointer (a phone, a tablet without a mouse): no hover, no keyboard shortcuts. */
export const TOUCH_QUERY = '(hover: none) and (pointer: coarse)';
