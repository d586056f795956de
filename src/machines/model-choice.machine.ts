import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { UsableModel } from '../contract/models';
import { newChatScope } from './draft-book';

/**
 * The model a person chose, per place: a conversation's id, or `new:<agentId>` for a new chat
 * (the places drafts are kept in). No entry: the agent's own model answers.
 */
export type ModelBook = Record<string, { modelId: string; at: number }>;

/** How many choices are kept; the oldest go first. */
export const MAX_MODEL_CHOICES = 100;

/** What the picker needs of an agent: the model it answers with (null: the default), and whether people may choose another. */
export type ModelRule = { agentId: string; modelId: string | null; allowModelChoice: boolean };

/** Why the server refused a chosen model: no longer one of the person's, or the agent no longer lets people choose. */
export type ModelRefusalKind = 'unknown' | 'notAllowed';

export type ModelChoiceContext = {
  /** The models the person may use, as the server listed them; empty until then. */
  models: UsableModel[];
  book: ModelBook;
  /** The agents the chat has shown, by id. */
  rules: Record<string, ModelRule>;
  /** The server refused the choice made for this place: it was forgotten, and the person is told why. */
  refusal: { scope: string; kind: ModelRefusalKind } | null;
};

export type ModelChoiceEvent =
  /** The chat is shown: the models are read, once. */
  | { type: 'models.wanted' }
  | { type: 'retry' }
  /** The chat's agent as the server describes it. */
  | { type: 'agent.seen'; rule: ModelRule }
  | { type: 'choose'; scope: string; agentId: string; modelId: string }
  /** A new chat became a conversation: the model chosen for it goes with it. */
  | { type: 'conversation.started'; agentId: string; conversationId: string }
  /** Its first question refused, that conversation is a new chat again: what was chosen for it comes back. */
  | { type: 'conversation.discarded'; agentId: string; conversationId: string }
  /** A question went to the server: a refusal said before is old news. */
  | { type: 'asked' }
  | { type: 'choice.refused'; scope: string; agentId: string; kind: ModelRefusalKind }
  /** The person here, whose choices these are, is known (the same person as before, or the first). */
  | { type: 'book.loaded'; book: ModelBook }
  /** Someone else is here now: their choices, and the models they may use. */
  | { type: 'person.changed'; book: ModelBook };

/** The book with this place's choice (none: the agent's own model), the oldest dropped past the bound. */
export const writeChoice = (book: ModelBook, scope: string, modelId: string | null): ModelBook => {
  const { [scope]: _old, ...others } = book;
  if (modelId === null) return others;
  const at = Math.max(0, ...Object.values(others).map((entry) => entry.at)) + 1;
  const kept = Object.entries(others)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_MODEL_CHOICES - 1);
  return { ...Object.fromEntries(kept), [scope]: { modelId, at } };
};

/** The model that answers the agent when nobody chooses: its own while the person may use it, else the default. */
export const ownModelOf = (models: readonly UsableModel[], rule: ModelRule | undefined): UsableModel | null =>
  models.find((model) => model.id === rule?.modelId) ?? models.find((model) => model.isDefault) ?? null;

/** The models a picker offers: the agent's own first, then the others in the server's order. */
export const pickerModels = (models: readonly UsableModel[], rule: ModelRule | undefined): UsableModel[] => {
  const own = ownModelOf(models, rule);
  return own ? [own, ...models.filter((model) => model !== own)] : [...models];
};

/** Whether the agent lets people choose, and the models are there to choose from. */
export const offersChoice = (context: Pick<ModelChoiceContext, 'models' | 'rules'>, agentId: string): boolean =>
  context.rules[agentId]?.allowModelChoice === true && context.models.length > 0;

/** The model chosen for this place, while the agent lets people choose and the person may still use it. */
export const chosenModel = (context: Pick<ModelChoiceContext, 'models' | 'rules' | 'book'>, scope: string, agentId: string): UsableModel | null => {
  if (context.rules[agentId]?.allowModelChoice !== true) return null;
  const modelId = context.book[scope]?.modelId;
  return context.models.find((model) => model.id === modelId) ?? null;
};

/** The model that will answer the next question here: the one chosen, else the agent's own (null: not known yet). */
export const answeringModel = (context: Pick<ModelChoiceContext, 'models' | 'rules' | 'book'>, scope: string, agentId: string): UsableModel | null =>
  chosenModel(context, scope, agentId) ?? ownModelOf(context.models, context.rules[agentId]);

/** The `modelId` a chat request carries: the model chosen for its conversation, else none (the agent's own answers). */
export const modelIdToSend = (context: Pick<ModelChoiceContext, 'models' | 'rules' | 'book'>, request: { conversationId: string; agentId: string }): string | undefined =>
  chosenModel(context, request.conversationId, request.agentId)?.id;

/**
 * Which model answers in the chat, where the agent lets people choose: the models the person may
 * use are read once the chat is shown, a choice is kept per conversation (and per agent for a new
 * chat, going with the conversation it becomes), and choosing the agent's own model is choosing
 * none. A choice the server refuses is forgotten and the person told why. The runtime writes the
 * book to storage (`persist`) and reads it from the request it sends (`modelIdToSend`).
 */
export const modelChoiceMachine = setup({
  types: {
    context: {} as ModelChoiceContext,
    events: {} as ModelChoiceEvent,
  },
  actors: {
    fetchModels: fromPromise<UsableModel[]>(async () => {
      throw new Error('fetchModels is provided where the app starts');
    }),
  },
  actions: {
    /** The book is kept for the person here (provided where the app starts). */
    persist: (_, _params: { book: ModelBook }) => undefined,
    setModels: assign((_, params: { models: UsableModel[] }) => ({ models: params.models })),
    forgetModels: assign({ models: [] }),
    noteRule: assign(({ context, event }) => {
      assertEvent(event, 'agent.seen');
      return { rules: { ...context.rules, [event.rule.agentId]: event.rule } };
    }),
    keepChoice: assign(({ context, event }) => {
      assertEvent(event, 'choose');
      return { book: writeChoice(context.book, event.scope, event.modelId), refusal: null };
    }),
    forgetChoice: assign(({ context, event }) => {
      assertEvent(event, 'choose');
      return { book: writeChoice(context.book, event.scope, null), refusal: null };
    }),
    carryNewChatChoice: assign(({ context, event }) => {
      assertEvent(event, 'conversation.started');
      const chosen = context.book[newChatScope(event.agentId)];
      const book = writeChoice(context.book, newChatScope(event.agentId), null);
      return { book: chosen ? writeChoice(book, event.conversationId, chosen.modelId) : book };
    }),
    giveBackToNewChat: assign(({ context, event }) => {
      assertEvent(event, 'conversation.discarded');
      const scope = newChatScope(event.agentId);
      const chosen = context.book[event.conversationId];
      const book = writeChoice(context.book, event.conversationId, null);
      return {
        book: chosen ? writeChoice(book, scope, chosen.modelId) : book,
        refusal: context.refusal?.scope === event.conversationId ? { ...context.refusal, scope } : context.refusal,
      };
    }),
    forgetRefusal: assign({ refusal: null }),
    /** The refused choice is forgotten: the agent's own model answers the question sent again. */
    forgetRefusedChoice: assign(({ context, event }) => {
      assertEvent(event, 'choice.refused');
      return { book: writeChoice(context.book, event.scope, null), refusal: { scope: event.scope, kind: event.kind } };
    }),
    /** The agent no longer lets people choose: no picker, and no model named, until it is seen again. */
    closeChoice: assign(({ context, event }) => {
      assertEvent(event, 'choice.refused');
      const rule = context.rules[event.agentId];
      return rule ? { rules: { ...context.rules, [event.agentId]: { ...rule, allowModelChoice: false } } } : {};
    }),
    takeBook: assign((_, params: { book: ModelBook }) => ({ book: params.book, refusal: null })),
  },
  guards: {
    /** The agent's own model chosen: that is choosing none. */
    isAgentsOwn: ({ context, event }) => event.type === 'choose' && ownModelOf(context.models, context.rules[event.agentId])?.id === event.modelId,
    /** The agent lets people choose, and the model is one the person may use. */
    mayChoose: ({ context, event }) =>
      event.type === 'choose' && context.rules[event.agentId]?.allowModelChoice === true && context.models.some((model) => model.id === event.modelId),
    /** The model chosen is no longer one the person may use: the list is read again. */
    isUnknownModel: ({ event }) => event.type === 'choice.refused' && event.kind === 'unknown',
  },
}).createMachine({
  id: 'modelChoice',
  context: { models: [], book: {}, rules: {}, refusal: null },
  initial: 'idle',
  on: {
    'agent.seen': { actions: 'noteRule' },
    'conversation.started': { actions: ['carryNewChatChoice', { type: 'persist', params: ({ context }) => ({ book: context.book }) }] },
    'conversation.discarded': { actions: ['giveBackToNewChat', { type: 'persist', params: ({ context }) => ({ book: context.book }) }] },
    asked: { actions: 'forgetRefusal' },
    'book.loaded': { actions: { type: 'takeBook', params: ({ event }) => ({ book: event.book }) } },
    'choice.refused': [
      {
        guard: 'isUnknownModel',
        target: '.loading',
        actions: ['forgetRefusedChoice', 'forgetModels', { type: 'persist', params: ({ context }) => ({ book: context.book }) }],
      },
      { actions: ['forgetRefusedChoice', 'closeChoice', { type: 'persist', params: ({ context }) => ({ book: context.book }) }] },
    ],
  },
  states: {
    /** Nothing asked yet: the chat has not been shown. */
    idle: {
      on: {
        'models.wanted': 'loading',
        'person.changed': { actions: { type: 'takeBook', params: ({ event }) => ({ book: event.book }) } },
      },
    },
    loading: {
      invoke: {
        src: 'fetchModels',
        onDone: { target: 'ready', actions: { type: 'setModels', params: ({ event }) => ({ models: event.output }) } },
        onError: 'failed',
      },
      on: {
        // Asked again with the newcomer's session: what the one before may use is not theirs.
        'person.changed': { target: 'loading', reenter: true, actions: { type: 'takeBook', params: ({ event }) => ({ book: event.book }) } },
      },
    },
    ready: {
      on: {
        choose: [
          { guard: 'isAgentsOwn', actions: ['forgetChoice', { type: 'persist', params: ({ context }) => ({ book: context.book }) }] },
          { guard: 'mayChoose', actions: ['keepChoice', { type: 'persist', params: ({ context }) => ({ book: context.book }) }] },
        ],
        'person.changed': { target: 'loading', actions: ['forgetModels', { type: 'takeBook', params: ({ event }) => ({ book: event.book }) }] },
      },
    },
    /** The models could not be read: the agent's own model answers until they are. */
    failed: {
      on: {
        retry: 'loading',
        'person.changed': { target: 'loading', actions: { type: 'takeBook', params: ({ event }) => ({ book: event.book }) } },
      },
    },
  },
});
