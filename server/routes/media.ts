import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { Services } from '../deps';
import { ownerOf, type Owner } from '../http/caller';
import { fileReaderOf } from '../http/file-reader';
import { badRequest, notFound, tooLarge, tooManyRequests } from '../http/errors';
import { clientAddress } from '../http/client-address';
import { defineRoute, type AppEnv } from '../http/route';
import { createAtOnce } from '../limits/at-once';
import { identityLockKey, storedBytesLimit, uploadQuotas } from '../limits/identity-quotas';
import { spend } from '../limits/quotas';
import { receiveFile } from '../media/receive-file';
import { sniff } from '../media/sniff';
import { metrics } from '../observability/metrics';
import { mayRead } from '../services/file-access';
import { cleanFileName, deleteOwnUpload, findUpload, recordUpload, refuseIfStoredOver } from '../services/uploads';

/** Room for the multipart framing around the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;

export const FILE_PATH = '/api/media/file/:fileId';

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** An upload under way ends in seconds: when one refused for too many at once may try again. */
const AT_ONCE_RETRY_SECONDS = 5;

/** Content-Length as a number; null when absent (a chunked body) or not a length. */
function declaredLength(c: Context): number | null {
  const raw = c.req.header('content-length');
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
}

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

  const atOnce = services.config.uploadsAtOnce;
  const perIdentity = createAtOnce({ running: atOnce.perIdentity, waiting: atOnce.waitingPerIdentity });
  const perInstance = createAtOnce({ running: atOnce.perInstance, waiting: atOnce.waitingPerInstance });

  /**
   * A turn to be read: waits (unread) behind the identity's own uploads and the instance's, or is
   * refused at once when too many are already waiting.
   */
  async function takeTurn(owner: Owner): Promise<() => void> {
    const mine = await perIdentity.enter(identityLockKey('uploading', owner));
    if (!mine) {
      throw tooManyRequests(
        `You have ${atOnce.perIdentity + atOnce.waitingPerIdentity} uploads under way, the most at once. Please wait ${AT_ONCE_RETRY_SECONDS} seconds and try again.`,
        AT_ONCE_RETRY_SECONDS,
      );
    }
    const instance = await perInstance.enter('instance');
    if (!instance) {
      mine();
      throw tooManyRequests(`The server is receiving many uploads just now. Please wait ${AT_ONCE_RETRY_SECONDS} seconds and try again.`, AT_ONCE_RETRY_SECONDS);
    }
    return () => {
      instance();
      mine();
    };
  }

  /** Streams the body's file to storage, as it arrives; a refusal on the way cuts the body and keeps nothing. */
  async function receive(c: Context) {
    const incoming = await receiveFile(c.req.raw, {
      maxFileBytes: limit,
      maxParts: services.config.uploadMaxParts,
      idleMs: services.config.uploadIdleMs,
      tooLargeMessage: tooLargeMsg,
    });
    const { kind, mimeType } = sniff(incoming.head);
    const id = randomUUID();
    const [stored, read] = await Promise.allSettled([services.storage.put(id, { stream: incoming.stream }, mimeType), incoming.finished]);
    const size = incoming.size();
    if (stored.status === 'rejected' || read.status === 'rejected' || size === 0) {
      await services.storage.delete(id).catch(() => {});
      if (read.status === 'rejected') throw read.reason;
      if (stored.status === 'rejected') throw stored.reason;
      throw badRequest('Invalid request: the file is empty.');
    }
    return { id, name: incoming.name, kind, mimeType, size };
  }

  /**
   * Everything that can refuse an upload is asked before its body is read: its declared length,
   * the day's quota (the bytes it is sure to hold, at least one, are taken at once and only if
   * they fit, so uploads sent together add up and none is refused while room remains), the stored
   * room, and a turn. Its bytes are then counted as they arrive and streamed on.
   */
  defineRoute(app, services, 'upload', async ({ caller, c }) => {
    const owner = ownerOf(caller);
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      throw badRequest('Invalid request: send the file as multipart/form-data in the field "file".');
    }
    const declared = declaredLength(c);
    if (declared !== null && declared > limit + MULTIPART_OVERHEAD) throw tooLarge(tooLargeMsg);
    // The least the file can be: the body less the most framing allowed around it.
    const atLeast = declared === null ? 0 : Math.min(limit, Math.max(0, declared - MULTIPART_OVERHEAD));
    const quotas = uploadQuotas(services.config, owner, clientAddress(c, services.config.trustProxy));
    const keys = quotas.map((quota) => quota.key);
    let spent = Math.max(1, atLeast);
    await spend(services.counters, quotas, spent, services.clock.now());
    try {
      await refuseIfStoredOver(services.db, owner, spent, storedBytesLimit(services.config, owner));
      const leave = await takeTurn(owner);
      try {
        const file = await receive(c);
        try {
          if (file.size > spent) await spend(services.counters, quotas, file.size - spent, services.clock.now());
          else if (file.size < spent) await services.counters.takeBack(keys, spent - file.size);
          spent = file.size;
        } catch (error) {
          await services.storage.delete(file.id).catch(() => {});
          throw error;
        }
        const recorded = await recordUpload(services.db, services.storage, services.clock, owner, file, storedBytesLimit(services.config, owner));
        metrics.uploadStored(file.size);
        return recorded;
      } finally {
        leave();
      }
    } catch (error) {
      await services.counters.takeBack(keys, spent);
      throw error;
    }
  });

  defineRoute(app, services, 'uploadDelete', async ({ input, caller }) => {
    await deleteOwnUpload(services, ownerOf(caller), input.fileId);
    return null;
  });

  /**
   * A file, to whoever may read it (its owner; see mayRead), known by headers or, for <img> and
   * <audio>, by the SPA's cookies (fileReaderOf); anyone else is told it does not exist. Anything
   * not an image, audio or video is a download. Never kept by a shared cache, and checked again at
   * every use (a file's bytes never change, so its id is its ETag): a deleted file is gone from
   * the next view on, not a year later.
   */
  app.get(FILE_PATH, async (c) => {
    const row = await findUpload(services.db, c.req.param('fileId'));
    if (!row || !(await mayRead(services.db, row, await fileReaderOf(c, services)))) throw notFound('File');
    const etag = `"${row.id}"`;
    const revalidated = { etag, 'cache-control': 'private, no-cache' };
    if (c.req.header('if-none-match')?.split(',').some((tag) => tag.trim() === etag)) return c.body(null, 304, revalidated);
    // Streamed from whichever store holds it (another instance may have taken the upload).
    const stored = await services.storage.open(row.storageKey);
    if (!stored) throw notFound('File');
    return c.body(stored.body, 200, {
      ...revalidated,
      'content-type': row.mimeType,
      'content-length': String(stored.size),
      'content-disposition': contentDisposition(row.kind, row.name),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
  });
}
