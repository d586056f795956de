import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Invitation } from '../contract/admin';
import { adminInvitationsMachine, invitationStatus, type CreatedInvitation } from './admin-invitations.machine';

const invitation = (id: string, partial: Partial<Invitation> = {}): Invitation => ({
  id,
  companyId: 'acme',
  companyName: 'Acme',
  role: 'member',
  note: null,
  createdByName: 'Ada',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-08T00:00:00.000Z',
  acceptedAt: null,
  revokedAt: null,
  ...partial,
});
const organisations = [
  { id: 'acme', name: 'Acme', members: 2 },
  { id: 'globex', name: 'Globex', members: 0 },
];

const start = (create: (input: unknown) => Promise<CreatedInvitation>) => {
  const lists = [[invitation('old', { acceptedAt: '2026-01-02T00:00:00.000Z' }), invitation('open')]];
  const calls = { create: vi.fn(create), revoke: vi.fn(async (_id: string) => undefined), revoked: 0 };
  const actor = createActor(
    adminInvitationsMachine.provide({
      actors: {
        loadInvitations: fromPromise(async () => ({ invitations: lists.at(-1)!, organisations })),
        createInvitation: fromPromise(({ input }) => calls.create(input)),
        revokeInvitation: fromPromise(({ input }) => calls.revoke(input.id)),
      },
      actions: { revoked: () => void (calls.revoked += 1) },
    }),
  ).start();
  return { actor, calls };
};

describe('admin invitations', () => {
  it('chooses the first organisation, sends the form trimmed, and holds the new link until dismissed', async () => {
    const created = { invitation: invitation('new', { companyId: 'globex', role: 'operator' }), path: '/login?invitation=x' };
    const { actor, calls } = start(async () => created);
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    expect(actor.getSnapshot().context.draft).toEqual({ companyId: 'acme', role: 'member', note: '' });
    actor.send({ type: 'draft.change', draft: { companyId: 'globex', role: 'operator', note: '  for Grace ' } });
    actor.send({ type: 'create' });
    await waitFor(actor, (state) => state.context.created !== null);
    expect(calls.create).toHaveBeenCalledWith({ companyId: 'globex', role: 'operator', note: 'for Grace' });
    const { context } = actor.getSnapshot();
    expect(context.created).toEqual(created);
    expect(context.invitations.map((item) => item.id)).toEqual(['new', 'old', 'open']);
    expect(context.draft).toEqual({ companyId: 'globex', role: 'operator', note: '' });
    actor.send({ type: 'created.dismiss' });
    expect(actor.getSnapshot().context.created).toBeNull();
  });

  it('keeps the form as typed when the creation is refused', async () => {
    const { actor } = start(async () => {
      throw Object.assign(new Error('HTTP 404'), { status: 404 });
    });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'draft.change', draft: { note: 'for Linus' } });
    actor.send({ type: 'create' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(actor.getSnapshot().context).toMatchObject({ failure: { status: 404, during: 'create' }, draft: { note: 'for Linus' }, created: null });
  });

  it('revokes only an unused invitation, then reads the list again', async () => {
    const { actor, calls } = start(async () => {
      throw new Error('unused');
    });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'revoke', id: 'old' });
    expect(calls.revoke).not.toHaveBeenCalled();
    actor.send({ type: 'revoke', id: 'open' });
    expect(actor.getSnapshot().context.revokingId).toBe('open');
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && state.context.revokingId === null);
    expect(calls.revoke).toHaveBeenCalledExactlyOnceWith('open');
    expect(calls.revoked).toBe(1);
  });

  it('tells open, used, revoked and expired apart', () => {
    const now = new Date('2026-01-05T00:00:00.000Z');
    expect(invitationStatus(invitation('a'), now)).toBe('open');
    expect(invitationStatus(invitation('b', { acceptedAt: '2026-01-02T00:00:00.000Z' }), now)).toBe('accepted');
    expect(invitationStatus(invitation('c', { revokedAt: '2026-01-02T00:00:00.000Z' }), now)).toBe('revoked');
    expect(invitationStatus(invitation('d'), new Date('2026-01-08T00:00:00.000Z'))).toBe('expired');
  });
});
