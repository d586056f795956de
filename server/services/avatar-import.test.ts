import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { openHarness } from '../test/harness';
import { pngOf } from '../test/png';
import { AVATAR_IMPORT_MAX_BYTES, importAvatar } from './avatar-import';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

/** A provider's picture host that answers these bytes, counting its calls. */
const host = (body: () => BodyInit, headers: Record<string, string> = { 'content-type': 'image/png' }) => {
  const calls: string[] = [];
  const fetchImpl = (async (url: string) => {
    calls.push(url);
    return new Response(body(), { headers });
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
};

const withAvatar = async (avatar: string) => {
  const { user } = await h.newUser();
  await h.db.update(users).set({ avatar }).where(eq(users.id, user.id));
  return { ...user, avatar };
};
const storedAvatar = async (id: string) => (await h.db.select().from(users).where(eq(users.id, id)))[0]!.avatar;

describe('importing a provider’s picture', () => {
  it('stores an image as the account’s own upload and points the avatar at it', async () => {
    const t = h.makeApp();
    const user = await withAvatar('https://thirdwx.qlogo.cn/mmopen/x/132');
    const picture = host(() => new Uint8Array(pngOf(4, [1, 2, 3])));
    const imported = await importAvatar({ db: h.db, storage: t.storage, clock: t.clock, log: () => undefined }, user, picture.fetchImpl);
    expect(picture.calls).toEqual(['https://thirdwx.qlogo.cn/mmopen/x/132']);
    expect(imported.avatar).toMatch(/^\/api\/media\/file\//);
    expect(await storedAvatar(user.id)).toBe(imported.avatar);
  });

  it('keeps no avatar for something that is not an image, or too large', async () => {
    const t = h.makeApp();
    const deps = { db: h.db, storage: t.storage, clock: t.clock, log: () => undefined };
    const page = await importAvatar(deps, await withAvatar('https://lh3.example/a'), host(() => '<html><script>alert(1)</script>').fetchImpl);
    expect(page.avatar).toBe('');
    const huge = new Uint8Array(AVATAR_IMPORT_MAX_BYTES + 1);
    huge.set(pngOf(2, [0, 0, 0]));
    const big = await importAvatar(deps, await withAvatar('https://lh3.example/b'), host(() => huge, {}).fetchImpl);
    expect(big.avatar).toBe('');
  });

  it('leaves the app’s own avatars alone, and never overwrites one the person chose meanwhile', async () => {
    const t = h.makeApp();
    const deps = { db: h.db, storage: t.storage, clock: t.clock, log: () => undefined };
    const picture = host(() => new Uint8Array(pngOf(4, [1, 2, 3])));
    const own = await withAvatar('/api/media/file/00000000-0000-4000-8000-000000000000');
    expect(await importAvatar(deps, own, picture.fetchImpl)).toEqual(own);
    expect(picture.calls).toEqual([]);

    const user = await withAvatar('https://lh3.example/c');
    const slow = (async () => {
      // the person saves their own avatar while the picture downloads
      await h.db.update(users).set({ avatar: '/api/media/file/chosen' }).where(eq(users.id, user.id));
      return new Response(new Uint8Array(pngOf(4, [1, 2, 3])));
    }) as unknown as typeof fetch;
    const result = await importAvatar(deps, user, slow);
    expect(result.avatar).toBe('/api/media/file/chosen');
    expect(await storedAvatar(user.id)).toBe('/api/media/file/chosen');
  });
});
