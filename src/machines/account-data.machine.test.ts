import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AccountExport } from '../contract/accounts';
import { accountDataMachine } from './account-data.machine';

const DOCUMENT: AccountExport = { exportedAt: '2026-03-01T10:00:00.000Z', user: {}, conversations: [], uploads: [], shares: [] };

const start = (deleteAnswer: () => Promise<void> = async () => undefined) => {
  const saved = vi.fn();
  const deleted = vi.fn();
  const deleteAccount = vi.fn((_input: { confirm: string }) => deleteAnswer());
  const actor = createActor(
    accountDataMachine.provide({
      actors: {
        exportAccount: fromPromise(async () => DOCUMENT),
        deleteAccount: fromPromise(({ input }) => deleteAccount(input)),
      },
      actions: { saveExport: (_, params) => saved(params), accountDeleted: () => deleted() },
    }),
    { input: { username: 'ada@example.com' } },
  ).start();
  return { actor, saved, deleted, deleteAccount };
};

describe('the account’s data', () => {
  it('downloads while the deletion dialog stays open, as the dialog offers', async () => {
    const { actor, saved } = start();
    actor.send({ type: 'delete.open' });
    actor.send({ type: 'confirm.change', value: 'ada@' });
    actor.send({ type: 'export' });
    await waitFor(actor, (state) => state.matches({ download: 'idle' }));
    expect(saved).toHaveBeenCalledWith({ data: DOCUMENT, username: 'ada@example.com' });
    expect(actor.getSnapshot().matches({ deletion: 'confirming' })).toBe(true);
    expect(actor.getSnapshot().context.confirmText).toBe('ada@');
  });

  it('deletes only once the account name is typed again, and says when it is not', async () => {
    const { actor, deleteAccount, deleted } = start();
    actor.send({ type: 'delete.confirm' });
    expect(deleteAccount).not.toHaveBeenCalled();
    actor.send({ type: 'delete.open' });
    actor.send({ type: 'confirm.change', value: 'Ada' });
    actor.send({ type: 'delete.confirm' });
    expect(actor.getSnapshot().context.deleteFailure).toBe('account.data.mismatch');
    expect(deleteAccount).not.toHaveBeenCalled();

    actor.send({ type: 'confirm.change', value: ' ada@example.com ' });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (state) => state.matches({ deletion: 'deleted' }));
    expect(deleteAccount).toHaveBeenCalledWith({ confirm: 'ada@example.com' });
    expect(deleted).toHaveBeenCalledTimes(1);
  });

  it('keeps the last admin in the dialog, told why, with what they typed', async () => {
    const { actor, deleted } = start(async () => Promise.reject(Object.assign(new Error('last admin'), { status: 409 })));
    actor.send({ type: 'delete.open' });
    actor.send({ type: 'confirm.change', value: 'ada@example.com' });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (state) => state.matches({ deletion: 'confirming' }) && state.context.deleteFailure !== null);
    expect(actor.getSnapshot().context).toMatchObject({ deleteFailure: 'account.data.lastAdmin', confirmText: 'ada@example.com' });
    expect(deleted).not.toHaveBeenCalled();
    actor.send({ type: 'delete.cancel' });
    expect(actor.getSnapshot().context.confirmText).toBe('');
  });
});
