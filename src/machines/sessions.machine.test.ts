import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Session } from '../contract/users';
import { sessionsMachine, type SessionsNotice } from './sessions.machine';

const session = (id: string, current = false): Session => ({
  id,
  device: { browser: 'Chrome 131', os: 'Windows' },
  address: '198.51.100.2',
  method: 'password',
  signedInAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: '2026-11-22T10:00:00.000Z',
  current,
});
const apiError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });

const start = (server: { list: Session[][]; revoke?: (id: string) => Promise<void> }) => {
  const lists = [...server.list];
  const calls = {
    list: vi.fn(async () => lists.shift() ?? []),
    revoke: vi.fn(server.revoke ?? (async () => undefined)),
    revokeOthers: vi.fn(async () => ({ revoked: 2 })),
    notices: [] as SessionsNotice[],
  };
  const actor = createActor(
    sessionsMachine.provide({
      actors: {
        listSessions: fromPromise(() => calls.list()),
        revokeSession: fromPromise(({ input }) => calls.revoke(input.id)),
        revokeOthers: fromPromise(() => calls.revokeOthers()),
      },
      actions: { notify: (_, notice) => void calls.notices.push(notice) },
    }),
  ).start();
  return { actor, calls };
};

describe('sessions', () => {
  it('signs out another session, says so, and reads the list again', async () => {
    const { actor, calls } = start({ list: [[session('me', true), session('phone')], [session('me', true)]] });
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'revoke', id: 'phone' });
    expect(actor.getSnapshot().context.pendingId).toBe('phone');
    await waitFor(actor, (state) => state.matches('ready') && state.context.sessions.length === 1);
    expect(calls.revoke).toHaveBeenCalledExactlyOnceWith('phone');
    expect(calls.notices).toEqual([{ kind: 'revoked' }]);
    expect(actor.getSnapshot().context.pendingId).toBeNull();
  });

  it('never signs out this browser from the list, nor a session it does not show', async () => {
    const { actor, calls } = start({ list: [[session('me', true), session('phone')]] });
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'revoke', id: 'me' });
    actor.send({ type: 'revoke', id: 'someone-else' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(calls.revoke).not.toHaveBeenCalled();
  });

  it('offers "all others" only when there are others', async () => {
    const { actor, calls } = start({ list: [[session('me', true)]] });
    await waitFor(actor, (state) => state.matches('ready'));
    expect(actor.getSnapshot().can({ type: 'revokeOthers' })).toBe(false);
    actor.send({ type: 'revokeOthers' });
    expect(calls.revokeOthers).not.toHaveBeenCalled();
  });

  it('signs out all others and tells how many', async () => {
    const { actor, calls } = start({ list: [[session('me', true), session('a'), session('b')], [session('me', true)]] });
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'revokeOthers' });
    await waitFor(actor, (state) => state.matches('ready') && state.context.sessions.length === 1);
    expect(calls.revokeOthers).toHaveBeenCalledTimes(1);
    expect(calls.notices).toEqual([{ kind: 'revokedOthers', count: 2 }]);
  });

  it('keeps the list and says why when a sign-out fails; a session already gone just refreshes', async () => {
    const failing = start({
      list: [[session('me', true), session('phone')]],
      revoke: async () => {
        throw apiError(500);
      },
    });
    await waitFor(failing.actor, (state) => state.matches('ready'));
    failing.actor.send({ type: 'revoke', id: 'phone' });
    await waitFor(failing.actor, (state) => state.matches('ready') && state.context.failure !== null);
    expect(failing.actor.getSnapshot().context.failure).toBe('HTTP 500');
    expect(failing.actor.getSnapshot().context.pendingId).toBeNull();
    expect(failing.actor.getSnapshot().context.sessions).toHaveLength(2);
    expect(failing.calls.notices).toEqual([]);

    const gone = start({
      list: [[session('me', true), session('phone')], [session('me', true)]],
      revoke: async () => {
        throw apiError(404);
      },
    });
    await waitFor(gone.actor, (state) => state.matches('ready'));
    gone.actor.send({ type: 'revoke', id: 'phone' });
    await waitFor(gone.actor, (state) => state.matches('ready') && state.context.sessions.length === 1);
    expect(gone.actor.getSnapshot().context.failure).toBeNull();
  });

  it('offers a retry when the list cannot be loaded', async () => {
    let attempts = 0;
    const actor = createActor(
      sessionsMachine.provide({
        actors: {
          listSessions: fromPromise(async () => {
            attempts += 1;
            if (attempts === 1) throw apiError(503);
            return [session('me', true)];
          }),
        },
      }),
    ).start();
    await waitFor(actor, (state) => state.matches('loadFailed'));
    expect(actor.getSnapshot().context.failure).toBe('HTTP 503');
    actor.send({ type: 'retry' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    await waitFor(actor, (state) => state.matches('ready'));
    expect(actor.getSnapshot().context.sessions).toHaveLength(1);
  });

  it('keeps the list and says why when signing out all others fails', async () => {
    const actor = createActor(
      sessionsMachine.provide({
        actors: {
          listSessions: fromPromise(async () => [session('me', true), session('phone')]),
          revokeOthers: fromPromise<{ revoked: number }>(async () => {
            throw 'offline';
          }),
        },
      }),
    ).start();
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'revokeOthers' });
    await waitFor(actor, (state) => state.matches('ready') && state.context.failure !== null);
    expect(actor.getSnapshot().context).toMatchObject({ failure: 'offline', sessions: [{ id: 'me' }, { id: 'phone' }] });
  });
});
