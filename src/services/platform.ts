import type { DesktopPlatform } from '../contract/app';

/** The parts of `navigator` that tell the operating system; all optional, as browsers differ. */
export type NavigatorHints = {
  userAgentData?: { platform?: string; mobile?: boolean } | null;
  platform?: string;
  userAgent?: string;
  maxTouchPoints?: number;
};

const NOT_A_DESKTOP = /Android|iPhone|iPad|iPod|CrOS|Chrome OS|HarmonyOS/i;

const fromName = (name: string): DesktopPlatform | null => {
  if (/Win/i.test(name)) return 'windows';
  if (/Mac/i.test(name)) return 'macos';
  if (/Linux|X11|BSD/i.test(name)) return 'linux';
  return null;
};

/**
 * Which desktop app suits this browser's computer: the client hint when the browser gives one,
 * else the user-agent string, else the legacy `platform`. Phones, tablets and Chromebooks get
 * none (the app does not run there); an iPad asking for the desktop site says "Mac" but has touch.
 */
export const detectDesktopPlatform = (hints: NavigatorHints): DesktopPlatform | null => {
  if (hints.userAgentData?.mobile) return null;
  const names = [hints.userAgentData?.platform, hints.userAgent, hints.platform].filter((name): name is string => Boolean(name));
  if (names.some((name) => NOT_A_DESKTOP.test(name))) return null;
  const platform = names.map(fromName).find((found) => found !== null) ?? null;
  if (platform === 'macos' && (hints.maxTouchPoints ?? 0) > 1) return null;
  return platform;
};

export const browserNavigatorHints = (): NavigatorHints =>
  typeof navigator === 'undefined' ? {} : (navigator as Navigator & { userAgentData?: NavigatorHints['userAgentData'] });
