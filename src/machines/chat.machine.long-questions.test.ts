import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ChatEvent, ChatRequest } from '../contract/chat';
import { MESSAGE_TEXT_MAX } from '../contract/constants';
import { StreamError, type StreamFailureKind } from '../services/chat-stream';
import { conversation } from '../../tests/spa/chat-fixtures';
import { createChatStreamCall, type ChatTransport } from './chat-stream.actor';
import { chatMachine, type ChatInput } from './chat.machine';

type Call = { request: ChatRequest; emit: (event: ChatEvent) => void; fail: (kind: StreamFailureKind, message: string, status?: number) => void };

const setup = (input: ChatInput = {}) => {
  const calls: Call[] = [];
  const transport = vi.fn<ChatTransport>(
    (request, { onEvent }) =>
      new Promise<void>((_, reject) => {
        calls.push({ request, emit: onEvent, fail: (kind, message, status) => reject(new StreamError(kind, message, status)) });
      }),
  );
  const createConversation = vi.fn(async () => conversation({ conversationId: 'conv-new', title: 'yyyy' }));
  const conversationDiscarded = vi.fn<(id: string) => void>();
  const conversationCreated = vi.fn<(id: string) => void>();
  const actor = createActor(
    chatMachine.provide({
      actors: {
        chatStream: createChatStreamCall(transport, (flush) => (flush(), () => undefined)),
        createConversation: fromPromise(createConversation),
        loadConversation: fromPromise(async ({ input }) => ({ conversation: conversation({ conversationId: input.conversationId }), messages: [] })),
      },
      actions: {
        conversationCreated: (_, { conversationId }) => conversationCreated(conversationId),
        conversationDiscarded: (_, { conversationId }) => conversationDiscarded(conversationId),
      },
    }),
    { input },
  ).start();
  return { actor, calls, transport, createConversation, conversationCreated, conversationDiscarded };
};

describe('a question longer than the server takes', () => {
  it('is not sent at all: no conversation is created, the text stays in the box', () => {
    const { actor, transport, createConversation } = setup();
    const text = 'y'.repeat(MESSAGE_TEXT_MAX + 1);
    actor.send({ type: 'draft.change', text });
    actor.send({ type: 'send' });
    expect(createConversation).not.toHaveBeenCalled();
    expect(transport).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.draft).toBe(text);
    expect(actor.getSnapshot().matches({ settled: 'idle' })).toBe(true);
  });

  it('of exactly the limit goes', async () => {
    const { actor, calls } = setup();
    actor.send({ type: 'draft.change', text: 'y'.repeat(MESSAGE_TEXT_MAX) });
    actor.send({ type: 'send' });
    await waitFor(actor, () => calls.length === 1);
    expect(calls[0]!.request.text).toHaveLength(MESSAGE_TEXT_MAX);
  });
});

describe('a first question the server refuses', () => {
  it('leaves no empty chat behind: the conversation created for it is discarded and the chat is a new one, the question back in the box', async () => {
    const { actor, calls, conversationCreated, conversationDiscarded } = setup();
    actor.send({ type: 'draft.change', text: 'Plan my week' });
    actor.send({ type: 'send' });
    await waitFor(actor, () => calls.length === 1);
    expect(conversationCreated).toHaveBeenCalledWith('conv-new');
    calls[0]!.fail('rejected', 'Invalid request: text: Invalid length: Expected <=8000 but received 30000', 400);
    await waitFor(actor, (state) => state.matches({ settled: 'idle' }));
    expect(conversationDiscarded).toHaveBeenCalledWith('conv-new');
    const { context } = actor.getSnapshot();
    expect(context.conversationId).toBeNull();
    expect(context.messages).toEqual([]);
    expect(context.draft).toBe('Plan my week');
    expect(context.failure).toMatchObject({ kind: 'rejected' });

    // The next send starts a conversation of its own.
    actor.send({ type: 'send' });
    await waitFor(actor, () => calls.length === 2);
    expect(conversationCreated).toHaveBeenCalledTimes(2);
  });

  it('in a conversation that already holds an exchange keeps the conversation', async () => {
    const { actor, calls, conversationDiscarded } = setup();
    actor.send({ type: 'draft.change', text: 'First' });
    actor.send({ type: 'send' });
    await waitFor(actor, () => calls.length === 1);
    calls[0]!.emit({ type: 'start', conversationId: 'conv-new', userMessageId: 'u1', replyMessageId: 'a1' });
    calls[0]!.emit({ type: 'end', messageIds: ['u1', 'a1'] });
    await waitFor(actor, (state) => state.matches({ settled: 'done' }));
    actor.send({ type: 'draft.change', text: 'Second' });
    actor.send({ type: 'send' });
    await waitFor(actor, () => calls.length === 2);
    calls[1]!.fail('rejected', 'Invalid request', 400);
    await waitFor(actor, (state) => state.matches({ settled: 'idle' }));
    expect(conversationDiscarded).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.conversationId).toBe('conv-new');
    expect(actor.getSnapshot().context.draft).toBe('Second');
  });
});
