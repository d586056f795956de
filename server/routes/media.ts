import type { Hono } from 'hono';
import type { Services } from '../deps';
import { ownerOf } from '../http/caller';
import { badRequest, notFound, tooLarge } from '../http/errors';
import { clientAddress } from '../http/client-address';
import { defineRoute, type AppEnv } from '../http/route';
import { storedBytesLimit, uploadQuotas } from '../limits/identity-quotas';
import { refuseIfSpent, spend } from '../limits/quotas';
import { readMultipart } from '../media/read-multipart';
import { cleanFileName, findUpload, storeUpload } from '../services/uploads';

/** Room for the multipart framing around the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

export const FILE_PATH = '/api/media/file/:fileId';

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** RFC 6266: an ASCII fallback with no quote, backslash or control, and the exact name in RFC 8187 form. */
function contentDisposition(kind: string, storedName: string): string {
  // Names stored before bidi controls were removed are cleaned on the way out too.
  const name = cleanFileName(storedName);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  const type = kind === 'other' ? 'attachment' : 'inline';
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function mediaRoutes(app: Hono<AppEnv>, services: Services) {
  const limit = services.config.uploadLimitBytes;
  const tooLargeMsg = `The file is too large: the limit is ${megabytes(limit)}.`;

  defineRoute(app, services, 'upload', async ({ caller, c }) => {
    const owner = ownerOf(caller);
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      throw badRequest('Invalid request: send the file as multipart/form-data in the field "file".');
    }
    const quotas = uploadQuotas(services.config, owner, clientAddress(c, services.config.trustProxy));
    await refuseIfSpent(services.counters, quotas, services.clock.now());
    const form = await readMultipart(c.req.raw, {
      maxParts: services.config.uploadMaxParts,
      idleMs: services.config.uploadIdleMs,
      maxBytes: limit + MULTIPART_OVERHEAD,
      tooLargeMessage: tooLargeMsg,
    });
    const file = form.get('file');
    if (!(file instanceof File)) throw badRequest('Invalid request: the field "file" must hold a file.');
    if (file.size > limit) throw tooLarge(tooLargeMsg);
    if (file.size === 0) throw badRequest('Invalid request: the file is empty.');
    const bytes = new Uint8Array(await file.arrayBuffer());
    await spend(services.counters, quotas, bytes.byteLength, services.clock.now());
    try {
      return await storeUpload(services.db, services.storage, services.clock, owner, { name: file.name, bytes }, storedBytesLimit(services.config, owner));
    } catch (error) {
      await services.counters.takeBack(
        quotas.map((quota) => quota.key),
        bytes.byteLength,
      );
      throw error;
    }
  });

  /**
   * Files are served by their unguessable id, like a capability link, because <img> and <audio>
   * cannot send the Authorization header. Anything not an image, audio or video is a download.
   */
  app.get(FILE_PATH, async (c) => {
    const row = await findUpload(services.db, c.req.param('fileId'));
    // Streamed from whichever store holds it (another instance may have taken the upload).
    const stored = row ? await services.storage.open(row.storageKey) : null;
    if (!row || !stored) throw notFound('File');
    return c.body(stored.body, 200, {
      'content-type': row.mimeType,
      'content-length': String(stored.size),
      'content-disposition': contentDisposition(row.kind, row.name),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, max-age=31536000, immutable',
    });
  });
}
