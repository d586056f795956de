import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SharedConversation } from '../contract/shares';
import { sharedConversationMachine } from './shared-conversation.machine';

const shared: SharedConversation = { title: 'Picnic', ownerName: null, sharedAt: '2026-01-01T00:00:00.000Z', messages: [] } as unknown as SharedConversation;
const failing = (status: number | undefined) => Object.assign(new Error(`HTTP ${status}`), { status });

/** The page for one link, its server answering with each of `answers` in turn. */
const open = (answers: Array<SharedConversation | Error>) => {
  const fetchShared = vi.fn(async ({ token }: { token: string }) => {
    const answer = answers.shift();
    if (!answer || answer instanceof Error) throw answer ?? new Error('no answer');
    expect(token).toBe('tok-1');
    return answer;
  });
  const actor = createActor(sharedConversationMachine.provide({ actors: { fetchShared: fromPromise(({ input }) => fetchShared(input)) } }), {
    input: { token: 'tok-1' },
  }).start();
  return { actor, fetchShared };
};

describe('a shared conversation read by its link', () => {
  it('shows the conversation the link names, and nothing before it arrives', async () => {
    const { actor, fetchShared } = open([shared]);
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.shared).toBeNull();
    await waitFor(actor, (state) => state.matches('ready'));
    expect(actor.getSnapshot().context.shared).toBe(shared);
    expect(fetchShared).toHaveBeenCalledWith({ token: 'tok-1' });
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(false);
  });

  it.each([404, 400])('says the link is gone when the server answers %i, with no retry', async (status) => {
    const { actor } = open([failing(status)]);
    await waitFor(actor, (state) => state.matches('gone'));
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(false);
  });

  it.each([500, 403, undefined])('offers a retry after any other failure (%s), and shows the conversation once it loads', async (status) => {
    const { actor, fetchShared } = open([failing(status), shared]);
    await waitFor(actor, (state) => state.matches('failed'));
    actor.send({ type: 'retry' });
    await waitFor(actor, (state) => state.matches('ready'));
    expect(actor.getSnapshot().context.shared).toBe(shared);
    expect(fetchShared).toHaveBeenCalledTimes(2);
  });
});
