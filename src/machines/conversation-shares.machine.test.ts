import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Share } from '../contract/shares';
import { conversationSharesMachine, type ConversationSharesInput } from './conversation-shares.machine';

const share = (shareId: string): Share => ({
  shareId, token: `t-${shareId}`, conversationId: 'c1', title: 'Trip', showOwnerName: false, messageCount: 2, createdAt: '2026-01-01T00:00:00.000Z',
});

const open = (input: ConversationSharesInput, overrides: { revokeFails?: boolean } = {}) => {
  const calls = { created: [] as unknown[], revoked: [] as string[], exported: [] as unknown[], fetched: [] as unknown[] };
  const actor = createActor(
    conversationSharesMachine.provide({
      actors: {
        fetchShares: fromPromise(async ({ input: asked }) => {
          calls.fetched.push(asked);
          return [share('s1')];
        }),
        createShare: fromPromise(async ({ input: asked }) => {
          calls.created.push(asked);
          return share('s2');
        }),
        revokeShare: fromPromise(async ({ input: asked }) => {
          if (overrides.revokeFails) throw new Error('HTTP 500');
          calls.revoked.push(asked.shareId);
          return asked.shareId;
        }),
        exportConversation: fromPromise(async ({ input: asked }) => {
          calls.exported.push(asked);
        }),
      },
    }),
    { input },
  ).start();
  return { actor, calls };
};

describe('a conversation’s share links and exports', () => {
  it('lists the links, makes one without the owner’s name unless chosen, and revokes one', async () => {
    const { actor, calls } = open({ conversationId: 'c1', signedIn: true });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    expect(calls.fetched).toEqual([{ conversationId: 'c1' }]);
    actor.send({ type: 'share.create' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.shares).toHaveLength(2));
    actor.send({ type: 'showName.toggle' });
    actor.send({ type: 'share.create' });
    await vi.waitFor(() => expect(calls.created).toHaveLength(2));
    expect(calls.created).toEqual([
      { conversationId: 'c1', showOwnerName: false },
      { conversationId: 'c1', showOwnerName: true },
    ]);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'share.revoke', shareId: 's1' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.shares.map((item) => item.shareId)).not.toContain('s1'));
    expect(calls.revoked).toEqual(['s1']);
  });

  it('keeps a link it could not revoke, and says so', async () => {
    const { actor } = open({ conversationId: 'c1', signedIn: true }, { revokeFails: true });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    actor.send({ type: 'share.revoke', shareId: 's1' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('revoke'));
    expect(actor.getSnapshot().context.shares.map((item) => item.shareId)).toEqual(['s1']);
  });

  it('lets a visitor export but not share', async () => {
    const { actor, calls } = open({ conversationId: 'c1', signedIn: false });
    expect(actor.getSnapshot().value).toBe('exportOnly');
    expect(actor.getSnapshot().can({ type: 'share.create' })).toBe(false);
    actor.send({ type: 'export', format: 'json' });
    await vi.waitFor(() => expect(calls.exported).toEqual([{ conversationId: 'c1', format: 'json' }]));
    expect(calls.fetched).toEqual([]);
  });

  it('lists every link of the account, where nothing can be made or exported', async () => {
    const { actor, calls } = open({ conversationId: null, signedIn: true });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    expect(calls.fetched).toEqual([{ conversationId: null }]);
    expect(actor.getSnapshot().can({ type: 'share.create' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'export', format: 'markdown' })).toBe(false);
  });
});
