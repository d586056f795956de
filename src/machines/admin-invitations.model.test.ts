import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { Invitation, Organisation } from '../contract/admin';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { adminInvitationsMachine, type CreatedInvitation, type InvitationDraft } from './admin-invitations.machine';

/**
 * The console's invitations, on paths generated from the machine that ships: the list and the
 * organisations load (two organisations, or none), fail and are tried again;
 * the admin picks an organisation (one listed, or one no longer there), a role, writes a note,
 * creates an invitation, dismisses its link, and revokes an invitation (open, accepted, already
 * revoked, or the one just made); the server answers or refuses each. Each path is played on the
 * production machine as an actor whose calls wait until the path says how they end, and checked
 * after every step against rules written here: an invitation is made only into an organisation
 * that exists, with the note trimmed and none when empty; its link is shown until dismissed or the
 * next one; only an unused invitation can be revoked, after which the list is read again; a
 * refusal keeps the form and says during what it happened.
 */
type Snapshot = SnapshotFrom<typeof adminInvitationsMachine>;
const ACME: Organisation = { id: 'o1', name: 'Acme', members: 3 };
const BAKERY: Organisation = { id: 'o2', name: 'Bakery', members: 0 };
const invitation = (id: string, fields: Partial<Invitation> = {}): Invitation => ({
  id,
  companyId: 'o1',
  companyName: 'Acme',
  role: 'member',
  note: null,
  createdByName: 'Ada',
  createdAt: '2026-03-01T10:00:00.000Z',
  expiresAt: '2026-03-08T10:00:00.000Z',
  acceptedAt: null,
  revokedAt: null,
  ...fields,
});
const OPEN = invitation('i1');
const ACCEPTED = invitation('i2', { acceptedAt: '2026-03-02T10:00:00.000Z' });
const REVOKED = invitation('i3', { revokedAt: '2026-03-02T10:00:00.000Z' });
const MADE: CreatedInvitation = { invitation: invitation('i4'), path: '/login?invitation=invite-token-0123456789abcdef' };
/** What the server can answer when the panel loads. */
const LOADS = {
  both: { invitations: [OPEN, ACCEPTED, REVOKED], organisations: [ACME, BAKERY] },
  none: { invitations: [], organisations: [] },
};
const answers = actorAnswers(adminInvitationsMachine);
const refused = (status: number) => Object.assign(new Error(`status ${status}`), { status });
const UNREACHABLE = Object.assign(new Error('offline'), { unreachable: true });

const EVENTS: ModelEvent[] = [
  ...Object.values(LOADS).map((output) => answers.done('loadInvitations', output)),
  { type: answers.error('loadInvitations', 0).type, error: UNREACHABLE },
  { type: 'retry' },
  { type: 'draft.change', draft: { companyId: 'o2' } },
  // an organisation the list no longer holds (a select left from before a reload)
  { type: 'draft.change', draft: { companyId: 'o9' } },
  { type: 'draft.change', draft: { role: 'admin' } },
  { type: 'draft.change', draft: { note: ' for Bob ' } },
  { type: 'create' },
  answers.done('createInvitation', MADE),
  { type: answers.error('createInvitation', 0).type, error: refused(403) },
  { type: 'created.dismiss' },
  ...['i1', 'i2', 'i3', 'i4'].map((id): ModelEvent => ({ type: 'revoke', id })),
  answers.done('revokeInvitation'),
  { type: answers.error('revokeInvitation', 0).type, error: refused(404) },
];
/**
 * What decides what the panel does next: the state, which invitations and organisations are
 * listed, whether the organisation picked is listed and a note written, and whether a link is
 * shown (the role picked only travels in the request; a failure shown changes nothing that follows).
 */
const serializeState = (state: Snapshot) => {
  const { invitations, organisations, draft, created } = state.context;
  const picked = organisations.some(({ id }) => id === draft.companyId);
  return JSON.stringify([state.value, [...new Set(invitations.map(({ id }) => id))], organisations.map(({ id }) => id), picked, draft.note !== '', created !== null]);
};
const { paths, transitionCount, reachedStates } = productionPaths(adminInvitationsMachine, { events: EVENTS, serializeState });

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'draft.change') return `picked ${JSON.stringify(event.draft)}`;
      if (event.type === 'revoke') return `revoke ${event.id as string}`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      if (event.type.startsWith('xstate.error.')) return `${src} ${(event.error as { status?: number }).status ?? 'unreachable'}`;
      const load = Object.entries(LOADS).find(([, output]) => output === event.output)?.[0];
      return `${src} ${load ?? 'ok'}`;
    })
    .join(', ');

type Place = 'loading' | 'loadFailed' | 'idle' | 'creating' | 'revoking';
/** What the panel must show and have done: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  invitations: Invitation[];
  organisations: Organisation[];
  draft: InvitationDraft;
  created: CreatedInvitation | null;
  revokingId: string | null;
  failure: { status: number | undefined; during: 'load' | 'create' | 'revoke' } | null;
  loads: number;
  creations: unknown[];
  revocations: { id: string }[];
  announced: number;
};
const START: Expected = {
  place: 'loading',
  invitations: [],
  organisations: [],
  draft: { companyId: '', role: 'member', note: '' },
  created: null,
  revokingId: null,
  failure: null,
  loads: 1,
  creations: [],
  revocations: [],
  announced: 0,
};
const PLACES = { loading: 'loading', loadFailed: 'loadFailed', idle: { ready: 'idle' }, creating: { ready: 'creating' }, revoking: { ready: 'revoking' } } as const;

const statusOf = (event: ModelEvent) => (event.error as { status?: number }).status;
/** An invitation can be revoked while no one has used it and it is not revoked yet. */
const isUnused = (invitations: Invitation[], id: string) => invitations.some((item) => item.id === id && !item.acceptedAt && !item.revokedAt);

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  const done = event.type.startsWith('xstate.done.');
  if (src === 'loadInvitations') {
    if (before.place !== 'loading') return before;
    if (!done) return { ...before, place: 'loadFailed', failure: { status: undefined, during: 'load' } };
    const { invitations, organisations } = event.output as (typeof LOADS)['both'];
    // The organisation picked stays while it exists; otherwise the first one listed (none: none).
    const companyId = organisations.some(({ id }) => id === before.draft.companyId) ? before.draft.companyId : (organisations[0]?.id ?? '');
    return { ...before, place: 'idle', invitations, organisations, draft: { ...before.draft, companyId }, failure: null };
  }
  if (src === 'createInvitation') {
    if (before.place !== 'creating') return before;
    if (!done) return { ...before, place: 'idle', failure: { status: statusOf(event), during: 'create' } };
    // The new link is shown, the invitation heads the list, the note is emptied for the next one.
    return { ...before, place: 'idle', created: MADE, invitations: [MADE.invitation, ...before.invitations], draft: { ...before.draft, note: '' }, failure: null };
  }
  if (src === 'revokeInvitation') {
    if (before.place !== 'revoking') return before;
    if (!done) return { ...before, place: 'idle', revokingId: null, failure: { status: statusOf(event), during: 'revoke' } };
    // Read again, so the list says what the server holds.
    return { ...before, place: 'loading', revokingId: null, loads: before.loads + 1, announced: before.announced + 1 };
  }
  // The form keeps what is picked and typed whatever the panel is doing; the link can be dismissed at any time.
  if (event.type === 'draft.change') return { ...before, draft: { ...before.draft, ...(event.draft as Partial<InvitationDraft>) } };
  if (event.type === 'created.dismiss') return { ...before, created: null };
  if (event.type === 'retry') return before.place === 'loadFailed' ? { ...before, place: 'loading', failure: null, loads: before.loads + 1 } : before;
  if (before.place !== 'idle') return before;
  if (event.type === 'create') {
    if (!before.organisations.some(({ id }) => id === before.draft.companyId)) return before;
    const { companyId, role, note } = before.draft;
    const request = { companyId, role, ...(note.trim() ? { note: note.trim() } : {}) };
    return { ...before, place: 'creating', created: null, failure: null, creations: [...before.creations, request] };
  }
  const id = event.id as string;
  if (!isUnused(before.invitations, id)) return before;
  return { ...before, place: 'revoking', revokingId: id, failure: null, revocations: [...before.revocations, { id }] };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  let announced = 0;
  const actor = createActor(
    adminInvitationsMachine.provide({
      actors: { loadInvitations: held.stub('loadInvitations'), createInvitation: held.stub('createInvitation'), revokeInvitation: held.stub('revokeInvitation') },
      actions: { revoked: () => void (announced += 1) },
    }),
  ).start();
  const calls = (src: string) => held.calls.filter((call) => call.src === src).map((call) => call.input);
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches(PLACES[expected.place] as never), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    const { invitations, organisations, draft, created, revokingId, failure } = expected;
    expect(state.context, after).toEqual({ invitations, organisations, draft, created, revokingId, failure });
    expect(calls('loadInvitations'), `${after}: loads`).toHaveLength(expected.loads);
    expect(calls('createInvitation'), `${after}: invitations asked for`).toEqual(expected.creations);
    expect(calls('revokeInvitation'), `${after}: revocations asked for`).toEqual(expected.revocations);
    expect(announced, `${after}: revocations announced`).toBe(expected.announced);
    // Revoke works on an unused invitation only, while the panel is not busy.
    for (const id of ['i1', 'i2', 'i3', 'i4']) {
      expect(state.can({ type: 'revoke', id }), `${after}: revoke ${id} offered`).toBe(expected.place === 'idle' && isUnused(expected.invitations, id));
    }
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('the console’s invitations, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(Object.values(PLACES).map((place) => JSON.stringify(place)).sort());
    // Every place the panel can be in (what is listed, the form, the link shown, the failure) by the events it takes there.
    expect(transitionCount).toBe(552);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
