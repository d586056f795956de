import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Conversation } from '../contract/conversations';
import type { Page } from '../contract/paging';
import { conversationsMachine, FOCUS_REFRESH_MS, HISTORY_CACHE_MS, historyRows, reportingActor, UNDO_DELETE_MS } from './conversations.machine';

const conversation = (id: string, updatedAt: string, pinned = false): Conversation => ({
  conversationId: id,
  source: 'agent',
  sourceId: 'agent',
  title: `Chat ${id}`,
  pinned,
  createdAt: updatedAt,
  updatedAt,
});

const page = (list: Conversation[], total = list.length): Page<Conversation> => ({ list, total, current: 1, pageSize: 20 });

const setupHistory = (list: Conversation[], input: { cache?: { items: Conversation[]; total: number; page: number; keyword: string; fetchedAt: number } | null } = {}) => {
  const fetchPage = vi.fn(async () => page(list));
  const save = vi.fn(async ({ patch, previous }: { patch: { conversationId: string; title?: string; pinned?: boolean }; previous: Conversation }) => ({ ...previous, ...patch }));
  const remove = vi.fn(async () => null);
  const announceDeleted = vi.fn();
  const withdrawUndo = vi.fn();
  const announceFailure = vi.fn();
  const flushPendingDeletes = vi.fn(({ context }: { context: { pendingDeletes: Array<{ conversation: Conversation }> } }) =>
    context.pendingDeletes.map((entry) => entry.conversation.conversationId),
  );
  const actor = createActor(
    conversationsMachine.provide({
      actors: {
        fetchPage: fromPromise(fetchPage),
        saveConversation: reportingActor(save, (item) => item.previous, (item) => item.patch.conversationId),
        deleteConversation: reportingActor(remove, (item) => item.conversation, (item) => item.conversation.conversationId),
      },
      actions: { announceDeleted, announceFailure, flushPendingDeletes, withdrawUndo: ({ event }) => withdrawUndo(event) },
    }),
    { input },
  );
  actor.start();
  return { actor, fetchPage, save, remove, announceDeleted, announceFailure, flushPendingDeletes, withdrawUndo };
};

afterEach(() => {
  vi.useRealTimers();
});

describe('the history machine', () => {
  it('shows a cached history under 5 minutes old at once and refreshes it behind the scenes', async () => {
    const cached = [conversation('a', '2025-01-01T00:00:00Z')];
    const fresh = [conversation('b', '2025-01-02T00:00:00Z'), ...cached];
    const { actor, fetchPage } = setupHistory(fresh, { cache: { items: cached, total: 1, page: 1, keyword: '', fetchedAt: Date.now() - 60_000 } });
    expect(actor.getSnapshot().matches('revalidating')).toBe(true);
    expect(actor.getSnapshot().context.items).toEqual(cached);
    await waitFor(actor, (state) => state.matches('ready'));
    expect(actor.getSnapshot().context.items).toEqual(fresh);
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('ignores a cache older than 5 minutes', () => {
    const { actor } = setupHistory([], {
      cache: { items: [conversation('a', '2025-01-01T00:00:00Z')], total: 1, page: 1, keyword: '', fetchedAt: Date.now() - HISTORY_CACHE_MS - 1 },
    });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.items).toEqual([]);
  });

  it('refreshes on window focus at most once every 5 seconds', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { actor, fetchPage } = setupHistory([]);
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'window.focus' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    vi.setSystemTime(Date.now() + FOCUS_REFRESH_MS);
    actor.send({ type: 'window.focus' });
    expect(actor.getSnapshot().matches('revalidating')).toBe(true);
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'window.focus' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('deletes on the server only when the undo window closes, and not at all after undo', async () => {
    vi.useFakeTimers();
    const items = [conversation('a', '2025-01-02T00:00:00Z'), conversation('b', '2025-01-01T00:00:00Z')];
    const { actor, remove, announceDeleted, withdrawUndo } = setupHistory(items);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));

    actor.send({ type: 'delete', conversationId: 'a' });
    expect(actor.getSnapshot().context.items.map((item) => item.conversationId)).toEqual(['b']);
    expect(announceDeleted).toHaveBeenCalledTimes(1);
    actor.send({ type: 'delete.undo', conversationId: 'a' });
    expect(actor.getSnapshot().context.items.map((item) => item.conversationId)).toEqual(['a', 'b']);
    vi.advanceTimersByTime(UNDO_DELETE_MS * 2);
    expect(remove).not.toHaveBeenCalled();
    expect(withdrawUndo).not.toHaveBeenCalled();

    actor.send({ type: 'delete', conversationId: 'a' });
    vi.advanceTimersByTime(UNDO_DELETE_MS - 1);
    expect(remove).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(remove).toHaveBeenCalledTimes(1);
    // The undo offer goes when the delete is sent, even if its toast is still held open.
    expect(withdrawUndo).toHaveBeenCalledTimes(1);
    expect(withdrawUndo).toHaveBeenCalledWith({ type: 'delete.commit', conversationId: 'a' });
  });

  it('deletes at once what is still waiting for its undo window when the history closes', async () => {
    const { actor, flushPendingDeletes } = setupHistory([conversation('a', '2025-01-02T00:00:00Z')]);
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'delete', conversationId: 'a' });
    actor.send({ type: 'history.close' });
    actor.stop();
    expect(flushPendingDeletes).toHaveReturnedWith(['a']);
  });

  it('puts a chat back as it was when the server refuses to pin it', async () => {
    const items = [conversation('a', '2025-01-02T00:00:00Z'), conversation('b', '2025-01-01T00:00:00Z')];
    const { actor, save, announceFailure } = setupHistory(items);
    save.mockRejectedValueOnce(new Error('read-only'));
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'pin.toggle', conversationId: 'b' });
    expect(actor.getSnapshot().context.items.map((item) => item.conversationId)).toEqual(['b', 'a']);
    await vi.waitFor(() => expect(announceFailure).toHaveBeenCalledTimes(1));
    expect(actor.getSnapshot().context.items).toEqual(items);
  });

  it('marks the chat in the address as the open one, and none while the agents market shows', async () => {
    const { actor } = setupHistory([]);
    actor.send({ type: 'route.changed', market: false, conversationId: 'a' });
    expect(actor.getSnapshot().context.activeId).toBe('a');
    actor.send({ type: 'route.changed', market: true, conversationId: null });
    expect(actor.getSnapshot().context.activeId).toBeNull();
  });
});

describe('historyRows', () => {
  it('puts a heading before each group, pinned first', () => {
    const now = new Date('2025-03-10T12:00:00');
    const rows = historyRows(
      [
        conversation('p', '2024-01-01T00:00:00', true),
        conversation('t', '2025-03-10T08:00:00'),
        conversation('t2', '2025-03-10T07:00:00'),
        conversation('e', '2025-01-01T00:00:00'),
      ],
      now,
    );
    expect(rows.map((row) => (row.kind === 'group' ? `#${row.group}` : row.key))).toEqual(['#pinned', 'p', '#today', 't', 't2', '#earlier', 'e']);
  });
});
