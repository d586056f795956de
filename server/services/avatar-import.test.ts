import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import { users } from '../db/schema';
import type { PictureResult } from '../media/provider-picture';
import { openHarness } from '../test/harness';
import { pngOf } from '../test/png';
import { importAvatar, type FetchPicture } from './avatar-import';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

/** The picture fetch, answering this result and remembering what it was asked. */
const fetcher = (result: PictureResult) => {
  const calls: string[] = [];
  const fetchPicture: FetchPicture = async (url) => {
    calls.push(url);
    return result;
  };
  return { calls, fetchPicture };
};
const png: PictureResult = { ok: true, bytes: new Uint8Array(pngOf(4, [1, 2, 3])), mimeType: 'image/png' };

const withAvatar = async (avatar: string) => {
  const { user } = await h.newUser();
  await h.db.update(users).set({ avatar }).where(eq(users.id, user.id));
  return { ...user, avatar };
};
const storedAvatar = async (id: string) => (await h.db.select().from(users).where(eq(users.id, id)))[0]!.avatar;
const depsOf = (logs: string[] = []) => {
  const t = h.makeApp();
  return { db: h.db, storage: t.storage, clock: t.clock, log: (line: string) => logs.push(line), config: defaultConfig };
};

describe('importing a provider’s picture at sign-up', () => {
  it('stores the picture of the provider’s answer as the new account’s own upload', async () => {
    const picture = 'https://thirdwx.qlogo.cn/mmopen/x/132';
    const user = await withAvatar(picture);
    const host = fetcher(png);
    const imported = await importAvatar(depsOf(), user, { provider: 'wechat', url: picture }, host.fetchPicture);
    expect(host.calls).toEqual([picture]);
    expect(imported.avatar).toMatch(/^\/api\/media\/file\//);
    expect(await storedAvatar(user.id)).toBe(imported.avatar);
  });

  it('imports once: an account that has its avatar, or none after a failed import, is not fetched for again', async () => {
    const picture = 'https://lh3.googleusercontent.com/a/p=s96-c';
    const logs: string[] = [];
    const user = await withAvatar(picture);
    const refused = fetcher({ ok: false, reason: 'not an image' });
    const first = await importAvatar(depsOf(logs), user, { provider: 'google', url: `${picture}?sz=96&token=secret` }, refused.fetchPicture);
    expect(first.avatar).toBe('');
    expect(logs).toEqual(['avatar: google picture https://lh3.googleusercontent.com/a/p=s96-c not imported: not an image']);

    const later = fetcher(png);
    expect(await importAvatar(depsOf(), first, { provider: 'google', url: picture }, later.fetchPicture)).toEqual(first);
    const own = await withAvatar('/api/media/file/00000000-0000-4000-8000-000000000000');
    expect(await importAvatar(depsOf(), own, { provider: 'google', url: picture }, later.fetchPicture)).toEqual(own);
    const inline = await withAvatar('data:image/svg+xml;charset=utf-8,%3Csvg%3E');
    expect(await importAvatar(depsOf(), inline, { provider: 'wechat', url: picture }, later.fetchPicture)).toEqual(inline);
    expect(later.calls).toEqual([]);
  });

  it('never fetches a link stored as the avatar: it asks for the provider’s picture instead', async () => {
    const stored = 'http://127.0.0.1:9/internal';
    const user = await withAvatar(stored);
    const host = fetcher(png);
    const imported = await importAvatar(depsOf(), user, { provider: 'wechat', url: 'https://thirdwx.qlogo.cn/mmopen/y/132' }, host.fetchPicture);
    expect(host.calls).toEqual(['https://thirdwx.qlogo.cn/mmopen/y/132']);
    expect(imported.avatar).toMatch(/^\/api\/media\/file\//);
    const none = await withAvatar(stored);
    expect((await importAvatar(depsOf(), none, { provider: 'google', url: '' }, host.fetchPicture)).avatar).toBe('');
    expect(host.calls).toHaveLength(1);
  });

  it('never overwrites an avatar the person chose while the picture downloaded', async () => {
    const user = await withAvatar('https://lh3.googleusercontent.com/c');
    const slow: FetchPicture = async () => {
      await h.db.update(users).set({ avatar: '/api/media/file/chosen' }).where(eq(users.id, user.id));
      return png;
    };
    const result = await importAvatar(depsOf(), user, { provider: 'google', url: 'https://lh3.googleusercontent.com/c' }, slow);
    expect(result.avatar).toBe('/api/media/file/chosen');
    expect(await storedAvatar(user.id)).toBe('/api/media/file/chosen');
  });
});

describe('a picture that cannot be had', () => {
  it('never fails the sign-in: no avatar, and the log says why', async () => {
    const logs: string[] = [];
    const user = await withAvatar('https://thirdwx.qlogo.cn/mmopen/z/132');
    const broken: FetchPicture = async () => {
      throw new TypeError('boom');
    };
    const result = await importAvatar(depsOf(logs), user, { provider: 'wechat', url: 'https://thirdwx.qlogo.cn/mmopen/z/132?secret=1' }, broken);
    expect(result.avatar).toBe('');
    expect(logs).toEqual(['avatar: wechat picture https://thirdwx.qlogo.cn/mmopen/z/132 not imported: TypeError']);
  });
});
