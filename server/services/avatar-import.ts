import { and, eq } from 'drizzle-orm';
import { users } from '../db/schema';
import type { Services } from '../deps';
import { fetchProviderPicture, type PictureProvider } from '../media/provider-picture';
import { storeUpload } from './uploads';

/** The provider's picture of the person signing in, as its answer gave it. */
export type ProviderPicture = { provider: PictureProvider; url: string };
export type FetchPicture = typeof fetchProviderPicture;

/** A link to somewhere else: the app's own avatars are upload paths, inline images or nothing. */
export const isNetworkLink = (avatar: string): boolean => /^https?:\/\//i.test(avatar);

/** What a person may see of a URL in the server log: never its query, which may carry tokens. */
const shownUrl = (raw: string): string => {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return 'an unreadable URL';
  }
};

/**
 * A new account made by WeChat or Google sign-in gets a copy of the picture the provider shows,
 * stored as the account's own upload, so the app shows it under its own image policy (no third
 * party sees who opens the app) and it outlives the provider's link.
 *
 * A new account starts with the provider's link as its avatar; that link is the sign that the
 * picture was not imported yet. It is never fetched itself: what is fetched is the picture in the
 * provider's answer, from the provider's picture hosts only (see fetchProviderPicture). So an
 * account imports once, at its first sign-in; a link stored some other way (before
 * `user/update` refused links) is replaced without being fetched. A refused or failed picture
 * never fails the sign-in: the account has no avatar and the log says why. An avatar the person
 * chose while the picture downloaded stands.
 */
export async function importAvatar<U extends { id: string; avatar: string }>(
  services: Pick<Services, 'db' | 'storage' | 'clock' | 'log' | 'config'>,
  user: U,
  picture: ProviderPicture,
  fetchPicture: FetchPicture = fetchProviderPicture,
): Promise<U> {
  const marker = user.avatar;
  if (!isNetworkLink(marker)) return user;
  let avatar = '';
  if (picture.url) {
    const notImported = (reason: string) => services.log(`avatar: ${picture.provider} picture ${shownUrl(picture.url)} not imported: ${reason}`);
    try {
      const fetched = await fetchPicture(picture.url, picture.provider, services.config.providerPictures);
      if (fetched.ok) {
        avatar = (await storeUpload(services.db, services.storage, services.clock, { userId: user.id }, { name: 'avatar', bytes: fetched.bytes })).url;
      } else notImported(fetched.reason);
    } catch (error) {
      notImported(error instanceof Error ? error.name : 'error');
    }
  }
  const [updated] = await services.db
    .update(users)
    .set({ avatar })
    .where(and(eq(users.id, user.id), eq(users.avatar, marker)))
    .returning({ avatar: users.avatar });
  if (updated) return { ...user, avatar: updated.avatar };
  const [current] = await services.db.select({ avatar: users.avatar }).from(users).where(eq(users.id, user.id));
  return { ...user, avatar: current?.avatar ?? avatar };
}
