import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'server.lock';

type Holder = { pid: number; host: string };

function readHolder(path: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? { pid: parsed.pid, host: parsed.host } : null;
  } catch {
    return null;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}

/** Whether a process of this host still runs (one of another user's counts too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Two servers on one embedded database would each keep their own copy of it in memory and
 * overwrite each other's writes on disk, so only one may use a data folder. The lock is a file
 * created exclusively, naming the pid and host; a lock left by a process that no longer runs on
 * this host (a server killed with kill -9) is taken over. A lock from another host is never
 * taken over: its process cannot be checked from here.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const path = join(dataDir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      // An unreadable lock is a crash between creating and writing it, unless it is brand new.
      const stale = holder === null ? ageMs(path) > 2000 : holder.host === me.host && !isAlive(holder.pid);
      if (!stale) {
        const who = holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
        throw new Error(
          `The data folder ${dataDir} is already in use by another Kraken server (${who}). ` +
            `Stop that server, or give this one another DATA_DIR. If no server runs, delete ${path}.`,
          { cause: error },
        );
      }
      try {
        unlinkSync(path);
      } catch {
        // another starter took it over first: the next attempt sees its lock
      }
      continue;
    }
    writeSync(fd, JSON.stringify(me));
    closeSync(fd);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        const holder = readHolder(path);
        if (holder?.pid === me.pid && holder.host === me.host) unlinkSync(path);
      },
    };
  }
  throw new Error(`The data folder ${dataDir} could not be locked (${path}).`);
}
