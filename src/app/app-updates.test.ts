import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../i18n';
import type { ToastInput } from '../machines/toast.machine';
import { watchForUpdates } from './app-updates';

const registered = vi.hoisted(() => ({ options: null as null | { onNeedRefresh?: () => void }, update: vi.fn() }));
vi.mock('virtual:pwa-register', () => ({
  registerSW: (options: { onNeedRefresh?: () => void }) => {
    registered.options = options;
    return registered.update;
  },
}));

beforeAll(async () => {
  await initI18n('en-US');
  Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
});

describe('a new version', () => {
  it('is offered with a toast whose Reload switches to it', async () => {
    const toasts: ToastInput[] = [];
    await watchForUpdates((toast) => toasts.push(toast));
    expect(toasts).toEqual([]);

    registered.options?.onNeedRefresh?.();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ title: 'A new version of Kraken AI is ready.', action: { label: 'Reload' } });
    toasts[0]!.action!.onAction();
    expect(registered.update).toHaveBeenCalledWith(true);
  });
});
