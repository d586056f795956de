import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { ScanApproval } from '../contract/users';
import { scanApprovalMachine, type ScanApprovalInput } from './scan-approval.machine';

const waiting = (lifetimeMs: number): ScanApproval => ({
  status: 'waiting',
  device: { browser: 'Chrome 131', os: 'Windows' },
  address: '198.51.100.2',
  createdAt: new Date(Date.now()).toISOString(),
  expiresAt: new Date(Date.now() + lifetimeMs).toISOString(),
});

const start = (input: ScanApprovalInput, ticket: ScanApproval = waiting(180_000)) => {
  const calls = {
    fetch: vi.fn(async (_scanId: string) => ticket),
    approve: vi.fn(async (_scanId: string): Promise<void> => undefined),
    deny: vi.fn(async (_scanId: string): Promise<void> => undefined),
    askToLogIn: vi.fn(),
  };
  const actor = createActor(
    scanApprovalMachine.provide({
      actors: {
        fetchTicket: fromPromise(({ input }) => calls.fetch(input.scanId)),
        approveTicket: fromPromise(({ input }) => calls.approve(input.scanId)),
        denyTicket: fromPromise(({ input }) => calls.deny(input.scanId)),
      },
      actions: { askToLogIn: (_, { scanId }) => calls.askToLogIn(scanId) },
    }),
    { input },
  ).start();
  return { actor, calls };
};

afterEach(() => {
  vi.useRealTimers();
});

describe('scan approval', () => {
  it('sends a visitor to log in first and looks at nothing until then', () => {
    const { actor, calls } = start({ scanId: 's1', signedIn: false });
    expect(actor.getSnapshot().value).toBe('signingIn');
    expect(calls.askToLogIn).toHaveBeenCalledExactlyOnceWith('s1');
    expect(calls.fetch).not.toHaveBeenCalled();
    expect(calls.approve).not.toHaveBeenCalled();
  });

  it('a link without a code is unknown, and asks the server nothing', () => {
    const { actor, calls } = start({ scanId: null, signedIn: true });
    expect(actor.getSnapshot().value).toBe('unknown');
    expect(calls.fetch).not.toHaveBeenCalled();
  });

  it('opening the page never approves: only the approve event does', async () => {
    vi.useFakeTimers();
    const { actor, calls } = start({ scanId: 's2', signedIn: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('review');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.approve).not.toHaveBeenCalled();
    expect(calls.deny).not.toHaveBeenCalled();
    actor.send({ type: 'approve' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.approve).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('approved');
  });

  it('takes the buttons away when the code expires while the person looks', async () => {
    vi.useFakeTimers();
    const { actor } = start({ scanId: 's3', signedIn: true }, waiting(30_000));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(actor.getSnapshot().value).toBe('review');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(actor.getSnapshot().value).toBe('expired');
    actor.send({ type: 'approve' });
    expect(actor.getSnapshot().value).toBe('expired');
  });

  it('keeps the buttons a few seconds when this clock is ahead of the server (the server has the last word)', async () => {
    vi.useFakeTimers();
    const skewed = { ...waiting(180_000), createdAt: new Date(Date.now() - 400_000).toISOString(), expiresAt: new Date(Date.now() - 220_000).toISOString() };
    const { actor } = start({ scanId: 's4', signedIn: true }, skewed);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(actor.getSnapshot().value).toBe('review');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(actor.getSnapshot().value).toBe('expired');
  });

  it.each(['approve', 'deny'] as const)('asks about and answers the code of the link (%s), and ends there', async (answer) => {
    const { actor, calls } = start({ scanId: 's7', signedIn: true });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('review'));
    expect(calls.fetch).toHaveBeenCalledExactlyOnceWith('s7');
    actor.send({ type: answer });
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(actor.getSnapshot().value).toBe(answer === 'approve' ? 'approved' : 'denied');
    expect(answer === 'approve' ? calls.approve : calls.deny).toHaveBeenCalledExactlyOnceWith('s7');
  });

  it.each([
    ['expired', { ...waiting(180_000), status: 'expired' as const }],
    ['approved', { ...waiting(180_000), status: 'approved' as const }],
  ])('ends at a code already %s', async (status, ticket) => {
    const { actor } = start({ scanId: 's7', signedIn: true }, ticket);
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(actor.getSnapshot().value).toBe(status);
  });

  it('ends at an unknown link', () => {
    const { actor } = start({ scanId: null, signedIn: true });
    expect(actor.getSnapshot().status).toBe('done');
  });
});
