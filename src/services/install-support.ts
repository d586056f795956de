import type { NavigatorHints } from './platform';

/**
 * How this browser installs a web app when it makes no install offer of its own: iPhone and iPad
 * (every browser there: Share, then Add to Home Screen), Safari on a Mac (File, Add to Dock),
 * Firefox on a computer (cannot install), Firefox on Android (its menu), any other browser (its menu).
 */
export type InstallBrowser = 'ios' | 'macSafari' | 'firefox' | 'firefoxAndroid' | 'other';

const NOT_SAFARI = /Chrome|Chromium|CriOS|FxiOS|Edg|OPR|Firefox/i;

export const detectInstallBrowser = (hints: NavigatorHints): InstallBrowser => {
  const agent = hints.userAgent ?? '';
  // An iPad asking for the desktop site says "Macintosh" but has touch.
  if (/iPhone|iPad|iPod/i.test(agent) || (/Macintosh/i.test(agent) && (hints.maxTouchPoints ?? 0) > 1)) return 'ios';
  if (/Firefox\//i.test(agent)) return /Android/i.test(agent) ? 'firefoxAndroid' : 'firefox';
  if (/Macintosh/i.test(agent) && /Safari\//i.test(agent) && !NOT_SAFARI.test(agent)) return 'macSafari';
  return 'other';
};

/** Whether the page runs as the installed app, in its own window, rather than in a browser tab. */
export const runsInstalled = (win: Window | undefined = typeof window === 'undefined' ? undefined : window): boolean => {
  if (!win) return false;
  if ((win.navigator as Navigator & { standalone?: boolean }).standalone === true) return true;
  return typeof win.matchMedia === 'function' && win.matchMedia('(display-mode: standalone)').matches;
};
