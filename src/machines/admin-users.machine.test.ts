import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AdminUser, Organisation } from '../contract/admin';
import type { Page } from '../contract/paging';
import { adminUsersMachine, type AdminUsersNotice, type UserChange } from './admin-users.machine';

const account = (id: string, partial: Partial<AdminUser> = {}): AdminUser => ({
  id,
  username: `${id}@example.com`,
  nickname: id,
  role: 'member',
  companyId: null,
  companyName: null,
  disabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: null,
  ...partial,
});
const pageOf = (list: AdminUser[], total = list.length): Page<AdminUser> => ({ list, total, current: 1, pageSize: 20 });
const apiError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });

const start = (server: { update?: (input: { id: string } & UserChange) => Promise<AdminUser>; total?: number } = {}) => {
  const calls = {
    list: vi.fn(async (_request: unknown) => pageOf([account('ada', { role: 'admin' }), account('mia')], server.total)),
    update: vi.fn(server.update ?? (async (input: { id: string } & UserChange) => account(input.id, { role: input.role ?? 'member' }))),
    notices: [] as AdminUsersNotice[],
  };
  const actor = createActor(
    adminUsersMachine.provide({
      actors: {
        listUsers: fromPromise(({ input }) => calls.list(input)),
        listOrganisations: fromPromise(async () => [{ id: 'acme', name: 'Acme', members: 1 }]),
        updateUser: fromPromise(({ input }) => calls.update(input)),
        signOutUser: fromPromise(async () => ({ revoked: 3 })),
        issueResetLink: fromPromise(async () => ({ path: '/reset-password?token=t', expiresAt: '2026-01-02T00:00:00.000Z' })),
      },
      actions: { notify: (_, notice) => void calls.notices.push(notice) },
    }),
  ).start();
  return { actor, calls };
};

describe('admin users', () => {
  it('loads the first page with the organisations, then changes a role and says so', async () => {
    const { actor, calls } = start();
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && state.context.organisations.length === 1);
    expect(calls.list).toHaveBeenCalledWith({ current: 1, pageSize: 20 });
    actor.send({ type: 'user.update', id: 'mia', change: { role: 'operator' } });
    expect(actor.getSnapshot().context.pending).toEqual({ id: 'mia', action: 'update', change: { role: 'operator' } });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    expect(calls.update).toHaveBeenCalledWith({ id: 'mia', role: 'operator' });
    expect(actor.getSnapshot().context.users.find((user) => user.id === 'mia')?.role).toBe('operator');
    expect(calls.notices).toEqual([{ kind: 'updated', name: 'mia' }]);
  });

  it('names an account without a nickname by its username when it was changed', async () => {
    const { actor, calls } = start({ update: async (input) => account(input.id, { nickname: '', role: input.role ?? 'member' }) });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'user.update', id: 'mia', change: { role: 'operator' } });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && calls.notices.length === 1);
    expect(calls.notices).toEqual([{ kind: 'updated', name: 'mia@example.com' }]);
  });

  it('keeps the list as the server holds it and names the refusal when a change is refused (409)', async () => {
    const { actor } = start({
      update: async () => {
        throw apiError(409);
      },
    });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'search.typed', keyword: 'ad' });
    actor.send({ type: 'user.update', id: 'ada', change: { role: 'member' } });
    await waitFor(actor, (state) => state.context.failure !== null);
    const { context } = actor.getSnapshot();
    expect(context.failure).toEqual({ status: 409, during: 'update' });
    expect(context.users.find((user) => user.id === 'ada')?.role).toBe('admin');
    expect(context.typed).toBe('ad');
    expect(context.pending).toBeNull();
  });

  it('searches from page 1 with the words typed, trimmed, and filters by organisation', async () => {
    const { actor, calls } = start({ total: 45 });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'page', current: 3 });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'search.typed', keyword: '  grace ' });
    actor.send({ type: 'search' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'filter.organisation', companyId: 'acme' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    expect(calls.list.mock.calls.map(([request]) => request)).toEqual([
      { current: 1, pageSize: 20 },
      { current: 3, pageSize: 20 },
      { current: 1, pageSize: 20, keyword: 'grace' },
      { current: 1, pageSize: 20, keyword: 'grace', companyId: 'acme' },
    ]);
  });

  it('never asks for a page beyond the last, nor changes an account it does not list', async () => {
    const { actor, calls } = start();
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'page', current: 2 });
    actor.send({ type: 'user.update', id: 'stranger', change: { disabled: true } });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
    expect(calls.list).toHaveBeenCalledTimes(1);
    expect(calls.update).not.toHaveBeenCalled();
  });

  it('holds a reset link for the account it was made for until it is dismissed; a sign-out counts the sessions', async () => {
    const { actor, calls } = start();
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'user.resetLink', id: 'mia' });
    await waitFor(actor, (state) => state.context.resetLink !== null);
    expect(actor.getSnapshot().context.resetLink).toEqual({ userId: 'mia', name: 'mia', path: '/reset-password?token=t', expiresAt: '2026-01-02T00:00:00.000Z' });
    actor.send({ type: 'resetLink.dismiss' });
    expect(actor.getSnapshot().context.resetLink).toBeNull();
    actor.send({ type: 'user.signOut', id: 'ada' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    expect(calls.notices).toEqual([{ kind: 'signedOut', name: 'ada', count: 3 }]);
  });

  it('offers a retry when the accounts cannot be read', async () => {
    let attempts = 0;
    const actor = createActor(
      adminUsersMachine.provide({
        actors: {
          listUsers: fromPromise(async () => {
            attempts += 1;
            if (attempts === 1) throw Object.assign(new Error('offline'), { unreachable: true });
            return pageOf([account('ada')]);
          }),
          listOrganisations: fromPromise(async (): Promise<Organisation[]> => []),
        },
      }),
    ).start();
    await waitFor(actor, (state) => state.matches('loadFailed'));
    expect(actor.getSnapshot().context.failure).toEqual({ status: undefined, during: 'load' });
    actor.send({ type: 'retry' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    expect(actor.getSnapshot().context.users).toHaveLength(1);
  });

  it('works on without the organisations when they are refused: the list loads, the panel does not stop', async () => {
    const actor = createActor(
      adminUsersMachine.provide({
        actors: {
          listUsers: fromPromise(async () => pageOf([account('ada')])),
          listOrganisations: fromPromise(async (): Promise<Organisation[]> => {
            throw Object.assign(new Error('refused'), { status: 500 });
          }),
        },
      }),
    ).start();
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().context.organisations).toEqual([]);
    expect(actor.getSnapshot().context.users).toHaveLength(1);
  });
});
