import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { REJECT_REASON_MAX, type AgentVersion } from '../contract/studio';
import { adminReviewsMachine, type ReviewPage } from './admin-reviews.machine';

/**
 * The console's approval queue, on paths generated from the machine that ships: the queue loads
 * (two waiting, none, the first of two pages, the last page), fails and is tried again; the admin
 * pages, approves, opens a refusal, types a reason (none, blanks, one, one too long), cancels or
 * sends it; the server decides, answers that the version was decided meanwhile, or fails. Each
 * path is played on the production machine as an actor whose calls wait until the path says how
 * they end, and checked after every step against rules written here: only a listed version is
 * decided; a refusal needs a reason within the contract's length, sent trimmed; a decision made
 * leaves the queue and the queue is read again (a page left empty for the one before); a version
 * decided meanwhile is said so and the queue read again; any other failure keeps what was typed.
 */
type Snapshot = SnapshotFrom<typeof adminReviewsMachine>;
const PAGE_SIZE = 10;
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
  content: { name, avatar: '', intro: '', category: null, systemPrompt: 'Be kind.', modelId: 'm1', parameters: {}, starters: {}, translations: {}, allowModelChoice: false, visibility: 'public' },
});
const HELPER = version('v1', 'Helper');
const WRITER = version('v2', 'Writer');
const POET = version('v3', 'Poet');
const loaded = (list: AgentVersion[], total: number): ReviewPage => ({
  page: { list, total, current: 1, pageSize: PAGE_SIZE },
  modelNames: { m1: 'GPT-4o' },
  organisations: { 'agent-v1': 'Acme', 'agent-v2': null },
});
/** What the server can answer for a page of the queue. */
const PAGES: Record<string, ReviewPage> = {
  'two waiting': loaded([HELPER, WRITER], 2),
  'none waiting': loaded([], 0),
  'the first of two pages': loaded([HELPER, WRITER], 12),
  'the last page': loaded([POET], 11),
};
const answers = actorAnswers(adminReviewsMachine);
const refused = (status: number, reason?: string) => Object.assign(new Error(`status ${status}`), { status, ...(reason ? { cause: { data: { reason } } } : {}) });
const NOT_PENDING = 'AGENT_VERSION_NOT_PENDING';
const TOO_LONG = 'x'.repeat(REJECT_REASON_MAX + 1);
const REASONS = ['', '   ', ' Asks for passwords. ', TOO_LONG];

const EVENTS: ModelEvent[] = [
  ...Object.values(PAGES).map((page) => answers.done('loadReviews', page)),
  { type: answers.error('loadReviews', 0).type, error: refused(500) },
  { type: 'retry' },
  ...[1, 2, 3].map((current): ModelEvent => ({ type: 'page', current })),
  ...['v1', 'v3', 'v9'].map((versionId): ModelEvent => ({ type: 'approve', versionId })),
  ...['v1', 'v3'].map((versionId): ModelEvent => ({ type: 'reject.open', versionId })),
  ...REASONS.map((reason): ModelEvent => ({ type: 'reason.change', reason })),
  { type: 'reject.cancel' },
  { type: 'reject' },
  answers.done('approveVersion', { ...HELPER, status: 'published', live: true }),
  { type: answers.error('approveVersion', 0).type, error: refused(409, NOT_PENDING) },
  { type: answers.error('approveVersion', 0).type, error: refused(500) },
  answers.done('rejectVersion', { ...HELPER, status: 'rejected' }),
  { type: answers.error('rejectVersion', 0).type, error: refused(409, NOT_PENDING) },
  { type: answers.error('rejectVersion', 0).type, error: refused(500) },
];
/** What decides what the queue does next: the state, the versions shown, the page and how many pages, the refusal being written and what is said of it. */
const serializeState = (state: Snapshot) => {
  const { reviews, total, current, rejection, problem } = state.context;
  return JSON.stringify([state.value, reviews.map(({ versionId }) => versionId), Math.ceil(total / PAGE_SIZE), current, rejection && [rejection.versionId, REASONS.indexOf(rejection.reason)], problem]);
};
const { paths, transitionCount, reachedStates } = productionPaths(adminReviewsMachine, { events: EVENTS, serializeState });

const describeEvent = (event: ModelEvent) => {
  if (event.type === 'reason.change') return `reason ${JSON.stringify(event.reason === TOO_LONG ? `${REJECT_REASON_MAX + 1} characters` : event.reason)}`;
  if (event.type === 'page') return `page ${event.current as number}`;
  if (event.type === 'approve' || event.type === 'reject.open') return `${event.type} ${event.versionId as string}`;
  const src = answers.srcOf(event);
  if (!src) return event.type;
  if (event.type.startsWith('xstate.error.')) return `${src} ${(event.error as { status: number }).status}`;
  return `${src} ${Object.entries(PAGES).find(([, page]) => page === event.output)?.[0] ?? 'ok'}`;
};

type Place = 'loading' | 'loadFailed' | 'idle' | 'writingReason' | 'approving' | 'rejecting';
type Failure = { status: number | undefined; reason?: string; during: 'load' | 'approve' | 'reject'; versionId: string | null };
/** What the queue must show and have done: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  reviews: AgentVersion[];
  total: number;
  current: number;
  modelNames: Record<string, string>;
  organisations: Record<string, string | null>;
  rejection: { versionId: string; reason: string } | null;
  problem: 'required' | 'format' | null;
  pending: { action: 'approve' | 'reject'; versionId: string } | null;
  failure: Failure | null;
  calls: { src: string; input: unknown }[];
  notices: { kind: 'approved' | 'rejected'; name: string }[];
};
const load = (before: Expected, current: number): Expected => ({ ...before, place: 'loading', current, calls: [...before.calls, { src: 'loadReviews', input: { current, pageSize: PAGE_SIZE } }] });
const START: Expected = load(
  { place: 'loading', reviews: [], total: 0, current: 1, modelNames: {}, organisations: {}, rejection: null, problem: null, pending: null, failure: null, calls: [], notices: [] },
  1,
);
const PLACES: Record<Place, unknown> = {
  loading: 'loading',
  loadFailed: 'loadFailed',
  idle: { ready: 'idle' },
  writingReason: { ready: 'writingReason' },
  approving: { ready: 'approving' },
  rejecting: { ready: 'rejecting' },
};

const failureOf = (event: ModelEvent, during: Failure['during'], versionId: string | null): Failure => {
  const error = event.error as { status: number; cause?: { data: { reason: string } } };
  return { status: error.status, ...(error.cause ? { reason: error.cause.data.reason } : {}), during, versionId };
};
const isListed = (before: Expected, versionId: string) => before.reviews.some((candidate) => candidate.versionId === versionId);
/** A reason the contract accepts: something once trimmed, and no more than REJECT_REASON_MAX characters. */
const reasonProblem = (reason: string) => (reason.trim() === '' ? 'required' : reason.trim().length > REJECT_REASON_MAX ? 'format' : null);
/** A decided version leaves the queue, which is read again; a page it leaves empty gives way to the one before. */
const afterDecision = (before: Expected, changes: Partial<Expected>): Expected => {
  const versionId = before.pending!.versionId;
  const current = before.reviews.length === 1 && before.current > 1 ? before.current - 1 : before.current;
  return load({ ...before, ...changes, reviews: before.reviews.filter((candidate) => candidate.versionId !== versionId), pending: null }, current);
};
const nameOf = (before: Expected) => before.reviews.find((candidate) => candidate.versionId === before.pending!.versionId)!.content.name;

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  const done = event.type.startsWith('xstate.done.');
  if (src === 'loadReviews') {
    if (before.place !== 'loading') return before;
    if (!done) return { ...before, place: 'loadFailed', failure: failureOf(event, 'load', null) };
    const { page, modelNames, organisations } = event.output as ReviewPage;
    // What was said of a version decided meanwhile stays beside the queue read again.
    return { ...before, place: 'idle', reviews: page.list, total: page.total, modelNames, organisations };
  }
  if (src === 'approveVersion') {
    if (before.place !== 'approving') return before;
    if (done) return afterDecision(before, { notices: [...before.notices, { kind: 'approved', name: nameOf(before) }] });
    const failure = failureOf(event, 'approve', before.pending!.versionId);
    if (failure.reason === NOT_PENDING) return afterDecision(before, { failure });
    return { ...before, place: 'idle', pending: null, failure };
  }
  if (src === 'rejectVersion') {
    if (before.place !== 'rejecting') return before;
    if (done) return afterDecision(before, { rejection: null, problem: null, notices: [...before.notices, { kind: 'rejected', name: nameOf(before) }] });
    const failure = failureOf(event, 'reject', before.pending!.versionId);
    if (failure.reason === NOT_PENDING) return afterDecision(before, { rejection: null, problem: null, failure });
    // Any other failure keeps the reason as typed, to send again.
    return { ...before, place: 'writingReason', pending: null, failure };
  }
  if (event.type === 'retry') return before.place === 'loadFailed' ? load({ ...before, failure: null }, before.current) : before;
  if (before.place === 'writingReason') {
    if (event.type === 'reason.change') return { ...before, rejection: { ...before.rejection!, reason: event.reason as string }, problem: null };
    if (event.type === 'reject.cancel') return { ...before, place: 'idle', rejection: null, problem: null };
    if (event.type !== 'reject') return before;
    const problem = reasonProblem(before.rejection!.reason);
    if (problem) return { ...before, problem, failure: null };
    const { versionId, reason } = before.rejection!;
    return { ...before, place: 'rejecting', problem: null, failure: null, pending: { action: 'reject', versionId }, calls: [...before.calls, { src: 'rejectVersion', input: { versionId, reason: reason.trim() } }] };
  }
  if (before.place !== 'idle') return before;
  if (event.type === 'page') {
    const current = event.current as number;
    const pages = Math.max(1, Math.ceil(before.total / PAGE_SIZE));
    return current >= 1 && current <= pages && current !== before.current ? load({ ...before, failure: null }, current) : before;
  }
  const versionId = event.versionId as string;
  if (!isListed(before, versionId)) return before;
  if (event.type === 'approve') return { ...before, place: 'approving', pending: { action: 'approve', versionId }, failure: null, calls: [...before.calls, { src: 'approveVersion', input: { versionId } }] };
  if (event.type === 'reject.open') return { ...before, place: 'writingReason', rejection: { versionId, reason: '' }, problem: null, failure: null };
  return before;
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const notices: unknown[] = [];
  const actor = createActor(
    adminReviewsMachine.provide({
      actors: { loadReviews: held.stub('loadReviews'), approveVersion: held.stub('approveVersion'), rejectVersion: held.stub('rejectVersion') },
      actions: { notify: (_, notice) => void notices.push(notice) },
    }),
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches(PLACES[expected.place] as never), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    const { reviews, total, current, modelNames, organisations, rejection, problem, pending, failure } = expected;
    expect(state.context, after).toEqual({ reviews, total, current, pageSize: PAGE_SIZE, modelNames, organisations, rejection, problem, pending, failure });
    expect(held.calls.map(({ src, input }) => ({ src, input })), `${after}: calls`).toEqual(expected.calls);
    expect(notices, `${after}: told`).toEqual(expected.notices);
    // The card's Approve and Reject buttons: for a version shown, while nothing else is under way.
    for (const versionId of ['v1', 'v2', 'v3']) {
      const offered = expected.place === 'idle' && isListed(expected, versionId);
      expect(state.can({ type: 'approve', versionId }), `${after}: Approve ${versionId}`).toBe(offered);
      expect(state.can({ type: 'reject.open', versionId }), `${after}: Reject ${versionId}`).toBe(offered);
    }
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: describeEvent });
};

describe('the approval queue, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    // "checkingReason" is a decision taken at once, never a place the queue rests in.
    expect([...reachedStates].sort()).toEqual(Object.values(PLACES).map((place) => JSON.stringify(place)).sort());
    // Every place the queue can be in (the versions shown, the page, the reason typed and what is said of it) by the events it takes there.
    expect(transitionCount).toBe(372);
  });

  it.each(paths.map((path) => [path.events.map(describeEvent).join(', '), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
