import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Hono } from 'hono';
import * as v from 'valibot';
import { downloadManifestSchema, type DownloadManifest } from '../../src/contract/app';
import type { Services } from '../deps';
import type { FileStorage } from '../media/storage';
import { ApiError } from '../http/errors';
import { defineRoute, describeIssues, type AppEnv } from '../http/route';
import { builtInManifest, DOWNLOADS_PREFIX } from './app-manifest';

/** Installer names: letters, digits, dots, dashes and underscores, never a path. */
const SAFE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export type AppRoutesEnv = { DOWNLOAD_MANIFEST?: string; DOWNLOADS_DIR?: string; DATA_DIR?: string };

/** Where installers served as `/downloads/<file>` live on disk: DOWNLOADS_DIR, else `<DATA_DIR>/downloads`. */
export const downloadsDirOf = (env: AppRoutesEnv): string =>
  resolve(env.DOWNLOADS_DIR?.trim() || join(env.DATA_DIR?.trim() || '.data', 'downloads'));

/** An installer's size, if it is in the store (a name that could not be a file is not). */
async function sizeOf(downloads: FileStorage, fileName: string): Promise<number | undefined> {
  if (!SAFE_FILE_NAME.test(fileName)) return undefined;
  return (await downloads.stat(fileName))?.size;
}

/**
 * The built-in manifest, saying of each installer whether it is really on this server (with its
 * size), and of the whole whether all, some or none can be downloaded: a page offers no button
 * that would end in a failed download.
 */
async function defaultManifest(downloads: FileStorage): Promise<DownloadManifest> {
  const manifest = builtInManifest();
  let present = 0;
  let total = 0;
  for (const release of manifest.platforms) {
    for (const file of release.files) {
      const size = await sizeOf(downloads, file.fileName);
      total += 1;
      file.available = size !== undefined;
      if (size !== undefined) {
        file.size = size;
        present += 1;
      }
    }
  }
  manifest.status = present === total ? 'available' : present === 0 ? 'unavailable' : 'partial';
  return manifest;
}

async function manifestFromFile(path: string): Promise<DownloadManifest> {
  const parsed = v.safeParse(downloadManifestSchema, JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) throw new Error(describeIssues(parsed.issues));
  return parsed.output;
}

/**
 * The desktop app's download manifest (DOWNLOAD_MANIFEST names a JSON file, read on every call so
 * a new release needs no restart; without it a built-in manifest links to `/downloads/...`) and
 * the installers themselves under `/downloads/`.
 */
export function appRoutes(app: Hono<AppEnv>, services: Services, env: AppRoutesEnv = process.env) {
  defineRoute(app, services, 'appDownloadManifest', async () => {
    const path = env.DOWNLOAD_MANIFEST?.trim();
    if (!path) return defaultManifest(services.downloads);
    try {
      return await manifestFromFile(path);
    } catch (error) {
      services.log(`error: DOWNLOAD_MANIFEST ${path} is unusable: ${error instanceof Error ? error.message : error}`);
      throw new ApiError(503, 'The desktop downloads are not available right now. Please try again later.');
    }
  });

  app.on(['GET', 'HEAD'], `${DOWNLOADS_PREFIX}:fileName`, async (c) => {
    const fileName = c.req.param('fileName');
    // Every instance serves the same installers: they are read from the shared store when there is one.
    const head = c.req.method === 'HEAD';
    const safe = SAFE_FILE_NAME.test(fileName);
    const stored = safe ? await (head ? services.downloads.stat(fileName) : services.downloads.open(fileName)) : null;
    if (!stored) {
      return c.text(`This download (${fileName}) is not available on this server yet. Please try again later.\n`, 404, {
        'cache-control': 'no-store',
      });
    }
    const headers = {
      'content-type': 'application/octet-stream',
      'content-length': String(stored.size),
      'content-disposition': `attachment; filename="${fileName}"`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=3600',
    };
    if (!('body' in stored)) return c.body(null, 200, headers);
    return c.body(stored.body as ReadableStream<Uint8Array>, 200, headers);
  });
}
