import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { AuditEntry } from '../contract/admin';
import type { Page } from '../contract/paging';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { adminAuditMachine } from './admin-audit.machine';

/**
 * The console's audit log, on paths generated from the machine that ships: a page of the log
 * loads (one of a log of two pages, or an empty log), fails or cannot be reached and is tried
 * again; the admin types an action (with spaces around it, or nothing) and filters by it, and asks
 * for a page (none before the first, the first, the second, one after the last). Each path is
 * played on the production machine as an actor whose calls wait until the path says how they
 * end, and checked after every step against rules written here: a filter is sent trimmed, none
 * when empty, and starts at page 1; only another page that exists is asked for, and only once the
 * log is shown; a failure offers Try again and a filter; what is typed is kept whatever happens.
 */
type Snapshot = SnapshotFrom<typeof adminAuditMachine>;
const entry = (id: string): AuditEntry => ({
  id,
  at: '2026-03-01T10:00:00.000Z',
  actorId: 'u1',
  actorName: 'Ada',
  sessionId: null,
  action: 'user.update',
  target: 'u2',
  details: {},
});
/** A log of 30 entries, 25 to a page: two pages. */
const LOG: Page<AuditEntry> = { list: [entry('e1'), entry('e2')], total: 30, current: 1, pageSize: 25 };
const EMPTY: Page<AuditEntry> = { list: [], total: 0, current: 1, pageSize: 25 };
const answers = actorAnswers(adminAuditMachine);
const refused = (status: number) => Object.assign(new Error(`status ${status}`), { status });
const UNREACHABLE = Object.assign(new Error('offline'), { unreachable: true });
const PAGES_ASKED = [0, 1, 2, 3];

const EVENTS: ModelEvent[] = [
  answers.done('listAudit', LOG),
  answers.done('listAudit', EMPTY),
  { type: answers.error('listAudit', 0).type, error: refused(500) },
  { type: answers.error('listAudit', 0).type, error: UNREACHABLE },
  { type: 'retry' },
  { type: 'action.typed', action: ' user.update ' },
  { type: 'action.typed', action: '' },
  { type: 'filter' },
  ...PAGES_ASKED.map((current): ModelEvent => ({ type: 'page', current })),
];
/** What the admin can tell apart: the state, what is typed, the filter applied, the page shown, and how long the log is. */
const serializeState = (state: Snapshot) => {
  const { typed, filters, total, failure } = state.context;
  return JSON.stringify([state.value, typed, filters, total, failure]);
};
const { paths, transitionCount, reachedStates } = productionPaths(adminAuditMachine, { events: EVENTS, serializeState });

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'action.typed') return `typed ${JSON.stringify(event.action)}`;
      if (event.type === 'page') return `page ${event.current as number}`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      if (event.type.startsWith('xstate.done.')) return `${src} ${(event.output as Page<AuditEntry>).total} entries`;
      return `${src} ${(event.error as { status?: number }).status ?? 'unreachable'}`;
    })
    .join(', ');

type Request = { current: number; pageSize: number; action?: string };
/** What the panel must show and have asked for: written from the product's rules, not read from the machine. */
type Expected = {
  place: 'loading' | 'loaded' | 'failed';
  typed: string;
  action: string;
  current: number;
  entries: AuditEntry[];
  total: number;
  failure: { status: number | undefined } | null;
  requests: Request[];
};
const START: Expected = { place: 'loading', typed: '', action: '', current: 1, entries: [], total: 0, failure: null, requests: [{ current: 1, pageSize: 25 }] };
const requestOf = (action: string, current: number): Request => ({ current, pageSize: 25, ...(action ? { action } : {}) });
const pagesOf = (total: number) => Math.max(1, Math.ceil(total / 25));

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  if (src === 'listAudit') {
    if (before.place !== 'loading') return before;
    if (event.type.startsWith('xstate.done.')) {
      const page = event.output as Page<AuditEntry>;
      return { ...before, place: 'loaded', entries: page.list, total: page.total, failure: null };
    }
    return { ...before, place: 'failed', failure: { status: (event.error as { status?: number }).status } };
  }
  // What is typed is kept whatever the panel is doing, and applied only by a filter.
  if (event.type === 'action.typed') return { ...before, typed: event.action as string };
  if (event.type === 'retry')
    return before.place === 'failed' ? { ...before, place: 'loading', requests: [...before.requests, requestOf(before.action, before.current)] } : before;
  if (event.type === 'filter') {
    if (before.place === 'loading') return before;
    const action = before.typed.trim();
    return { ...before, place: 'loading', action, current: 1, requests: [...before.requests, requestOf(action, 1)] };
  }
  const current = event.current as number;
  if (before.place !== 'loaded' || current < 1 || current > pagesOf(before.total) || current === before.current) return before;
  return { ...before, place: 'loading', current, requests: [...before.requests, requestOf(before.action, current)] };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const actor = createActor(adminAuditMachine.provide({ actors: { listAudit: held.stub('listAudit') } })).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches(expected.place), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    expect(state.context, after).toEqual({
      filters: { action: expected.action, current: expected.current },
      typed: expected.typed,
      pageSize: 25,
      entries: expected.entries,
      total: expected.total,
      failure: expected.failure,
    });
    expect(held.calls.map((call) => call.input), `${after}: pages asked for`).toEqual(expected.requests);
    // Filter works once nothing is loading; Try again after a failure; the pager offers the other pages of the log shown.
    expect(state.can({ type: 'filter' }), `${after}: Filter offered`).toBe(expected.place !== 'loading');
    expect(state.can({ type: 'retry' }), `${after}: Try again offered`).toBe(expected.place === 'failed');
    for (const current of PAGES_ASKED) {
      const offered = expected.place === 'loaded' && current >= 1 && current <= pagesOf(expected.total) && current !== expected.current;
      expect(state.can({ type: 'page', current }), `${after}: page ${current} offered`).toBe(offered);
    }
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('the console’s audit log, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(['"failed"', '"loaded"', '"loading"']);
    // Every place the panel can be in (what is typed, the filter, the page, the log's length, the failure) by the events it takes there.
    expect(transitionCount).toBe(372);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
