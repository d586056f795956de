import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { UsableModel } from '../contract/models';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { modelChoiceMachine, modelIdToSend, type ModelBook, type ModelRefusalKind, type ModelRule } from './model-choice.machine';

/**
 * The model chosen in a chat, on paths generated from the machine that ships: the chat is shown
 * (the models read, or failing and tried again), its agent seen (it lets people choose); the
 * person chooses another model for a new chat, the agent's own, a model not listed, or one for an
 * agent that does not let people choose; the new chat becomes a conversation or goes back to a
 * new chat; the server refuses the choice (a model unknown, or the agent no longer allowing it);
 * the person's book is read, someone else arrives. Each path is played on the production machine
 * with its list call held until the path says how it ends, and checked after every step against
 * rules written here: only an agent that lets people choose gets a model named, and only one the
 * person may use; the agent's own is no choice; the choice goes with the conversation; a refused
 * choice is forgotten and said; someone else's models are read again.
 */
type Snapshot = SnapshotFrom<typeof modelChoiceMachine>;
const model = (id: string, patch: Partial<UsableModel> = {}): UsableModel => ({ id, name: id, contextWindow: null, maxOutput: null, vision: false, isDefault: false, ...patch });
const MODELS = [model('house', { isDefault: true }), model('seeing', { vision: true }), model('long')];
/** The agent in view: it answers with "seeing" and lets people choose. */
const TESTER: ModelRule = { agentId: 'tester', modelId: 'seeing', allowModelChoice: true };
const NEW_CHAT = 'new:tester';
const CONVERSATION = 'conv-1';
/** What the person chose in this browser before. */
const STORED: ModelBook = { [CONVERSATION]: { modelId: 'long', at: 7 } };
const answers = actorAnswers(modelChoiceMachine);
const refused = (status: number) => Object.assign(new Error(`status ${status}`), { status });

const CHOICES: { scope: string; agentId: string; modelId: string }[] = [
  { scope: NEW_CHAT, agentId: 'tester', modelId: 'long' },
  // The agent's own.
  { scope: NEW_CHAT, agentId: 'tester', modelId: 'seeing' },
  // Not one the person may use.
  { scope: NEW_CHAT, agentId: 'tester', modelId: 'gone' },
  // An agent that was never said to let people choose.
  { scope: CONVERSATION, agentId: 'fixed', modelId: 'long' },
];

const EVENTS: ModelEvent[] = [
  { type: 'models.wanted' },
  answers.done('fetchModels', MODELS),
  { type: answers.error('fetchModels', 0).type, error: refused(500) },
  { type: 'retry' },
  { type: 'agent.seen', rule: TESTER },
  ...CHOICES.map((choice): ModelEvent => ({ type: 'choose', ...choice })),
  { type: 'conversation.started', agentId: 'tester', conversationId: CONVERSATION },
  { type: 'conversation.discarded', agentId: 'tester', conversationId: CONVERSATION },
  { type: 'asked' },
  ...(['unknown', 'notAllowed'] as const).map((kind): ModelEvent => ({ type: 'choice.refused', scope: CONVERSATION, agentId: 'tester', kind })),
  { type: 'book.loaded', book: STORED },
  { type: 'person.changed', book: {} },
];

/** Each place's choice, without the order it was made in. */
const choicesOf = (book: ModelBook): Record<string, string> => Object.fromEntries(Object.entries(book).map(([scope, { modelId }]) => [scope, modelId]));

/** What the person can tell apart: where the picker is, what each place would send, whether the agent lets them choose, what they are told. */
const serializeState = (state: Snapshot) => {
  const { book, rules, refusal } = state.context;
  return JSON.stringify([state.value, choicesOf(book), rules.tester?.allowModelChoice ?? null, refusal]);
};
const { paths, transitionCount, reachedStates } = productionPaths(modelChoiceMachine, { events: EVENTS, serializeState });

const describeEvent = (event: ModelEvent): string => {
  const src = answers.srcOf(event);
  if (src) return event.type.startsWith('xstate.error.') ? `${src} ${(event.error as { status: number }).status}` : `${src} ok`;
  if (event.type === 'choose') return `choose ${event.modelId as string} for ${event.agentId as string} in ${event.scope as string}`;
  if (event.type === 'choice.refused') return `refused ${event.kind as string}`;
  return event.type;
};
const describePath = (events: ModelEvent[]) => events.map(describeEvent).join(', ');

type Place = 'idle' | 'loading' | 'ready' | 'failed';
/** What must hold: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  models: UsableModel[];
  /** Each place's model chosen. */
  choices: Record<string, string>;
  /** Whether the agent in view lets people choose, as last heard (null: not heard). */
  testerAllows: boolean | null;
  refusal: { scope: string; kind: ModelRefusalKind } | null;
  /** Times the models were asked for. */
  fetches: number;
  /** The books written to storage, each place's choice. */
  persisted: Record<string, string>[];
};
const START: Expected = { place: 'idle', models: [], choices: {}, testerAllows: null, refusal: null, fetches: 0, persisted: [] };

/** The model that answers the agent in view when nobody chooses: its own while listed, else the default; another agent's, the default. */
const ownOf = (expected: Expected, agentId: string) =>
  agentId === 'tester' && expected.testerAllows !== null && expected.models.some((listed) => listed.id === TESTER.modelId)
    ? TESTER.modelId
    : expected.models.find((listed) => listed.isDefault)?.id;
const withChoice = (choices: Record<string, string>, scope: string, modelId: string | undefined) => {
  const { [scope]: _old, ...others } = choices;
  return modelId === undefined ? others : { ...others, [scope]: modelId };
};
const kept = (before: Expected, choices: Record<string, string>, patch: Partial<Expected> = {}): Expected => ({ ...before, ...patch, choices, persisted: [...before.persisted, choices] });
/** The models asked for (again): what was listed is not shown until they come. */
const load = (before: Expected): Expected => ({ ...before, place: 'loading', models: [], fetches: before.fetches + 1 });

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  if (src === 'fetchModels') {
    if (before.place !== 'loading') return before;
    return event.type.startsWith('xstate.done.') ? { ...before, place: 'ready', models: MODELS } : { ...before, place: 'failed' };
  }
  switch (event.type) {
    case 'models.wanted':
      return before.place === 'idle' ? load(before) : before;
    case 'retry':
      return before.place === 'failed' ? load(before) : before;
    case 'agent.seen':
      return { ...before, testerAllows: true };
    case 'choose': {
      if (before.place !== 'ready') return before;
      const { scope, agentId, modelId } = event as unknown as (typeof CHOICES)[number];
      // The agent's own model is choosing none.
      if (modelId === ownOf(before, agentId)) return kept(before, withChoice(before.choices, scope, undefined), { refusal: null });
      const allows = agentId === 'tester' && before.testerAllows === true;
      if (!allows || !before.models.some((listed) => listed.id === modelId)) return before;
      return kept(before, withChoice(before.choices, scope, modelId), { refusal: null });
    }
    case 'conversation.started': {
      // The new chat's choice goes with the conversation it became.
      const chosen = before.choices[NEW_CHAT];
      const choices = withChoice(before.choices, NEW_CHAT, undefined);
      return kept(before, chosen === undefined ? choices : withChoice(choices, CONVERSATION, chosen));
    }
    case 'conversation.discarded': {
      // Its first question refused, the conversation is a new chat again, with what was chosen for it and what was said.
      const chosen = before.choices[CONVERSATION];
      const choices = withChoice(before.choices, CONVERSATION, undefined);
      const refusal = before.refusal?.scope === CONVERSATION ? { ...before.refusal, scope: NEW_CHAT } : before.refusal;
      return kept(before, chosen === undefined ? choices : withChoice(choices, NEW_CHAT, chosen), { refusal });
    }
    case 'asked':
      return { ...before, refusal: null };
    case 'choice.refused': {
      const kind = event.kind as ModelRefusalKind;
      const after = kept(before, withChoice(before.choices, CONVERSATION, undefined), { refusal: { scope: CONVERSATION, kind } });
      // A model no longer the person's: the list is read again. An agent no longer allowing it: no choice for it.
      if (kind === 'unknown') return load(after);
      return { ...after, testerAllows: before.testerAllows === null ? null : false };
    }
    case 'book.loaded':
      return { ...before, choices: choicesOf(STORED), refusal: null };
    case 'person.changed': {
      // Someone else's choices, and the models they may use, read again once the chat has asked for them.
      const after = { ...before, choices: {}, refusal: null };
      return before.place === 'idle' ? after : load(after);
    }
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const persisted: Record<string, string>[] = [];
  const actor = createActor(
    modelChoiceMachine.provide({
      actors: { fetchModels: held.stub('fetchModels') },
      actions: { persist: (_, { book }) => void persisted.push(choicesOf(book)) },
    }),
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.value, after).toBe(expected.place);
    const { context } = state;
    expect(context.models, `${after}: models`).toEqual(expected.models);
    expect(choicesOf(context.book), `${after}: choices`).toEqual(expected.choices);
    expect(context.rules.tester?.allowModelChoice ?? null, `${after}: the agent allows choosing`).toBe(expected.testerAllows);
    expect(context.refusal, `${after}: refusal`).toEqual(expected.refusal);
    expect(held.calls.length, `${after}: models asked for`).toBe(expected.fetches);
    expect(persisted, `${after}: kept`).toEqual(expected.persisted);
    // What each question sends: a model only where the agent lets people choose, only one listed.
    for (const scope of [NEW_CHAT, CONVERSATION]) {
      const chosen = expected.choices[scope];
      const sends = expected.testerAllows === true && expected.models.some((listed) => listed.id === chosen) ? chosen : undefined;
      expect(modelIdToSend(context, { conversationId: scope, agentId: 'tester' }), `${after}: sent from ${scope}`).toBe(sends);
      expect(modelIdToSend(context, { conversationId: scope, agentId: 'fixed' }), `${after}: sent to another agent`).toBeUndefined();
    }
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: describeEvent });
};

describe('the model chosen in the chat, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(['"failed"', '"idle"', '"loading"', '"ready"']);
    // Every place the picker can be in (what each chat would send, whether the agent allows it, what was said) by the events it takes there.
    expect(transitionCount).toBe(1513);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
