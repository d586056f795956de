import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { AdminUser, Organisation } from '../contract/admin';
import type { Page } from '../contract/paging';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { adminUsersMachine, type AdminUsersNotice, type ResetLink, type UserAction, type UserChange } from './admin-users.machine';

/**
 * The console's accounts, on paths generated from the machine that ships: the organisations load
 * beside the list; a page of the accounts loads (one of two pages, or none at all), fails
 * or cannot be reached and is tried again; the admin types a search (with spaces around it) and
 * searches, filters by an organisation or by none, asks for a page (none before the first, the
 * first, the second, one after the last), and changes, signs out or asks a reset link for an
 * account listed or one no longer listed; the server answers or refuses each. Each path is played
 * on the production machine as an actor whose calls wait until the path says how they end, and
 * checked after every step against rules written here: a search is sent trimmed and, like a
 * filter, starts at page 1; only another page that exists is asked for; only an account listed
 * can be changed, and one at a time; a change shows the account as the server returns it and is
 * announced by its name, a sign-out by its name and the sessions ended; a reset link is shown
 * until dismissed or the next is asked for; a refusal keeps the list and says during what it
 * happened; the list works before the organisations come.
 */
type Snapshot = SnapshotFrom<typeof adminUsersMachine>;
const ACME: Organisation = { id: 'o1', name: 'Acme', members: 3 };
const account = (id: string, nickname: string, fields: Partial<AdminUser> = {}): AdminUser => ({
  id,
  username: nickname.toLowerCase(),
  nickname,
  role: 'member',
  companyId: null,
  companyName: null,
  disabled: false,
  createdAt: '2026-03-01T10:00:00.000Z',
  lastSeenAt: null,
  ...fields,
});
const ANN = account('u1', 'Ann');
const BOB = account('u2', 'Bob');
const ANN_ADMIN = { ...ANN, role: 'admin' } as AdminUser;
/** 30 accounts, 20 to a page: two pages. */
const ACCOUNTS: Page<AdminUser> = { list: [ANN, BOB], total: 30, current: 1, pageSize: 20 };
const NONE: Page<AdminUser> = { list: [], total: 0, current: 1, pageSize: 20 };
const LINK = { path: '/reset?token=reset-token-0123456789', expiresAt: '2026-03-02T10:00:00.000Z' };
const answers = actorAnswers(adminUsersMachine);
const refused = (status: number) => Object.assign(new Error(`status ${status}`), { status });
const UNREACHABLE = Object.assign(new Error('offline'), { unreachable: true });
const PAGES_ASKED = [0, 1, 2, 3];
/** An account listed, and one no longer listed (a row left from before a reload). */
const IDS = ['u1', 'u9'];
const PROMOTE: UserChange = { role: 'admin' };

/** The organisations are read once, as the panel opens: until they come, none are listed. */
const organisationsAsked = (state: Snapshot) => state.context.organisations.length === 0;

const EVENTS: ModelEvent[] = [
  answers.done('listUsers', ACCOUNTS),
  answers.done('listUsers', NONE),
  { type: answers.error('listUsers', 0).type, error: refused(500) },
  { type: answers.error('listUsers', 0).type, error: UNREACHABLE },
  { type: 'retry' },
  { type: 'search.typed', keyword: ' bob ' },
  { type: 'search' },
  { type: 'filter.organisation', companyId: 'o1' },
  { type: 'filter.organisation', companyId: null },
  ...PAGES_ASKED.map((current): ModelEvent => ({ type: 'page', current })),
  ...IDS.map((id): ModelEvent => ({ type: 'user.update', id, change: PROMOTE })),
  ...IDS.map((id): ModelEvent => ({ type: 'user.signOut', id })),
  ...IDS.map((id): ModelEvent => ({ type: 'user.resetLink', id })),
  answers.done('updateUser', ANN_ADMIN),
  { type: answers.error('updateUser', 0).type, error: refused(409) },
  answers.done('signOutUser', { revoked: 2 }),
  { type: answers.error('signOutUser', 0).type, error: refused(500) },
  answers.done('issueResetLink', LINK),
  { type: answers.error('issueResetLink', 0).type, error: refused(403) },
  { type: 'resetLink.dismiss' },
];
/** The organisations answer only while they are being read: the panel reads them once, and works on when they are refused. */
const eventsIn = (state: Snapshot): ModelEvent[] =>
  organisationsAsked(state)
    ? [...EVENTS, answers.done('listOrganisations', [ACME]), { type: answers.error('listOrganisations', 0).type, error: refused(500) }]
    : EVENTS;
/**
 * What decides what the panel does next: the state, the page shown and how many there are, which
 * accounts are listed, whether the organisations are still being read, and whether a reset link
 * is shown (the search and the filter only travel in the request; a failure shown changes nothing
 * that follows).
 */
const serializeState = (state: Snapshot) => {
  const { filters, users, total, resetLink } = state.context;
  return JSON.stringify([state.value, filters.current, users.map(({ id }) => id), total, organisationsAsked(state), resetLink !== null]);
};
const { paths, transitionCount, reachedStates } = productionPaths(adminUsersMachine, { events: eventsIn, serializeState });

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'search.typed') return `typed ${JSON.stringify(event.keyword)}`;
      if (event.type === 'filter.organisation') return `filtered by ${event.companyId ?? 'none'}`;
      if (event.type === 'page') return `page ${event.current as number}`;
      if (event.type.startsWith('user.')) return `${event.type} ${event.id as string}`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      if (event.type.startsWith('xstate.done.')) return src === 'listUsers' ? `${src} ${(event.output as Page<AdminUser>).total} accounts` : `${src} ok`;
      return `${src} ${(event.error as { status?: number }).status ?? 'unreachable'}`;
    })
    .join(', ');

type Place = 'loading' | 'loadFailed' | 'idle' | 'updating' | 'signingOut' | 'issuingLink';
const PLACES = {
  loading: 'loading',
  loadFailed: 'loadFailed',
  idle: { ready: 'idle' },
  updating: { ready: 'updating' },
  signingOut: { ready: 'signingOut' },
  issuingLink: { ready: 'issuingLink' },
} as const;
type Request = { current: number; pageSize: number; keyword?: string; companyId?: string };
/** What the panel must show and have asked for: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  typed: string;
  keyword: string;
  companyId: string | null;
  current: number;
  users: AdminUser[];
  total: number;
  organisations: Organisation[];
  organisationsAsked: boolean;
  pending: { id: string; action: UserAction; change?: UserChange } | null;
  failure: { status: number | undefined; during: 'load' | UserAction } | null;
  resetLink: ResetLink | null;
  calls: { src: string; input: unknown }[];
  notices: AdminUsersNotice[];
};
const requestOf = ({ keyword, companyId }: Pick<Expected, 'keyword' | 'companyId'>, current: number): Request => ({
  current,
  pageSize: 20,
  ...(keyword ? { keyword } : {}),
  ...(companyId ? { companyId } : {}),
});
const START: Expected = {
  place: 'loading',
  typed: '',
  keyword: '',
  companyId: null,
  current: 1,
  users: [],
  total: 0,
  organisations: [],
  organisationsAsked: true,
  pending: null,
  failure: null,
  resetLink: null,
  calls: [
    { src: 'listOrganisations', input: undefined },
    { src: 'listUsers', input: { current: 1, pageSize: 20 } },
  ],
  notices: [],
};
const pagesOf = (total: number) => Math.max(1, Math.ceil(total / 20));
/** How the console names an account: its nickname, or its username when it has none. */
const nameOf = (users: AdminUser[], id: string) => {
  const user = users.find((candidate) => candidate.id === id);
  return user ? user.nickname || user.username : id;
};
const statusOf = (event: ModelEvent) => (event.error as { status?: number }).status;
const listed = (before: Expected, id: string) => before.users.some((user) => user.id === id);
const load = (before: Expected, changes: Partial<Expected>): Expected => {
  const next = { ...before, ...changes, place: 'loading' as const };
  return { ...next, calls: [...before.calls, { src: 'listUsers', input: requestOf(next, next.current) }] };
};

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  const done = event.type.startsWith('xstate.done.');
  if (src === 'listOrganisations') {
    if (!before.organisationsAsked) return before;
    // Refused, the list goes on without them: the filter and the selects stay empty.
    return { ...before, organisationsAsked: false, organisations: done ? [ACME] : [] };
  }
  if (src === 'listUsers') {
    if (before.place !== 'loading') return before;
    if (done) {
      const page = event.output as Page<AdminUser>;
      return { ...before, place: 'idle', users: page.list, total: page.total, failure: null };
    }
    return { ...before, place: 'loadFailed', failure: { status: statusOf(event), during: 'load' } };
  }
  const answering = { updateUser: 'updating', signOutUser: 'signingOut', issueResetLink: 'issuingLink' }[src ?? ''];
  if (answering) {
    if (before.place !== answering || !before.pending) return before;
    const settled = { ...before, place: 'idle' as const, pending: null };
    if (!done) return { ...settled, failure: { status: statusOf(event), during: before.pending.action } };
    const { id } = before.pending;
    if (src === 'updateUser') {
      const user = event.output as AdminUser;
      return { ...settled, users: before.users.map((each) => (each.id === user.id ? user : each)), notices: [...before.notices, { kind: 'updated', name: user.nickname }] };
    }
    if (src === 'signOutUser')
      return { ...settled, notices: [...before.notices, { kind: 'signedOut', name: nameOf(before.users, id), count: (event.output as { revoked: number }).revoked }] };
    return { ...settled, resetLink: { userId: id, name: nameOf(before.users, id), ...LINK } };
  }
  // What is typed is kept whatever the panel is doing, and searched only when submitted; a link is dismissed at any time.
  if (event.type === 'search.typed') return { ...before, typed: event.keyword as string };
  if (event.type === 'resetLink.dismiss') return { ...before, resetLink: null };
  if (event.type === 'retry') return before.place === 'loadFailed' ? load(before, { failure: null }) : before;
  // Everything else is done from the list at rest.
  if (before.place !== 'idle') return before;
  if (event.type === 'search') return load(before, { keyword: before.typed.trim(), current: 1 });
  if (event.type === 'filter.organisation') return load(before, { companyId: event.companyId as string | null, current: 1 });
  if (event.type === 'page') {
    const current = event.current as number;
    if (current < 1 || current > pagesOf(before.total) || current === before.current) return before;
    return load(before, { current });
  }
  const id = event.id as string;
  if (!listed(before, id)) return before;
  if (event.type === 'user.update') {
    const change = event.change as UserChange;
    return { ...before, place: 'updating', pending: { id, action: 'update', change }, failure: null, calls: [...before.calls, { src: 'updateUser', input: { id, ...change } }] };
  }
  if (event.type === 'user.signOut')
    return { ...before, place: 'signingOut', pending: { id, action: 'signOut' }, failure: null, calls: [...before.calls, { src: 'signOutUser', input: { id } }] };
  // Asking for a new link takes the last one away.
  return {
    ...before,
    place: 'issuingLink',
    pending: { id, action: 'resetLink' },
    failure: null,
    resetLink: null,
    calls: [...before.calls, { src: 'issueResetLink', input: { id } }],
  };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const notices: AdminUsersNotice[] = [];
  const actor = createActor(
    adminUsersMachine.provide({
      actors: {
        listUsers: held.stub('listUsers'),
        listOrganisations: held.stub('listOrganisations'),
        updateUser: held.stub('updateUser'),
        signOutUser: held.stub('signOutUser'),
        issueResetLink: held.stub('issueResetLink'),
      },
      actions: { notify: (_, notice) => void notices.push(notice) },
    }),
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches(PLACES[expected.place] as never), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    expect(state.context, after).toEqual({
      filters: { keyword: expected.keyword, companyId: expected.companyId, current: expected.current },
      typed: expected.typed,
      pageSize: 20,
      users: expected.users,
      total: expected.total,
      organisations: expected.organisations,
      pending: expected.pending,
      failure: expected.failure,
      resetLink: expected.resetLink,
    });
    expect(held.calls.map(({ src, input }) => ({ src, input })), `${after}: calls made`).toEqual(expected.calls);
    expect(notices, `${after}: announced`).toEqual(expected.notices);
    // Search, the filter, the pager and each row's buttons work only on the list at rest; Try again after a failed load.
    const idle = expected.place === 'idle';
    expect(state.can({ type: 'retry' }), `${after}: Try again offered`).toBe(expected.place === 'loadFailed');
    expect(state.can({ type: 'search' }), `${after}: Search offered`).toBe(idle);
    expect(state.can({ type: 'filter.organisation', companyId: 'o1' }), `${after}: filter offered`).toBe(idle);
    for (const current of PAGES_ASKED) {
      const offered = idle && current >= 1 && current <= pagesOf(expected.total) && current !== expected.current;
      expect(state.can({ type: 'page', current }), `${after}: page ${current} offered`).toBe(offered);
    }
    for (const id of IDS) {
      const offered = idle && expected.users.some((user) => user.id === id);
      expect(state.can({ type: 'user.update', id, change: PROMOTE }), `${after}: ${id} can be changed`).toBe(offered);
      expect(state.can({ type: 'user.signOut', id }), `${after}: ${id} can be signed out`).toBe(offered);
      expect(state.can({ type: 'user.resetLink', id }), `${after}: a link for ${id} can be asked`).toBe(offered);
    }
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('the console’s accounts, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(Object.values(PLACES).map((place) => JSON.stringify(place)).sort());
    // Every place the panel can be in (the page, the accounts listed, the organisations read, a link shown) by the events it takes there.
    expect(transitionCount).toBe(334);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
