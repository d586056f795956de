import { createActor, fromPromise } from 'xstate';
import type { ChatTransport } from '../machines/chat-stream.actor';
import { modelChoiceMachine, modelIdToSend, type ModelBook, type ModelRefusalKind } from '../machines/model-choice.machine';
import { CHAT_MODELS_KEY, readPreference, writePreference } from '../services/storage';
import type { RuntimeOptions } from './runtime-options';

/**
 * The chat's model picker and its real side effects: the models read from the server, the
 * choices kept per person in this browser like the drafts (and forgotten at sign-out with them),
 * and the model chosen put into each chat request.
 */
const modelsApi = () => import('../services/api/models');

export const chatModels = {
  read: (userId: string): ModelBook => readPreference<ModelBook>(CHAT_MODELS_KEY, userId) ?? {},
  write: (userId: string, book: ModelBook): void => writePreference(CHAT_MODELS_KEY, userId, book),
};

export const createModelChoiceActor = ({ inspect, personHere }: { inspect: RuntimeOptions['inspect']; personHere: () => string | null }) =>
  createActor(
    modelChoiceMachine.provide({
      actors: {
        fetchModels: fromPromise(async () => (await (await modelsApi()).listUsableModels({ silent: true })).list),
      },
      actions: {
        persist: (_, { book }) => {
          const person = personHere();
          if (person !== null) chatModels.write(person, book);
        },
      },
    }),
    { inspect },
  ).start();

export type ModelChoiceActor = ReturnType<typeof createModelChoiceActor>;

/** The refusal's fixed word (`StreamError.reason`) as the picker reads it; the contract's words come with the first refusal. */
const refusalKindOf = async (error: unknown): Promise<ModelRefusalKind | null> => {
  const reason = typeof error === 'object' && error !== null && 'reason' in error ? error.reason : undefined;
  if (typeof reason !== 'string') return null;
  const { MODEL_ERRORS } = await import('../contract/models');
  if (reason === MODEL_ERRORS.unknown) return 'unknown';
  return reason === MODEL_ERRORS.choiceNotAllowed ? 'notAllowed' : null;
};

/**
 * The chat transport with the model chosen for the request's conversation as its `modelId`
 * (none where the agent does not let people choose, or nothing was chosen). A choice the server
 * refuses is told to the picker, which forgets it; the refusal goes on to the chat as any other.
 */
export const withChosenModel =
  (transport: ChatTransport, modelChoice: ModelChoiceActor): ChatTransport =>
  async (request, options) => {
    modelChoice.send({ type: 'asked' });
    const modelId = modelIdToSend(modelChoice.getSnapshot().context, request);
    try {
      await transport(modelId === undefined ? request : { ...request, modelId }, options);
    } catch (error) {
      const kind = modelId === undefined ? null : await refusalKindOf(error);
      if (kind) modelChoice.send({ type: 'choice.refused', scope: request.conversationId, agentId: request.agentId, kind });
      throw error;
    }
  };

type Followed = {
  subscribe: (observer: { next: () => void; complete: () => void }) => { unsubscribe: () => void };
};

/**
 * The choices follow whoever is here: the chat hears of every change of person (their drafts, or
 * a new chat for someone else), so its updates are where the picker is told. Stopped with the chat.
 */
export const followPerson = (chat: Followed, modelChoice: ModelChoiceActor, personHere: () => string | null): void => {
  let person = personHere();
  if (person !== null) modelChoice.send({ type: 'book.loaded', book: chatModels.read(person) });
  chat.subscribe({
    next: () => {
      const now = personHere();
      if (now === person) return;
      const before = person;
      person = now;
      if (now !== null) modelChoice.send({ type: before === null ? 'book.loaded' : 'person.changed', book: chatModels.read(now) });
    },
    complete: () => modelChoice.stop(),
  });
};
