import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium the browser tests drive: CHROME_PATH when set, else Debian's. Null when none. */
export const chromiumPath = () => {
  if (process.env.CHROME_PATH) return existsSync(process.env.CHROME_PATH) ? process.env.CHROME_PATH : null;
  return CANDIDATES.find((candidate) => existsSync(candidate)) ?? null;
};
