import { useEffect } from 'react';

/**
 * While `active`, a page with unsaved work is not left unasked: closing or reloading the tab asks
 * the browser's own question, and a click on a link to another page of this site is held and
 * handed to `onLeave` with where it led (a new tab, a download or another site are let through).
 */
export function useLeaveRequests(active: boolean, onLeave: (to: string) => void): void {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    const intercept = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || link.target === '_blank' || link.hasAttribute('download')) return;
      const url = new URL(link.href, location.href);
      if (url.origin !== location.origin) return;
      const to = `${url.pathname}${url.search}`;
      if (to === `${location.pathname}${location.search}`) return;
      event.preventDefault();
      event.stopPropagation();
      onLeave(to);
    };
    window.addEventListener('beforeunload', warn);
    document.addEventListener('click', intercept, true);
    return () => {
      window.removeEventListener('beforeunload', warn);
      document.removeEventListener('click', intercept, true);
    };
  }, [active, onLeave]);
}
