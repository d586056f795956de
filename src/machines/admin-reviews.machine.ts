import { assign, fromPromise, setup } from 'xstate';
import * as v from 'valibot';
import type { Page } from '../contract/paging';
import { STUDIO_ERRORS, reviewRejectRequestSchema, type AgentVersion } from '../contract/studio';
import { failureOf, type AdminFailure } from './admin-console.machine';

/** A page of the queue, with what the admin needs beside it to judge: each model's name, each agent's organisation. */
export type ReviewPage = {
  page: Page<AgentVersion>;
  /** Model names by id. */
  modelNames: Record<string, string>;
  /** Each agent's organisation by agent id: its name, null for none; an agent missing here is not known. */
  organisations: Record<string, string | null>;
};
export type ReviewDecision = 'approve' | 'reject';
export type ReviewNotice = { kind: 'approved' | 'rejected'; name: string };
export type ReviewFailure = AdminFailure & { during: 'load' | ReviewDecision; versionId: string | null };

export type AdminReviewsContext = {
  reviews: AgentVersion[];
  total: number;
  current: number;
  pageSize: number;
  modelNames: Record<string, string>;
  organisations: Record<string, string | null>;
  /** The refusal being written: which version, and the reason as typed (kept when the server refuses it). */
  rejection: { versionId: string; reason: string } | null;
  problem: 'required' | 'format' | null;
  pending: { action: ReviewDecision; versionId: string } | null;
  failure: ReviewFailure | null;
};

export type AdminReviewsEvent =
  | { type: 'retry' }
  | { type: 'page'; current: number }
  | { type: 'approve'; versionId: string }
  | { type: 'reject.open'; versionId: string }
  | { type: 'reason.change'; reason: string }
  | { type: 'reject.cancel' }
  | { type: 'reject' };

export const ADMIN_REVIEWS_PAGE_SIZE = 10;

/** What the contract says of a refusal's reason: required, and no longer than REJECT_REASON_MAX once trimmed. */
export const reasonProblemOf = (versionId: string, reason: string): 'required' | 'format' | null =>
  v.safeParse(reviewRejectRequestSchema, { versionId, reason }).success ? null : reason.trim() ? 'format' : 'required';

const nameOf = (context: AdminReviewsContext, versionId: string) => context.reviews.find((version) => version.versionId === versionId)?.content.name ?? '';

/**
 * Agents their authors sent to the public market, waiting for an admin: each version's content
 * to judge, approved (it goes live) or refused with a reason the author reads. A version decided
 * meanwhile (by another admin, or replaced by a newer publish) is said so, and the queue is read again.
 */
export const adminReviewsMachine = setup({
  types: { context: {} as AdminReviewsContext, events: {} as AdminReviewsEvent },
  actors: {
    loadReviews: fromPromise<ReviewPage, { current: number; pageSize: number }>(async () => {
      throw new Error('loadReviews is provided where the app starts');
    }),
    approveVersion: fromPromise<AgentVersion, { versionId: string }>(async () => {
      throw new Error('approveVersion is provided where the app starts');
    }),
    rejectVersion: fromPromise<AgentVersion, { versionId: string; reason: string }>(async () => {
      throw new Error('rejectVersion is provided where the app starts');
    }),
  },
  actions: {
    notify: (_, _params: ReviewNotice) => undefined,
    setPage: assign((_, params: { loaded: ReviewPage }) => ({
      reviews: params.loaded.page.list,
      total: params.loaded.page.total,
      modelNames: params.loaded.modelNames,
      organisations: params.loaded.organisations,
    })),
    applyPage: assign((_, params: { current: number }) => ({ current: params.current, failure: null })),
    setPending: assign((_, params: { action: ReviewDecision; versionId: string }) => ({ pending: params, failure: null })),
    clearPending: assign({ pending: null }),
    /** The decided version leaves the queue; a page it leaves empty is left for the one before. */
    dropDecided: assign(({ context }) => ({
      reviews: context.reviews.filter((version) => version.versionId !== context.pending?.versionId),
      current: context.reviews.length <= 1 && context.current > 1 ? context.current - 1 : context.current,
    })),
    openRejection: assign((_, params: { versionId: string }) => ({ rejection: { versionId: params.versionId, reason: '' }, problem: null, failure: null })),
    changeReason: assign(({ context }, params: { reason: string }) => ({ rejection: context.rejection && { ...context.rejection, reason: params.reason }, problem: null })),
    closeRejection: assign({ rejection: null, problem: null }),
    checkReason: assign(({ context }) => ({ problem: reasonProblemOf(context.rejection!.versionId, context.rejection!.reason), failure: null })),
    setFailure: assign(({ context }, params: { error: unknown; during: ReviewFailure['during'] }) => ({
      failure: { ...failureOf(params.error), during: params.during, versionId: context.pending?.versionId ?? null },
    })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    isWaiting: ({ context }, params: { versionId: string }) => context.reviews.some((version) => version.versionId === params.versionId),
    isPageInRange: ({ context }, params: { current: number }) =>
      params.current >= 1 && params.current <= Math.max(1, Math.ceil(context.total / context.pageSize)) && params.current !== context.current,
    hasReason: ({ context }) => context.problem === null,
    /** Decided already, or replaced by a newer publish: nothing is left to decide. */
    isNoLongerPending: (_, params: { error: unknown }) => failureOf(params.error).reason === STUDIO_ERRORS.notPending,
  },
}).createMachine({
  id: 'adminReviews',
  context: {
    reviews: [],
    total: 0,
    current: 1,
    pageSize: ADMIN_REVIEWS_PAGE_SIZE,
    modelNames: {},
    organisations: {},
    rejection: null,
    problem: null,
    pending: null,
    failure: null,
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadReviews',
        input: ({ context }) => ({ current: context.current, pageSize: context.pageSize }),
        onDone: { target: 'ready', actions: { type: 'setPage', params: ({ event }) => ({ loaded: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'load' as const }) } },
      },
    },
    loadFailed: { on: { retry: { target: 'loading', actions: 'clearFailure' } } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            page: {
              guard: { type: 'isPageInRange', params: ({ event }) => event },
              target: '#adminReviews.loading',
              actions: { type: 'applyPage', params: ({ event }) => event },
            },
            approve: {
              guard: { type: 'isWaiting', params: ({ event }) => event },
              target: 'approving',
              actions: { type: 'setPending', params: ({ event }) => ({ action: 'approve' as const, versionId: event.versionId }) },
            },
            'reject.open': {
              guard: { type: 'isWaiting', params: ({ event }) => event },
              target: 'writingReason',
              actions: { type: 'openRejection', params: ({ event }) => event },
            },
          },
        },
        writingReason: {
          on: {
            'reason.change': { actions: { type: 'changeReason', params: ({ event }) => event } },
            'reject.cancel': { target: 'idle', actions: 'closeRejection' },
            reject: 'checkingReason',
          },
        },
        checkingReason: {
          entry: 'checkReason',
          always: [{ guard: 'hasReason', target: 'rejecting' }, { target: 'writingReason' }],
        },
        approving: {
          invoke: {
            src: 'approveVersion',
            input: ({ context }) => ({ versionId: context.pending!.versionId }),
            onDone: {
              target: '#adminReviews.loading',
              actions: [{ type: 'notify', params: ({ context }) => ({ kind: 'approved' as const, name: nameOf(context, context.pending!.versionId) }) }, 'dropDecided', 'clearPending'],
            },
            onError: [
              {
                guard: { type: 'isNoLongerPending', params: ({ event }) => ({ error: event.error }) },
                target: '#adminReviews.loading',
                actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'approve' as const }) }, 'dropDecided', 'clearPending'],
              },
              { target: 'idle', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'approve' as const }) }, 'clearPending'] },
            ],
          },
        },
        rejecting: {
          entry: { type: 'setPending', params: ({ context }) => ({ action: 'reject' as const, versionId: context.rejection!.versionId }) },
          invoke: {
            src: 'rejectVersion',
            input: ({ context }) => ({ versionId: context.rejection!.versionId, reason: context.rejection!.reason.trim() }),
            onDone: {
              target: '#adminReviews.loading',
              actions: [
                { type: 'notify', params: ({ context }) => ({ kind: 'rejected' as const, name: nameOf(context, context.pending!.versionId) }) },
                'dropDecided',
                'clearPending',
                'closeRejection',
              ],
            },
            onError: [
              {
                guard: { type: 'isNoLongerPending', params: ({ event }) => ({ error: event.error }) },
                target: '#adminReviews.loading',
                actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'reject' as const }) }, 'dropDecided', 'clearPending', 'closeRejection'],
              },
              // Any other refusal keeps the reason as typed, to send again.
              { target: 'writingReason', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'reject' as const }) }, 'clearPending'] },
            ],
          },
        },
      },
    },
  },
});
