#!/usr/bin/env node
// Makes sure the browser tests have a Chromium: CHROME_PATH, then Debian's /usr/bin/chromium.
// With none, as root on a machine with apt, it installs Debian's `chromium` and says so;
// otherwise it stops with the command to run. Browser tests are never skipped silently.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from './chromium-path.mjs';

const INSTALL = 'apt-get update && apt-get install -y chromium';

export const ensureChromium = () => {
  const found = chromiumPath();
  if (found) return found;
  if (process.env.CHROME_PATH) {
    console.error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but there is no file there.`);
    process.exit(1);
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error(`No Chromium found for the browser tests. Install Debian's with:\n  sudo sh -c '${INSTALL}'\nor set CHROME_PATH to a Chromium or Chrome binary.`);
    process.exit(1);
  }
  console.log(`No Chromium found: installing Debian's chromium package (${INSTALL}) ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed (exit ${result.status}). Install it by hand: ${INSTALL}`);
      process.exit(1);
    }
  }
  const installed = chromiumPath();
  if (!installed) {
    console.error('apt-get finished but /usr/bin/chromium is still missing.');
    process.exit(1);
  }
  console.log(`Installed ${installed}.`);
  return installed;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Chromium for browser tests: ${ensureChromium()}`);
}
