import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { REJECT_REASON_MAX, type AgentVersion } from '../contract/studio';
import { adminReviewsMachine, reasonProblemOf, type ReviewNotice, type ReviewPage } from './admin-reviews.machine';

const version = (versionId: string, name: string): AgentVersion => ({
  versionId,
  agentId: `agent-${versionId}`,
  status: 'pending',
  live: false,
  createdAt: '2026-03-01T10:00:00.000Z',
  createdByName: 'Ada',
  reviewedAt: null,
  reviewedByName: null,
  reviewNote: null,
  content: { name, avatar: '', intro: '', category: null, systemPrompt: 'You help.', modelId: null, parameters: {}, starters: {}, translations: {}, allowModelChoice: false, visibility: 'public' },
});
const refused = (status: number, reason?: string) => Object.assign(new Error('refused'), { status, ...(reason ? { cause: { data: { reason } } } : {}) });

/** A queue of `count` versions, served ten to a page. */
/** `decide`: what the server does first, before deciding (throwing refuses the decision). */
const start = (count: number, decide: { approve?: () => Promise<void>; reject?: () => Promise<void> } = {}) => {
  let waiting = Array.from({ length: count }, (_, index) => version(`v${index + 1}`, `Agent ${index + 1}`));
  const calls = {
    load: vi.fn(async ({ current, pageSize }: { current: number; pageSize: number }): Promise<ReviewPage> => ({
      page: { list: waiting.slice((current - 1) * pageSize, current * pageSize), total: waiting.length, current, pageSize },
      modelNames: {},
      organisations: {},
    })),
    approve: vi.fn(async ({ versionId }: { versionId: string }) => {
      await decide.approve?.();
      waiting = waiting.filter((candidate) => candidate.versionId !== versionId);
      return { ...version(versionId, ''), status: 'published' as const, live: true };
    }),
    reject: vi.fn(async ({ versionId }: { versionId: string; reason: string }) => {
      await decide.reject?.();
      waiting = waiting.filter((candidate) => candidate.versionId !== versionId);
      return { ...version(versionId, ''), status: 'rejected' as const };
    }),
    notices: [] as ReviewNotice[],
  };
  const actor = createActor(
    adminReviewsMachine.provide({
      actors: {
        loadReviews: fromPromise(({ input }) => calls.load(input)),
        approveVersion: fromPromise(({ input }) => calls.approve(input)),
        rejectVersion: fromPromise(({ input }) => calls.reject(input)),
      },
      actions: { notify: (_, notice) => void calls.notices.push(notice) },
    }),
  ).start();
  return { actor, calls };
};
const idle = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (state) => state.matches({ ready: 'idle' }));

describe('the approval queue', () => {
  it('approves a waiting version, says so, and reads the queue again', async () => {
    const { actor, calls } = start(2);
    await idle(actor);
    actor.send({ type: 'approve', versionId: 'nope' });
    expect(calls.approve).not.toHaveBeenCalled();
    actor.send({ type: 'approve', versionId: 'v1' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && calls.load.mock.calls.length === 2);
    expect(calls.approve).toHaveBeenCalledWith({ versionId: 'v1' });
    expect(calls.notices).toEqual([{ kind: 'approved', name: 'Agent 1' }]);
    expect(actor.getSnapshot().context.reviews.map((candidate) => candidate.versionId)).toEqual(['v2']);
  });

  it('asks for a reason before refusing, sends it trimmed, and keeps it when the server fails', async () => {
    let fail = true;
    const { actor, calls } = start(1, {
      reject: async () => {
        if (fail) throw refused(500);
      },
    });
    await idle(actor);
    actor.send({ type: 'reject.open', versionId: 'v1' });
    actor.send({ type: 'reject' });
    expect(actor.getSnapshot().context.problem).toBe('required');
    actor.send({ type: 'reason.change', reason: '   ' });
    expect(actor.getSnapshot().context.problem).toBeNull();
    actor.send({ type: 'reject' });
    expect(actor.getSnapshot().context.problem).toBe('required');
    expect(calls.reject).not.toHaveBeenCalled();
    actor.send({ type: 'reason.change', reason: ' The prompt asks for passwords. ' });
    actor.send({ type: 'reject' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(actor.getSnapshot().matches({ ready: 'writingReason' })).toBe(true);
    expect(actor.getSnapshot().context.rejection).toEqual({ versionId: 'v1', reason: ' The prompt asks for passwords. ' });
    fail = false;
    actor.send({ type: 'reject' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && calls.notices.length > 0);
    expect(calls.reject).toHaveBeenLastCalledWith({ versionId: 'v1', reason: 'The prompt asks for passwords.' });
    expect(actor.getSnapshot().context).toMatchObject({ rejection: null, failure: null, reviews: [] });
  });

  it('says when a version was decided meanwhile, and reads the queue again', async () => {
    const { actor, calls } = start(2, { approve: async () => Promise.reject(refused(409, 'AGENT_VERSION_NOT_PENDING')) });
    await idle(actor);
    actor.send({ type: 'approve', versionId: 'v2' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && calls.load.mock.calls.length === 2);
    expect(actor.getSnapshot().context.failure).toEqual({ status: 409, reason: 'AGENT_VERSION_NOT_PENDING', during: 'approve', versionId: 'v2' });
  });

  it('goes back a page when the last version of a page is decided', async () => {
    const { actor, calls } = start(11);
    await idle(actor);
    actor.send({ type: 'page', current: 3 });
    expect(calls.load).toHaveBeenCalledTimes(1);
    actor.send({ type: 'page', current: 2 });
    await idle(actor);
    expect(actor.getSnapshot().context.reviews.map((candidate) => candidate.versionId)).toEqual(['v11']);
    actor.send({ type: 'approve', versionId: 'v11' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && calls.load.mock.calls.length === 3);
    expect(calls.load).toHaveBeenLastCalledWith({ current: 1, pageSize: 10 });
    expect(actor.getSnapshot().context.current).toBe(1);
  });

  it('holds a reason to the contract: required, and at most REJECT_REASON_MAX once trimmed', () => {
    expect(reasonProblemOf('v1', '')).toBe('required');
    expect(reasonProblemOf('v1', ` ${'x'.repeat(REJECT_REASON_MAX)} `)).toBeNull();
    expect(reasonProblemOf('v1', 'x'.repeat(REJECT_REASON_MAX + 1))).toBe('format');
  });
});
