import { statfs } from 'node:fs/promises';
import type { Hono } from 'hono';
import { isMigrated, type Db } from '../db/client';
import type { ReadinessCheck } from '../deps';
import type { AppEnv } from './route';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/** Why an instance should not be sent requests right now. */
export type NotReady = 'draining' | 'database unreachable or not migrated' | string;

export type { ReadinessCheck };

/** How long a check may take before it counts as failed: a hung bucket must not hang the probe. */
export const CHECK_TIMEOUT_MS = 3000;

/** Room left on the disk holding `dir`, against the least it needs to take writes. */
export const diskRoom =
  (dir: string, minFreeBytes: number): ReadinessCheck =>
  async () => {
    const { bavail, bsize } = await statfs(dir);
    const free = bavail * bsize;
    return free < minFreeBytes ? `disk space low: ${Math.floor(free / 1048576)} MB free in ${dir}, at least ${Math.ceil(minFreeBytes / 1048576)} MB needed` : null;
  };

/** A check asked at most once per `ms`: its last answer is given meanwhile (a question asks it every time). */
export const lastFor = (ms: number, check: ReadinessCheck): ReadinessCheck => {
  let last: { at: number; answer: Promise<string | null> } | null = null;
  return () => {
    const now = performance.now();
    if (!last || now - last.at >= ms) last = { at: now, answer: check().catch((error: unknown) => `the disk could not be checked (${(error as Error).message})`) };
    return last.answer;
  };
};

const firstProblem = async (checks: ReadinessCheck[]): Promise<string | null> => {
  const found = await Promise.all(
    checks.map((check) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('a readiness check did not answer in time'), CHECK_TIMEOUT_MS)));
      return Promise.race([check().catch((error: unknown) => `a readiness check failed (${(error as Error).message})`), late]).finally(() => clearTimeout(timer));
    }),
  );
  return found.find((problem) => problem !== null) ?? null;
};

/**
 * Probes for load balancers and orchestrators, outside /api and before the request log (they
 * come every few seconds): `/healthz` says the process answers, without touching the database;
 * `/readyz` says this instance should get traffic: the database answers, every migration of this
 * build is applied, the instance is not shutting down, and every other check passes (the file
 * storage answers; on the embedded database, its disk has room).
 */
export function healthRoutes(app: Hono<AppEnv>, options: { db: Db; draining: () => boolean; checks?: ReadinessCheck[] }) {
  app.get(HEALTH_PATH, (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });
  app.get(READY_PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    const notReady: NotReady | null = options.draining()
      ? 'draining'
      : (await isMigrated(options.db))
        ? await firstProblem(options.checks ?? [])
        : 'database unreachable or not migrated';
    return notReady ? c.json({ status: 'not ready', reason: notReady }, 503) : c.json({ status: 'ready' });
  });
}
