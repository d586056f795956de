import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type Actor, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import type { Share } from '../../../src/contract/shares';
import {
  conversationSharesMachine,
  type ConversationSharesContext,
  type ConversationSharesEvent,
  type ConversationSharesInput,
  type ExportFormat,
} from '../../../src/machines/conversation-shares.machine';
import { coverageGaps, NO_GAPS } from './model-coverage';
import { playOnActor } from './play-path';
import { productionPaths, type ModelEvent, type ProductionPath } from './production-paths';

/**
 * A conversation's share links and exports, on paths generated from the machine that ships, for
 * each place it opens: the share dialog of a conversation (signed in, or a visitor, who can only
 * export) and the account's panel of every link (no conversation: nothing to make or export). The
 * server lists one link, makes a new one as asked (with the owner's name or not), revokes the one
 * asked, exports, or refuses any of these. Each path is played on the production machine with its
 * calls held until the path answers them, and after every step the links shown, the owner's-name
 * choice, the failure said, every call made and what the person may do next are checked against
 * rules written from the product: a failure is said and loses nothing, a new link comes first, a
 * revoked one goes, and only a signed-in person with a conversation can make a link.
 */
type Snapshot = SnapshotFrom<typeof conversationSharesMachine>;
type Phase = keyof typeof conversationSharesMachine.root.states;

const CONVERSATION = 'c-1';
const share = (shareId: string, showOwnerName: boolean): Share => ({
  shareId,
  token: `token-${shareId}`,
  conversationId: CONVERSATION,
  title: 'Trip to Lyon',
  showOwnerName,
  messageCount: 4,
  createdAt: '2026-01-01T00:00:00.000Z',
});
/** The link the server lists. */
const LISTED = share('s-1', false);
/** The id of the link the server makes. */
const MADE = 's-2';
const REFUSED = Object.assign(new Error('HTTP 500'), { status: 500 });

const PLACES: { name: string; input: ConversationSharesInput; transitions: number }[] = [
  { name: 'the share dialog', input: { conversationId: CONVERSATION, signedIn: true }, transitions: 229 },
  { name: 'the account panel', input: { conversationId: null, signedIn: true }, transitions: 19 },
  { name: 'a visitor’s dialog', input: { conversationId: CONVERSATION, signedIn: false }, transitions: 6 },
  { name: 'a visitor without a conversation', input: { conversationId: null, signedIn: false }, transitions: 0 },
];

/** The call each state of the machine waits on, by the name of the actor that makes it. */
const CALL_OF: Partial<Record<Phase, string>> = {
  loading: 'fetchShares',
  creating: 'createShare',
  revoking: 'revokeShare',
  exporting: 'exportConversation',
  exportingAlone: 'exportConversation',
};
/** Read without throwing: a machine whose state lost its call must fail the tests below, not the file as it loads. */
const invokeId = (phase: Phase) => conversationSharesMachine.root.states[phase]?.invoke[0]?.id ?? `nothing invoked in ${phase}`;
const answered = (phase: Phase, output?: unknown): ModelEvent => ({ type: `xstate.done.actor.${invokeId(phase)}`, output });
const refused = (phase: Phase): ModelEvent => ({ type: `xstate.error.actor.${invokeId(phase)}`, error: REFUSED });

/** What the machine asked of the call under way: the server answers that request. */
const askedOf = <I>(state: Snapshot): I => (Object.values(state.children)[0] as unknown as { options: { input: I } }).options.input;

const EXPORTS: ModelEvent[] = [
  { type: 'export', format: 'markdown' },
  { type: 'export', format: 'json' },
];

/** What the person and the server can do in each state. */
const eventsIn = (state: Snapshot): ModelEvent[] => {
  const phase = state.value as Phase;
  const shown = state.context.shares.map((item) => item.shareId);
  switch (phase) {
    case 'loading':
      return [answered(phase, [LISTED]), refused(phase)];
    case 'failed':
      return [{ type: 'retry' }];
    case 'exportOnly':
      return EXPORTS;
    case 'ready':
      return [
        { type: 'showName.toggle' },
        // one link made at a time keeps the lists finite
        ...(shown.includes(MADE) ? [] : [{ type: 'share.create' }]),
        ...shown.map((shareId) => ({ type: 'share.revoke', shareId })),
        ...EXPORTS,
      ];
    case 'creating':
      return [answered(phase, share(MADE, askedOf<{ showOwnerName: boolean }>(state).showOwnerName)), refused(phase)];
    case 'revoking':
      return [answered(phase, askedOf<{ shareId: string }>(state).shareId), refused(phase)];
    case 'exporting':
    case 'exportingAlone':
      return [answered(phase), refused(phase)];
    default:
      return [];
  }
};

const serializeState = (state: Snapshot) =>
  JSON.stringify([state.value, state.context.shares.map((item) => [item.shareId, item.showOwnerName]), state.context.showOwnerName, state.context.error]);

const MODELS = PLACES.map((place) => ({ ...place, ...productionPaths(conversationSharesMachine, { events: eventsIn, input: place.input, serializeState }) }));
console.log(`Share links and exports (production machine): ${MODELS.map((model) => `${model.name} ${model.transitionCount} transitions`).join(', ')}`);

/** Where the product must be, and what it must have done, written from its rules. */
type Expected = {
  phase: Phase;
  shares: Share[];
  showOwnerName: boolean;
  error: ConversationSharesContext['error'];
  /** Every call made, in order, with what it asked. */
  calls: { name: string; input: unknown }[];
};

type World = {
  input: ConversationSharesInput;
  actor: Actor<typeof conversationSharesMachine>;
  expected: Expected;
  last: string;
  /** Every call the machine made, in order. */
  calls: { name: string; input: unknown }[];
  /** The calls still waiting for the server. */
  waiting: { name: string; resolve: (output: unknown) => void; reject: (error: unknown) => void }[];
};

/** Signed in, the links are asked for at once; a visitor is never asked for them. */
const opened = (input: ConversationSharesInput): Expected => ({
  phase: input.signedIn ? 'loading' : 'exportOnly',
  shares: [],
  showOwnerName: false,
  error: null,
  calls: input.signedIn ? [{ name: 'fetchShares', input: { conversationId: input.conversationId } }] : [],
});

const EXPECTED_AFTER = (world: World, event: ModelEvent): Expected => {
  const before = world.expected;
  const calls = (name: string, input: unknown) => [...before.calls, { name, input }];
  /** Where an export returns: the links, or (for a visitor) the exports alone. */
  const home: Phase = world.input.signedIn ? 'ready' : 'exportOnly';
  const call = CALL_OF[before.phase];
  if (event.type.startsWith('xstate.done.actor.')) {
    switch (call) {
      case 'fetchShares':
        return { ...before, phase: 'ready', shares: event.output as Share[], error: null };
      // the new link comes first
      case 'createShare':
        return { ...before, phase: 'ready', shares: [event.output as Share, ...before.shares], error: null };
      case 'revokeShare':
        return { ...before, phase: 'ready', shares: before.shares.filter((item) => item.shareId !== event.output), error: null };
      case 'exportConversation':
        return { ...before, phase: home };
    }
  }
  // A refusal is said, and nothing shown is lost; only a list never loaded offers to try again.
  if (event.type.startsWith('xstate.error.actor.')) {
    switch (call) {
      case 'fetchShares':
        return { ...before, phase: 'failed', error: 'load' };
      case 'createShare':
        return { ...before, phase: 'ready', error: 'create' };
      case 'revokeShare':
        return { ...before, phase: 'ready', error: 'revoke' };
      case 'exportConversation':
        return { ...before, phase: home, error: 'export' };
    }
  }
  const { conversationId } = world.input;
  // Starting something new clears the failure said before; a retry says it until the list arrives.
  switch (event.type) {
    case 'retry':
      return { ...before, phase: 'loading', calls: calls('fetchShares', { conversationId }) };
    case 'showName.toggle':
      return { ...before, showOwnerName: !before.showOwnerName };
    case 'share.create':
      return { ...before, phase: 'creating', error: null, calls: calls('createShare', { conversationId, showOwnerName: before.showOwnerName }) };
    case 'share.revoke':
      return { ...before, phase: 'revoking', error: null, calls: calls('revokeShare', { shareId: event.shareId }) };
    case 'export':
      return {
        ...before,
        phase: before.phase === 'exportOnly' ? 'exportingAlone' : 'exporting',
        error: null,
        calls: calls('exportConversation', { conversationId, format: event.format }),
      };
  }
  throw new Error(`no rule for ${event.type} in ${before.phase}`);
};

/** What the person may do, by the product's rules: the buttons the dialog and the panel enable. */
const allowed = (world: World): [ConversationSharesEvent, boolean][] => {
  const { phase } = world.expected;
  const hasConversation = world.input.conversationId !== null;
  const formats: ExportFormat[] = ['markdown', 'json'];
  return [
    [{ type: 'retry' }, phase === 'failed'],
    [{ type: 'showName.toggle' }, phase === 'ready'],
    [{ type: 'share.create' }, phase === 'ready' && hasConversation],
    // a link is revoked from the dialog and from the account's panel alike
    [{ type: 'share.revoke', shareId: LISTED.shareId }, phase === 'ready'],
    ...formats.map((format): [ConversationSharesEvent, boolean] => [{ type: 'export', format }, (phase === 'ready' || phase === 'exportOnly') && hasConversation]),
  ];
};

const check = (world: World, phase: Phase) => {
  const { expected, last } = world;
  expect(phase, `the machine's path is in ${phase} after ${last}; the rules say ${expected.phase}`).toBe(expected.phase);
  const snapshot = world.actor.getSnapshot();
  expect(snapshot.value, `after ${last}`).toBe(expected.phase);
  expect(snapshot.context, `after ${last}`).toEqual({ ...world.input, shares: expected.shares, showOwnerName: expected.showOwnerName, error: expected.error });
  expect(world.calls, `calls after ${last}`).toEqual(expected.calls);
  // a state that waits on the server has exactly its call under way; the others none
  expect(
    world.waiting.map((call) => call.name),
    `under way after ${last}`,
  ).toEqual(CALL_OF[phase] ? [CALL_OF[phase]] : []);
  for (const [event, can] of allowed(world)) expect(snapshot.can(event), `in ${phase} after ${last}: ${JSON.stringify(event)}`).toBe(can);
};

let world: World | null = null;
const current = () => world!;

const answer = async (phase: Phase, event: ModelEvent, ok: boolean) => {
  const w = current();
  const call = w.waiting.shift();
  expect(call?.name, `the call answered by ${event.type}`).toBe(CALL_OF[phase]);
  w.expected = EXPECTED_AFTER(w, event);
  w.last = `${call!.name} ${ok ? 'answered' : 'refused'}`;
  if (ok) call!.resolve(event.output);
  else call!.reject(event.error);
  // the answer reaches the machine a few microtasks later
  await new Promise((resolve) => setTimeout(resolve, 0));
};

const send = ({ event }: { event: ModelEvent }) => {
  const w = current();
  w.expected = EXPECTED_AFTER(w, event);
  w.last = JSON.stringify(event);
  w.actor.send(event as ConversationSharesEvent);
};

const answers = Object.fromEntries(
  (Object.keys(CALL_OF) as Phase[]).flatMap((phase) => [
    [answered(phase).type, ({ event }: { event: ModelEvent }) => answer(phase, event, true)],
    [refused(phase).type, ({ event }: { event: ModelEvent }) => answer(phase, event, false)],
  ]),
);

const params: TestParam<Snapshot, ModelEvent> = {
  states: Object.fromEntries(
    (Object.keys(conversationSharesMachine.root.states) as Phase[])
      // "choosing" decides at once where the machine opens: no step ever rests there
      .filter((phase) => phase !== 'choosing')
      .map((phase) => [phase, () => check(current(), phase)]),
  ),
  events: { ...answers, retry: send, 'showName.toggle': send, 'share.create': send, 'share.revoke': send, export: send },
};

const stub = (w: World, name: string) =>
  fromPromise<unknown, unknown>(
    ({ input }) =>
      new Promise((resolve, reject) => {
        w.calls.push({ name, input });
        w.waiting.push({ name, resolve, reject });
      }),
  ) as never;

const play = async (input: ConversationSharesInput, path: ProductionPath<typeof conversationSharesMachine>) => {
  const w = { input, expected: opened(input), last: 'opening', calls: [], waiting: [] } as Omit<World, 'actor'> as World;
  w.actor = createActor(
    conversationSharesMachine.provide({
      actors: {
        fetchShares: stub(w, 'fetchShares'),
        createShare: stub(w, 'createShare'),
        revokeShare: stub(w, 'revokeShare'),
        exportConversation: stub(w, 'exportConversation'),
      },
    }),
    { input },
  );
  world = w;
  await playOnActor(w.actor, path, params);
};

/** "revoke s-1, revokeShare refused": a path's events as a person would tell them. */
const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      const phase = (Object.keys(CALL_OF) as Phase[]).find((name) => event.type.endsWith(`.actor.${invokeId(name)}`));
      if (event.type.startsWith('xstate.done.actor.')) return `${CALL_OF[phase!]} answered`;
      if (event.type.startsWith('xstate.error.actor.')) return `${CALL_OF[phase!]} refused`;
      if (event.type === 'share.revoke') return `revoke ${String(event.shareId)}`;
      if (event.type === 'export') return `export ${String(event.format)}`;
      return event.type;
    })
    .join(', ');

describe('share links and exports, paths generated from the production machine', () => {
  it('reaches every state and takes every transition, each state asserted and each event played', () => {
    const declared = Object.keys(conversationSharesMachine.root.states).filter((phase) => phase !== 'choosing');
    const reached = new Set(MODELS.flatMap((model) => [...model.reachedStates].map((value) => JSON.parse(value) as string)));
    expect([...reached].sort()).toEqual(declared.sort());
    const gaps = MODELS.map((model) => coverageGaps(conversationSharesMachine, model.model, params));
    for (const gap of gaps) {
      expect(gap.statesWithoutAssertion).toEqual(NO_GAPS.statesWithoutAssertion);
      expect(gap.eventsWithoutExecutor).toEqual(NO_GAPS.eventsWithoutExecutor);
    }
    // every assertion and executor is used by some place; "choosing" is the only state never rested in
    const everywhere = (key: keyof typeof NO_GAPS) => gaps.map((gap) => gap[key]).reduce((left, right) => left.filter((item) => right.includes(item)));
    expect({ ...NO_GAPS, ...Object.fromEntries((['unreachableStates', 'staleAssertions', 'staleExecutors'] as const).map((key) => [key, everywhere(key)])) }).toEqual({
      ...NO_GAPS,
      unreachableStates: ['choosing'],
    });
    // per place: the states a person tells apart (links shown, the name choice, the failure said) x the events each takes
    expect(MODELS.map((model) => model.transitionCount)).toEqual(PLACES.map((place) => place.transitions));
  });

  describe.each(MODELS.map((model) => [model.name, model] as const))('%s', (_name, model) => {
    it.each([model.pathThrough([]), ...model.paths].map((path) => [describePath(path.events) || 'opened', path] as const))('%s', async (_path, path) => {
      await play(model.input, path);
    });
  });
});
