import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { fail } from '../http/envelope';
import { bearerOf, sameToken } from '../http/same-token';
import type { AppEnv } from '../http/route';

/** Where a running server with the embedded database says how `npm run backup` reaches it. */
export const OPS_FILE = 'ops.json';
export const BACKUP_PATH = '/ops/backup';

/** What `npm run backup` reads from DATA_DIR/ops.json: the server's address on this machine and its token. */
export type OpsFile = { url: string; token: string; pid: number };


/** A token for this run of the server: whoever can read DATA_DIR (the database's own files) may ask for a backup. */
export const newOpsToken = () => randomBytes(32).toString('hex');

/**
 * Written once the server listens, readable by its owner only (0600), removed when it stops. It
 * gives nothing that DATA_DIR's own files do not: they are the database.
 */
export function writeOpsFile(dataDir: string, ops: OpsFile): () => void {
  const path = join(dataDir, OPS_FILE);
  writeFileSync(path, `${JSON.stringify(ops)}\n`, { mode: 0o600 });
  return () => rmSync(path, { force: true });
}

/**
 * `POST /ops/backup`: a consistent snapshot of the embedded database while it runs (PGlite's data
 * directory as a gzipped tarball, taken under the database's lock, so no statement runs across
 * it). Only with `Authorization: Bearer <token of DATA_DIR/ops.json>`; without it the path does not
 * exist (404), whoever asks.
 */
export function backupRoute(app: Hono<AppEnv>, options: { token: string; snapshot: () => Promise<Blob> }) {
  app.post(BACKUP_PATH, async (c) => {
    const bearer = bearerOf(c.req.header('authorization'));
    if (bearer === undefined || !sameToken(bearer, options.token)) return fail(c, 404, `No such path ${BACKUP_PATH}.`);
    const snapshot = await options.snapshot();
    return c.body(await snapshot.arrayBuffer(), 200, {
      'content-type': 'application/gzip',
      'cache-control': 'no-store',
    });
  });
}
