import { and, eq } from 'drizzle-orm';
import { users } from '../db/schema';
import type { Services } from '../deps';
import { sniff } from '../media/sniff';
import { storeUpload } from './uploads';

/** Pictures larger than this are not worth the wait at sign-in; the account keeps no avatar. */
export const AVATAR_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
const AVATAR_IMPORT_TIMEOUT_MS = 4000;

async function download(fetchImpl: typeof fetch, url: string): Promise<Uint8Array | null> {
  const response = await fetchImpl(url, { signal: AbortSignal.timeout(AVATAR_IMPORT_TIMEOUT_MS), redirect: 'follow' });
  if (!response.ok || !response.body) return null;
  if (Number(response.headers.get('content-length') ?? 0) > AVATAR_IMPORT_MAX_BYTES) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > AVATAR_IMPORT_MAX_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A new account made by WeChat or Google sign-in gets a copy of the picture the provider shows,
 * stored as the account's own upload, so the app shows it under its own image policy (no third
 * party sees who opens the app) and it outlives the provider's link. Only an image, only a
 * small one, only within a few seconds; otherwise the account simply has no avatar yet. The
 * account's avatar is changed only while it is still the provider's link.
 */
export async function importAvatar<U extends { id: string; avatar: string }>(
  services: Pick<Services, 'db' | 'storage' | 'clock' | 'log'>,
  user: U,
  fetchImpl: typeof fetch = fetch,
): Promise<U> {
  const source = user.avatar;
  if (!isProviderLink(source)) return user;
  let avatar = '';
  try {
    const bytes = await download(fetchImpl, source);
    if (bytes && sniff(bytes).kind === 'image') {
      avatar = (await storeUpload(services.db, services.storage, services.clock, { userId: user.id }, { name: 'avatar', bytes })).url;
    }
  } catch (error) {
    services.log(`avatar: not imported (${error instanceof Error ? error.name : 'error'})`);
  }
  const [updated] = await services.db
    .update(users)
    .set({ avatar })
    .where(and(eq(users.id, user.id), eq(users.avatar, source)))
    .returning({ avatar: users.avatar });
  if (updated) return { ...user, avatar: updated.avatar };
  // the person chose an avatar meanwhile: theirs stands
  const [current] = await services.db.select({ avatar: users.avatar }).from(users).where(eq(users.id, user.id));
  return { ...user, avatar: current?.avatar ?? avatar };
}

/** An avatar that is still a link to the provider's picture (the app's own are paths or data URLs). */
export const isProviderLink = (avatar: string): boolean => /^https?:\/\//i.test(avatar);
