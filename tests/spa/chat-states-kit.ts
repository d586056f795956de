import { createActor, fromPromise, waitFor } from 'xstate';
import type { ChatRequest, ChatResumeRequest } from '../../src/contract/chat';
import type { Conversation, ConversationApplication } from '../../src/contract/conversations';
import type { FileRef } from '../../src/contract/media';
import type { Message } from '../../src/contract/messages';
import type { ChatStreamReport } from '../../src/machines/chat-stream.actor';
import { chatMachine, type ChatInput } from '../../src/machines/chat.machine';
import { keepDrafts, type DraftBook } from '../../src/machines/draft-book';
import { chatAt, conversation, message } from './chat-fixtures';
import { recordedChatStream, type RecordedStream } from './recorded-stream';

/**
 * The harness of the chat machine's tests state by state (src/machines/chat.machine.states,
 * .endings, .calls, .new-chats and .sign-out tests): what each settled state lets a person do
 * next, what every way an exchange ends tells the app, and what each call is given. The flows are
 * told in the tests using chat-flow-kit.ts and in chat-versions.machine.test.ts; these pin the
 * details they pass over.
 */

/** A stored exchange whose answer has two versions: "Which flour?" → "Rye." (2 of 2). */
export const stored = (): Message[] => [message('q', 'user', 'Which flour?'), message('a2', 'assistant', 'Rye.', { siblingIds: ['a1', 'a2'] })];

export const application: ConversationApplication = { name: 'Planner', avatar: '/a.png', intro: 'Plans things.' };
export const photo: FileRef = { fileId: 'f-1', name: 'bread.png', url: '/api/media/file/f-1', kind: 'image', mimeType: 'image/png', size: 10 };

export const harness = (
  options: {
    input?: ChatInput;
    messages?: Message[];
    loaded?: Conversation;
    load?: () => Promise<{ conversation: Conversation; messages: Message[] }>;
    stop?: (input: { conversationId: string; messageId: string }) => Promise<Message>;
    select?: (input: { conversationId: string; messageId: string }) => Promise<Message[]>;
    create?: () => Promise<Conversation>;
  } = {},
) => {
  const streams: RecordedStream<ChatRequest>[] = [];
  const resumes: RecordedStream<ChatResumeRequest>[] = [];
  const stops: { conversationId: string; messageId: string }[] = [];
  const selects: { conversationId: string; messageId: string }[] = [];
  const creates: { agentId: string; source: string; title: string }[] = [];
  const persisted: DraftBook[] = [];
  const settled: (string | null)[] = [];
  const created: string[] = [];
  const actor = createActor(
    chatMachine.provide({
      actors: {
        loadConversation: fromPromise(options.load ?? (async () => ({ conversation: options.loaded ?? conversation(), messages: options.messages ?? stored() }))),
        createConversation: fromPromise(async ({ input }) => {
          creates.push(input);
          return (options.create ?? (async () => conversation({ conversationId: 'conv-new' })))();
        }),
        chatStream: recordedChatStream(streams),
        resumeStream: recordedChatStream(resumes),
        stopAnswer: fromPromise(async ({ input }) => {
          stops.push(input);
          return (options.stop ?? (async () => ({ ...message(input.messageId, 'assistant', 'Stored.'), status: 'incomplete' as const })))(input);
        }),
        selectVersion: fromPromise(async ({ input }) => {
          selects.push(input);
          return (options.select ?? (async () => [message('q', 'user', 'Which flour?'), message('a1', 'assistant', 'Spelt.', { siblingIds: ['a1', 'a2'] })]))(input);
        }),
      },
      actions: {
        exchangeSettled: (_, { conversationId }) => void settled.push(conversationId),
        conversationCreated: (_, { conversationId }) => void created.push(conversationId),
      },
    }),
    { input: options.input ?? { conversationId: 'conv-1' } },
  );
  // The drafts are kept as the app keeps them: by a subscription to the chat.
  const { hand } = keepDrafts(actor, (drafts) => void persisted.push(drafts));
  actor.start();
  const context = () => actor.getSnapshot().context;
  const keyOf = (serverId: string) => context().messages.find((m) => m.serverId === serverId)!.key;
  const last = () => context().messages.at(-1)!;
  const ask = (text: string) => {
    actor.send({ type: 'draft.change', text });
    actor.send({ type: 'send' });
  };
  const accept = (n: number, userMessageId: string, replyMessageId: string, patch: Partial<Extract<ChatStreamReport, { type: 'stream.accepted' }>> = {}) =>
    streams[n]!.report({ type: 'stream.accepted', conversationId: context().conversationId ?? 'conv-new', userMessageId, replyMessageId, ...patch });
  return { actor, hand, streams, resumes, stops, selects, creates, persisted, settled, created, context, keyOf, last, ask, accept };
};

export type Harness = ReturnType<typeof harness>;
type SettledState = 'idle' | 'done' | 'incomplete' | 'failed' | 'cancelled';

/**
 * conv-1 opened on "Which flour?" → "Rye." (two versions); for every state but `idle`, "More?"
 * asked, taken as q2 with its answer r2, which then ends that way.
 */
export const reach = async (state: SettledState): Promise<Harness> => {
  const h = harness();
  await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
  if (state === 'idle') return h;
  h.ask('More?');
  h.accept(0, 'q2', 'r2');
  h.streams[0]!.report({ type: 'stream.delta', text: 'Par' });
  if (state === 'done') h.streams[0]!.report({ type: 'stream.ended', messageIds: ['q', 'a2', 'q2', 'r2'] });
  if (state === 'incomplete') h.streams[0]!.report({ type: 'stream.failed', kind: 'malformed', message: 'Garbled' });
  if (state === 'failed') h.streams[0]!.report({ type: 'stream.failed', kind: 'agent-error', message: 'The agent failed' });
  if (state === 'cancelled') h.actor.send({ type: 'stop' });
  await waitFor(h.actor, (s) => s.matches(chatAt(state)));
  return h;
};

export const SETTLED: SettledState[] = ['idle', 'done', 'incomplete', 'failed', 'cancelled'];
export const AFTER_AN_EXCHANGE: SettledState[] = ['done', 'incomplete', 'failed', 'cancelled'];
