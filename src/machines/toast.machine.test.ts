import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS, toastMachine } from './toast.machine';

const start = () => createActor(toastMachine).start();
const shown = (actor: ReturnType<typeof start>) => actor.getSnapshot().context.toasts;

describe('the toast queue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows only the newest toast (limit 1)', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { title: 'First' } });
    toasts.send({ type: 'toast.add', toast: { title: 'Second', variant: 'destructive' } });

    expect(TOAST_LIMIT).toBe(1);
    expect(shown(toasts)).toHaveLength(1);
    expect(shown(toasts)[0]).toMatchObject({ title: 'Second', variant: 'destructive', open: true });
  });

  it('gives each toast its own id and the default variant', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { title: 'One' } });
    const first = shown(toasts)[0]!;
    toasts.send({ type: 'toast.add', toast: { title: 'Two' } });
    const second = shown(toasts)[0]!;

    expect(first.variant).toBe('default');
    expect(second.id).not.toBe(first.id);
  });

  it.each(['default', 'destructive', 'success', 'warn'] as const)('keeps the %s variant', (variant) => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { title: 'x', variant } });
    expect(shown(toasts)[0]!.variant).toBe(variant);
  });

  it('replaces a toast added again with the same id instead of stacking it', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { id: 'saving', title: 'Saving…' } });
    toasts.send({ type: 'toast.add', toast: { id: 'saving', title: 'Saved', variant: 'success' } });
    expect(shown(toasts)).toEqual([expect.objectContaining({ id: 'saving', title: 'Saved', variant: 'success' })]);
  });

  it('updates a shown toast in place, never its id', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { id: 'upload', title: 'Uploading', description: '10%' } });
    toasts.send({ type: 'toast.update', id: 'upload', patch: { description: '90%', variant: 'warn' } });

    expect(shown(toasts)[0]).toMatchObject({ id: 'upload', title: 'Uploading', description: '90%', variant: 'warn', open: true });

    toasts.send({ type: 'toast.update', id: 'someone-else', patch: { title: 'Nope' } });
    expect(shown(toasts)[0]!.title).toBe('Uploading');
  });

  it('closes a dismissed toast at once and removes it after 1,000,000 ms', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { id: 'a', title: 'Bye' } });
    toasts.send({ type: 'toast.dismiss', id: 'a' });

    expect(shown(toasts)).toEqual([expect.objectContaining({ id: 'a', open: false })]);

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(TOAST_REMOVE_DELAY_MS).toBe(1_000_000);
    expect(shown(toasts)).toHaveLength(1);

    vi.advanceTimersByTime(1);
    expect(shown(toasts)).toEqual([]);
  });

  it('restarts the removal delay when a toast is dismissed again', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { id: 'a', title: 'Bye' } });
    toasts.send({ type: 'toast.dismiss', id: 'a' });
    vi.advanceTimersByTime(600_000);
    toasts.send({ type: 'toast.dismiss', id: 'a' });
    vi.advanceTimersByTime(600_000);

    expect(shown(toasts)).toHaveLength(1);

    vi.advanceTimersByTime(400_000);
    expect(shown(toasts)).toEqual([]);
  });

  it('removes a toast at once on request', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { id: 'a', title: 'Gone' } });
    toasts.send({ type: 'toast.remove', id: 'a' });
    expect(shown(toasts)).toEqual([]);
  });

  it('dismisses every toast when no id is given, then removes them all', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { id: 'a', title: 'A' } });
    toasts.send({ type: 'toast.dismiss' });

    expect(shown(toasts).every((toast) => !toast.open)).toBe(true);

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(shown(toasts)).toEqual([]);
  });

  it('removes every toast at once when no id is given', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { title: 'A' } });
    toasts.send({ type: 'toast.add', toast: { title: 'B' } });
    toasts.send({ type: 'toast.remove' });
    expect(shown(toasts)).toEqual([]);
  });

  it('keeps a dismissed toast that is added again with the same id when its old removal comes due', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { id: 'saving', title: 'Saving…' } });
    toasts.send({ type: 'toast.dismiss', id: 'saving' });
    vi.advanceTimersByTime(600_000);
    toasts.send({ type: 'toast.add', toast: { id: 'saving', title: 'Saved again' } });

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);

    expect(shown(toasts)).toEqual([expect.objectContaining({ id: 'saving', title: 'Saved again', open: true })]);
  });

  it('does not remove a newer toast when an older dismissed one times out', () => {
    const toasts = start();
    toasts.send({ type: 'toast.add', toast: { id: 'old', title: 'Old' } });
    toasts.send({ type: 'toast.dismiss', id: 'old' });
    toasts.send({ type: 'toast.add', toast: { id: 'new', title: 'New' } });

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);

    expect(shown(toasts)).toEqual([expect.objectContaining({ id: 'new', open: true })]);
  });
});
