import type { Hono } from 'hono';
import { isMigrated, type Db } from '../db/client';
import type { AppEnv } from './route';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/** Why an instance should not be sent requests right now. */
export type NotReady = 'draining' | 'database unreachable or not migrated';

/**
 * Probes for load balancers and orchestrators, outside /api and before the request log (they
 * come every few seconds): `/healthz` says the process answers, without touching the database;
 * `/readyz` says this instance should get traffic: the database answers, every migration of this
 * build is applied, and the instance is not shutting down.
 */
export function healthRoutes(app: Hono<AppEnv>, options: { db: Db; draining: () => boolean }) {
  app.get(HEALTH_PATH, (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json({ status: 'ok' });
  });
  app.get(READY_PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    const notReady: NotReady | null = options.draining()
      ? 'draining'
      : (await isMigrated(options.db))
        ? null
        : 'database unreachable or not migrated';
    return notReady ? c.json({ status: 'not ready', reason: notReady }, 503) : c.json({ status: 'ready' });
  });
}
