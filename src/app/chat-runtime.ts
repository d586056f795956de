import { createActor, fromPromise, type ActorOptions, type AnyActorLogic } from 'xstate';
import { chatMachine } from '../machines/chat.machine';
import { createChatStreamCall, type ChatTransport, type ResumeTransport } from '../machines/chat-stream.actor';
import type { ScreenEvents } from '../services/screen-events';
import { createModelChoiceActor, followPerson, withChosenModel, type ModelChoiceActor } from './model-choice-actors';
import { selectVersionActor } from './chat-versions-actors';
import { startingConversation } from './creation-refusal';
import { keepReadConversations, noteConversation } from './offline-keeping';
import type { Navigate, RuntimeOptions } from './runtime-options';

/**
 * The chat actor and its real side effects. This module arrives with the chat page (or with the
 * first question asked from home), never with the home page: the chat machine is the largest
 * piece of the app after React.
 */
const conversationsApi = () => import('../services/api/conversations');

/** The stream transport arrives with the first question. */
const streamChatOnDemand: ChatTransport = async (request, options) => {
  const { streamChat } = await import('../services/chat-stream');
  return streamChat(request, options);
};

const resumeChatOnDemand: ResumeTransport = async (request, options) => {
  const { resumeChat } = await import('../services/chat-stream');
  return resumeChat(request, options);
};

export type ChatWiring = {
  navigate: Navigate;
  screenEvents: ScreenEvents;
  inspect: RuntimeOptions['inspect'];
  /** What the chat's waits (reading a lost answer again) are timed by; tests pass a simulated clock. */
  clock?: ActorOptions<AnyActorLogic>['clock'];
  /** Who is here: an account's id, whose reading is kept for offline use (offline-keeping.ts), or a visitor. */
  personHere?: () => string | null;
};

/** How long after a new chat's first answer the history is read again for the model's title. */
const MODEL_TITLE_WAIT_MS = 5000;
/** New chats created here whose first answer has not settled yet. */
const namedLater = new Set<string>();

/** Each chat's model picker (the model chosen per conversation), created with it. */
const modelChoices = new WeakMap<object, ModelChoiceActor>();

export const createChatActor = ({ navigate, screenEvents, inspect, clock, personHere }: ChatWiring) => {
  const modelChoice = createModelChoiceActor({ inspect, personHere: personHere ?? (() => null) });
  const chat = createActor(
    chatMachine.provide({
      actors: {
        loadConversation: fromPromise(async ({ input }) => {
          const { getConversation, listMessages } = await conversationsApi();
          const options = { silent: input.silent };
          const [conversation, messages] = await Promise.all([getConversation(input.conversationId, options), listMessages(input.conversationId, options)]);
          noteConversation(conversation);
          return { conversation, messages };
        }),
        createConversation: fromPromise(async ({ input }) => {
          const conversation = await startingConversation(async () =>
            (await conversationsApi()).createConversation(
              // Named after its first question until the person names it (or the model does).
              { sourceId: input.agentId, source: input.source, ...(input.title ? { title: input.title, titleBy: 'question' as const } : {}) },
              { silent: true },
            ),
          );
          noteConversation(conversation);
          return conversation;
        }),
        // The model chosen for the conversation goes with each question (and retry, edit, new answer).
        chatStream: createChatStreamCall(withChosenModel(streamChatOnDemand, modelChoice)),
        selectVersion: selectVersionActor,
        resumeStream: createChatStreamCall(resumeChatOnDemand),
        stopAnswer: fromPromise(async ({ input }) => (await conversationsApi()).stopAnswer(input.conversationId, input.messageId, { silent: true })),
      },
      actions: {
        conversationCreated: ({ context }, { conversationId }) => {
          modelChoice.send({ type: 'conversation.started', agentId: context.agentId, conversationId });
          navigate(`/chat/${conversationId}`, { replace: true });
          screenEvents.emit('updateChatList');
          namedLater.add(conversationId);
        },
        conversationDiscarded: ({ context }, { conversationId }) => {
          modelChoice.send({ type: 'conversation.discarded', agentId: context.agentId, conversationId });
          navigate('/chat', { replace: true });
          void conversationsApi()
            .then((api) => api.deleteConversation(conversationId, { silent: true }))
            .catch(() => undefined)
            .then(() => screenEvents.emit('updateChatList'));
        },
        exchangeSettled: (_, { conversationId }) => {
          screenEvents.emit('updateChatList');
          // After a new chat's first answer the server may have the model name it: read the list
          // again once that has had time to happen.
          if (conversationId && namedLater.delete(conversationId)) setTimeout(() => screenEvents.emit('updateChatList'), MODEL_TITLE_WAIT_MS);
        },
      },
    }),
    { inspect, input: {}, ...(clock ? { clock } : {}) },
  );
  if (personHere) keepReadConversations(chat, personHere);
  followPerson(chat, modelChoice, personHere ?? (() => null));
  modelChoices.set(chat, modelChoice);
  return chat;
};

export type ChatActor = ReturnType<typeof createChatActor>;

/** The model picker of this chat. */
export const modelChoiceOf = (chat: ChatActor) => modelChoices.get(chat)!;
