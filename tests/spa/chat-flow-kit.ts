import { expect, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { ChatEvent, ChatRequest, ChatResumeRequest } from '../../src/contract/chat';
import type { Conversation } from '../../src/contract/conversations';
import type { Message } from '../../src/contract/messages';
import { createChatStreamCall, type ChatTransport, type ResumeTransport } from '../../src/machines/chat-stream.actor';
import { chatMachine, type ChatInput, type LoadedConversation } from '../../src/machines/chat.machine';
import { StreamError, type StreamFailureKind } from '../../src/services/chat-stream';
import { conversation as storedConversation } from './chat-fixtures';

/** The harness of the chat machine's flow tests (src/machines/chat.machine.test.ts, .sending, .opening, .lost-acceptance, .sign-out): a fake transport the test answers for the server. */
export const conversation = (conversationId: string, sourceId = 'SpecialNoAgentFallback'): Conversation =>
  storedConversation({ conversationId, sourceId, title: 'Bakery plans' });

/** One call of the fake transport: the test plays the server's part through it. */
type StreamCall<Request = ChatRequest> = {
  request: Request;
  signal: AbortSignal;
  emit: (event: ChatEvent) => void;
  finish: () => void;
  fail: (kind: StreamFailureKind, message?: string) => void;
};

/** Flushes at once: every delta reaches the machine as it arrives. */
const immediateFrames = (flush: () => void) => {
  flush();
  return () => undefined;
};

type StopAnswer = (input: { conversationId: string; messageId: string }) => Promise<Message>;

export const setup = (
  options: {
    input?: ChatInput;
    frames?: (flush: () => void) => () => void;
    create?: () => Promise<Conversation>;
    load?: (id: string) => Promise<LoadedConversation>;
    stop?: StopAnswer;
    clock?: SimulatedClock;
  } = {},
) => {
  const calls: StreamCall[] = [];
  const resumeCalls: StreamCall<ChatResumeRequest>[] = [];
  const held = <Request,>(list: StreamCall<Request>[]) => (request: Request, { signal, onEvent }: { signal: AbortSignal; onEvent: (event: ChatEvent) => void }) =>
    new Promise<void>((resolve, reject) => {
      list.push({
        request,
        signal,
        emit: onEvent,
        finish: resolve,
        fail: (kind, message = '') => reject(new StreamError(kind, message)),
      });
    });
  const transport = vi.fn<ChatTransport>(held(calls));
  const resumeTransport = vi.fn<ResumeTransport>(held(resumeCalls));
  const stopAnswer = vi.fn<StopAnswer>(options.stop ?? (async () => Promise.reject(new Error('no stop call expected'))));
  const createConversation = vi.fn<(input: { agentId: string; title: string }) => Promise<Conversation>>(
    options.create ?? (async () => conversation('conv-new')),
  );
  const loadConversation = vi.fn<(id: string) => Promise<LoadedConversation>>(
    options.load ?? (async (id) => ({ conversation: conversation(id), messages: [] })),
  );
  const loadInputs: { conversationId: string; silent?: boolean }[] = [];
  const conversationCreated = vi.fn<(id: string) => void>();
  const exchangeSettled = vi.fn<(id: string | null) => void>();
  const actor = createActor(
    chatMachine.provide({
      actors: {
        chatStream: createChatStreamCall(transport, options.frames ?? immediateFrames),
        resumeStream: createChatStreamCall(resumeTransport, options.frames ?? immediateFrames),
        stopAnswer: fromPromise(({ input }) => stopAnswer(input)),
        createConversation: fromPromise(({ input }) => createConversation(input)),
        loadConversation: fromPromise(({ input }) => {
          loadInputs.push(input);
          return loadConversation(input.conversationId);
        }),
      },
      actions: {
        conversationCreated: (_, { conversationId }) => conversationCreated(conversationId),
        exchangeSettled: (_, { conversationId }) => exchangeSettled(conversationId),
      },
    }),
    { input: options.input ?? {}, ...(options.clock ? { clock: options.clock } : {}) },
  ).start();

  const ask = (text: string) => {
    actor.send({ type: 'draft.change', text });
    actor.send({ type: 'send' });
  };
  /** Waits for the stream call number n (0-based) to start. */
  const streamCall = async (n = 0): Promise<StreamCall> => {
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(n));
    return calls[n]!;
  };
  /** Waits for the resume call number n (0-based) to start. */
  const resumeCall = async (n = 0): Promise<StreamCall<ChatResumeRequest>> => {
    await vi.waitFor(() => expect(resumeCalls.length).toBeGreaterThan(n));
    return resumeCalls[n]!;
  };
  const context = () => actor.getSnapshot().context;
  const reply = () => context().messages.at(-1)!;
  const question = () => context().messages.at(-2)!;
  return {
    actor,
    ask,
    calls,
    context,
    conversationCreated,
    createConversation,
    exchangeSettled,
    loadConversation,
    loadInputs,
    question,
    reply,
    resumeCall,
    resumeTransport,
    stopAnswer,
    streamCall,
    transport,
  };
};

export const start = (call: StreamCall, ids = { userMessageId: 'm-user', replyMessageId: 'm-reply' }) =>
  call.emit({ type: 'start', conversationId: call.request.conversationId, ...ids });
