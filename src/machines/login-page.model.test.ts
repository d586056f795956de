import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { InvitationPreview } from '../contract/accounts';
import type { LoginOptions } from '../contract/auth';
import type { UserInfo } from '../contract/users';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { loginPageMachine, type LoginMode } from './login-page.machine';

/**
 * The login page around its forms, on paths generated from the machine that ships, opened plainly
 * and from an invitation link: the server offers sign-up to anyone with reset links by mail, by
 * invitation only, or not at all, or has no such call; the invitation is read, found used or
 * unknown; the person switches between logging in, signing up and asking for a reset link, and
 * (signed in) accepts the invitation, which the server takes or refuses. Each path is played on the
 * production machine as an actor whose calls wait until the path says how they end, and checked
 * after every step against rules written here: sign-up is offered when it is open, or by
 * invitation with a valid one in hand (then shown first); reset links only when the server sends
 * them; only a valid invitation can be accepted, and one that cannot be used says why.
 */
type Snapshot = SnapshotFrom<typeof loginPageMachine>;
const TOKEN = 'invite-token-0123456789abcdef';
const PREVIEW: InvitationPreview = { companyName: 'Acme Bakery', role: 'operator', expiresAt: '2030-01-01T00:00:00.000Z' };
const ADA: UserInfo = { id: 'u1', username: 'ada@example.com', nickname: 'Ada', avatar: '' };
/** What a server can offer; a server without the call offers only the password login. */
const OFFERS: Record<string, LoginOptions> = {
  'open, reset by mail': { google: false, signup: 'open', resetByMail: true },
  'by invitation': { google: false, signup: 'invite' },
  closed: { google: false, signup: 'closed', resetByMail: false },
};
const NO_OPTIONS_CALL: LoginOptions = { google: false };
/** Why an invitation cannot be used, by the server's status. */
const LINK_FAILURES: Record<number, string> = { 410: 'login.links.gone', 404: 'login.links.unknown', 500: 'errors.refusal.server' };
const answers = actorAnswers(loginPageMachine);
const refused = (status: number) => Object.assign(new Error(`status ${status}`), { status });

const EVENTS: ModelEvent[] = [
  ...Object.values(OFFERS).map((options) => answers.done('loadOptions', options)),
  { type: answers.error('loadOptions', 0).type, error: refused(404) },
  answers.done('previewInvitation', PREVIEW),
  { type: answers.error('previewInvitation', 0).type, error: refused(410) },
  { type: answers.error('previewInvitation', 0).type, error: refused(404) },
  { type: 'mode.login' },
  { type: 'mode.signup' },
  { type: 'mode.forgot' },
  { type: 'accept' },
  answers.done('acceptInvitation', ADA),
  { type: answers.error('acceptInvitation', 0).type, error: refused(410) },
  { type: answers.error('acceptInvitation', 0).type, error: refused(500) },
];
const serializeState = (state: Snapshot) => JSON.stringify([state.value, state.context]);
const OPENINGS = [
  { name: 'opened plainly', invitation: null },
  { name: 'opened from an invitation link', invitation: TOKEN },
];
const generated = OPENINGS.map((opening) => ({
  ...opening,
  ...productionPaths(loginPageMachine, { events: EVENTS, input: { invitation: opening.invitation }, serializeState }),
}));

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      const src = answers.srcOf(event);
      if (!src) return event.type;
      if (event.type.startsWith('xstate.error.')) return `${src} ${(event.error as { status?: number }).status}`;
      const offer = Object.entries(OFFERS).find(([, options]) => options === event.output)?.[0];
      return `${src} ${offer ?? 'ok'}`;
    })
    .join(', ');

type Place = 'loadingOptions' | 'previewing' | 'ready' | 'accepting' | 'accepted';
/** What the page must show and have done: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  options: LoginOptions;
  preview: InvitationPreview | null;
  invitationFailure: string | null;
  mode: LoginMode;
  calls: { src: string; input: unknown }[];
  joined: number;
};
const START: Expected = {
  place: 'loadingOptions',
  options: NO_OPTIONS_CALL,
  preview: null,
  invitationFailure: null,
  mode: 'login',
  calls: [{ src: 'loadOptions', input: undefined }],
  joined: 0,
};

/** Sign-up is offered when it is open to anyone, or by invitation to someone holding a valid one. */
const offersSignup = ({ options, preview }: Expected) => options.signup === 'open' || (options.signup === 'invite' && preview !== null);
const statusOf = (event: ModelEvent) => (event.error as { status: number }).status;

const expectedAfter = (invitation: string | null) => (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  const done = event.type.startsWith('xstate.done.');
  if (src === 'loadOptions') {
    if (before.place !== 'loadingOptions') return before;
    const options = done ? (event.output as LoginOptions) : NO_OPTIONS_CALL;
    // An invitation decides which form comes first: it is read before the page is shown.
    if (invitation) return { ...before, place: 'previewing', options, calls: [...before.calls, { src: 'previewInvitation', input: { token: invitation } }] };
    return { ...before, place: 'ready', options };
  }
  if (src === 'previewInvitation') {
    if (before.place !== 'previewing') return before;
    if (!done) return { ...before, place: 'ready', invitationFailure: LINK_FAILURES[statusOf(event)]! };
    const after: Expected = { ...before, place: 'ready', preview: PREVIEW };
    // Someone who holds a valid invitation and may make an account sees the sign-up form first.
    return offersSignup(after) ? { ...after, mode: 'signup' } : after;
  }
  if (src === 'acceptInvitation') {
    if (before.place !== 'accepting') return before;
    if (done) return { ...before, place: 'accepted', joined: before.joined + 1 };
    // The invitation is still shown, with why it could not be used, and can be tried again.
    return { ...before, place: 'ready', invitationFailure: LINK_FAILURES[statusOf(event)]! };
  }
  // The page changes form, or accepts, only once it is shown and while it is not accepting.
  if (before.place !== 'ready') return before;
  switch (event.type) {
    case 'mode.login':
      return { ...before, mode: 'login' };
    case 'mode.signup':
      return offersSignup(before) ? { ...before, mode: 'signup' } : before;
    case 'mode.forgot':
      return before.options.resetByMail === true ? { ...before, mode: 'forgot' } : before;
    case 'accept':
      return before.preview ? { ...before, place: 'accepting', calls: [...before.calls, { src: 'acceptInvitation', input: { token: invitation } }] } : before;
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

const play = async (invitation: string | null, events: ModelEvent[]) => {
  const held = heldCalls();
  const joined: unknown[] = [];
  const actor = createActor(
    loginPageMachine.provide({
      actors: { loadOptions: held.stub('loadOptions'), previewInvitation: held.stub('previewInvitation'), acceptInvitation: held.stub('acceptInvitation') },
      actions: { joined: (_, params) => void joined.push(params) },
    }),
    { input: { invitation } },
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.value, after).toBe(expected.place);
    expect(state.status, after).toBe(expected.place === 'accepted' ? 'done' : 'active');
    const { options, preview, invitationFailure, mode } = expected;
    expect(state.context, after).toEqual({ invitation, options, preview, invitationFailure, mode });
    expect(held.calls.map(({ src, input }) => ({ src, input })), `${after}: calls`).toEqual(expected.calls);
    // Joined once, and the app told with the account and the organisation's name.
    expect(joined, `${after}: joined`).toEqual(Array.from({ length: expected.joined }, () => ({ user: ADA, companyName: PREVIEW.companyName })));
    // The links and the button the page shows.
    const ready = expected.place === 'ready';
    expect(state.can({ type: 'mode.signup' }), `${after}: sign-up offered`).toBe(ready && offersSignup(expected));
    expect(state.can({ type: 'mode.forgot' }), `${after}: reset link offered`).toBe(ready && expected.options.resetByMail === true);
    expect(state.can({ type: 'accept' }), `${after}: accept offered`).toBe(ready && expected.preview !== null);
  };
  const rules = expectedAfter(invitation);
  await playAgainstRules(events, { actor, held, answers, start: START, rules: rules, check, describe: (event) => describePath([event]) });
};

describe('the login page, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    const resting = Object.keys(loginPageMachine.root.states).filter((state) => !['deciding', 'invited'].includes(state));
    const reach = (invitation: boolean) => resting.filter((state) => invitation || !['previewing', 'accepting', 'accepted'].includes(state));
    // "deciding" and "invited" are decisions taken at once, never places the page rests in.
    expect(generated.map(({ reachedStates }) => [...reachedStates].sort())).toEqual([false, true].map((invitation) => reach(invitation).map((state) => JSON.stringify(state)).sort()));
    // Every place the page can be in (what the server offers, the invitation read or refused, the form shown) by the events it takes there.
    expect(generated.map(({ transitionCount }) => transitionCount)).toEqual([16, 169]);
  });

  describe.each(generated)('$name', ({ invitation, paths }) => {
    it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
      // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
      expect(path.steps.length, path.description).toBeGreaterThan(1);
      await play(invitation, path.events);
    });
  });
});
