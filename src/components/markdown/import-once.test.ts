import { describe, expect, it, vi } from 'vitest';
import { importOnce } from './import-once';

describe('importOnce', () => {
  it('imports once for every caller, before and after it has arrived', async () => {
    const load = vi.fn(async () => ({ name: 'chunk' }));
    const get = importOnce(load);
    const [first, second] = await Promise.all([get(), get()]);
    expect(await get()).toBe(first);
    expect(second).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed import, and keeps the one that worked', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ name: 'chunk' });
    const get = importOnce(load);
    await expect(get()).rejects.toThrow('offline');
    const chunk = await get();
    expect(chunk).toEqual({ name: 'chunk' });
    expect(await get()).toBe(chunk);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
