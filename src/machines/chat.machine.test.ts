import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import type { ChatEvent, ChatRequest, ChatResumeRequest } from '../contract/chat';
import type { Conversation } from '../contract/conversations';
import type { Message } from '../contract/messages';
import { StreamError, type StreamFailureKind } from '../services/chat-stream';
import { createChatStreamCall, type ChatTransport, type ResumeTransport } from './chat-stream.actor';
import {
  chatMachine,
  isAnswering,
  sameApartFromAnswerText,
  sameChatApartFromAnswerText,
  selectAnswerText,
  type ChatInput,
  type ChatMessage,
  type LoadedConversation,
} from './chat.machine';
import { chatAt, conversation as storedConversation } from '../../tests/spa/chat-fixtures';

const conversation = (conversationId: string, sourceId = 'SpecialNoAgentFallback'): Conversation =>
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

const setup = (
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

const start = (call: StreamCall, ids = { userMessageId: 'm-user', replyMessageId: 'm-reply' }) =>
  call.emit({ type: 'start', conversationId: call.request.conversationId, ...ids });

describe('the chat machine: sending', () => {
  it('creates a new conversation first, then streams the question into it', async () => {
    const { actor, ask, createConversation, conversationCreated, streamCall, context, transport } = setup();
    expect(actor.getSnapshot().matches(chatAt('idle'))).toBe(true);

    ask('What can you do for a small bakery?');

    expect(actor.getSnapshot().matches('creatingConversation')).toBe(true);
    expect(createConversation).toHaveBeenCalledWith({ agentId: 'SpecialNoAgentFallback', source: 'agent', title: 'What can you do for a small…' });
    const call = await streamCall();
    expect(actor.getSnapshot().matches('streaming')).toBe(true);
    expect(conversationCreated).toHaveBeenCalledWith('conv-new');
    expect(call.request).toEqual({
      conversationId: 'conv-new',
      agentId: 'SpecialNoAgentFallback',
      text: 'What can you do for a small bakery?',
      files: [],
    });
    expect(context().draft).toBe('');
    expect(context().messages.map((message) => [message.role, message.content, message.status])).toEqual([
      ['user', 'What can you do for a small bakery?', 'sending'],
      ['assistant', '', 'streaming'],
    ]);
    expect(transport).toHaveBeenCalledTimes(1);
  });

  it('keeps the first exchange when the address "/chat" that led from home is reported after the conversation was created', async () => {
    const { actor, ask, streamCall, context } = setup();
    const chatRoute = (conversationId: string | null) => ({ type: 'route.changed' as const, market: false, conversationId, agentId: null });

    ask('What can you do for a small bakery?');
    const call = await streamCall();
    // On a busy machine the chat page can report its first address only now.
    actor.send(chatRoute(null));
    expect(actor.getSnapshot().matches('streaming')).toBe(true);
    expect(call.signal.aborted).toBe(false);
    expect(context().messages.map((message) => message.role)).toEqual(['user', 'assistant']);

    // Once the address names the conversation, "/chat" is the new-chat button again.
    actor.send(chatRoute('conv-new'));
    expect(actor.getSnapshot().matches('streaming')).toBe(true);
    actor.send(chatRoute(null));
    expect(actor.getSnapshot().matches(chatAt('idle'))).toBe(true);
    expect(context().conversationId).toBeNull();
    expect(context().messages).toEqual([]);
  });

  it('does not create a conversation that already exists', async () => {
    const { ask, createConversation, streamCall, actor } = setup({ input: { conversationId: 'conv-7' } });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));

    ask('Again');

    const call = await streamCall();
    expect(call.request.conversationId).toBe('conv-7');
    expect(createConversation).not.toHaveBeenCalled();
  });

  it('asks a starter question only in a new chat with an agent and nothing typed', async () => {
    const { actor, streamCall, context } = setup();
    actor.send({ type: 'draft.change', text: 'my own words' });
    expect(actor.getSnapshot().can({ type: 'starter.ask', text: 'Explain a join' })).toBe(false);
    actor.send({ type: 'starter.ask', text: 'Explain a join' });
    expect(context().draft).toBe('my own words');
    actor.send({ type: 'draft.change', text: '  ' });
    actor.send({ type: 'conversation.new', agentId: 'flow-1', source: 'workflow' });
    expect(actor.getSnapshot().can({ type: 'starter.ask', text: 'Explain a join' })).toBe(false);
    actor.send({ type: 'conversation.new', agentId: 'SpecialNoAgentFallback', source: 'agent' });
    actor.send({ type: 'starter.ask', text: 'Explain a join' });
    expect((await streamCall()).request).toMatchObject({ text: 'Explain a join' });
    expect(context().draft).toBe('');
    expect(actor.getSnapshot().can({ type: 'starter.ask', text: 'Explain a join' })).toBe(false);
  });

  it('does not send an empty or blank draft', () => {
    const { actor, ask, transport, createConversation } = setup();
    ask('   ');
    expect(actor.getSnapshot().matches(chatAt('idle'))).toBe(true);
    expect(transport).not.toHaveBeenCalled();
    expect(createConversation).not.toHaveBeenCalled();
  });

  it('tells the screen which changes are only an answer\'s growing text', async () => {
    const { actor, ask, streamCall, reply } = setup();
    ask('Hi');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Hel' });
    const before = actor.getSnapshot();
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'lo' });
    const after = actor.getSnapshot();
    expect(after).not.toBe(before);
    expect(sameApartFromAnswerText(before.context.messages, after.context.messages)).toBe(true);
    expect(sameChatApartFromAnswerText(before, after)).toBe(true);
    // The answer reads its own text from the chat: the newest.
    expect(selectAnswerText(reply().key)(after)).toBe('Hello');
    expect(selectAnswerText('no-such-message')(after)).toBeUndefined();

    // Its end is not only text: the screen shows it.
    call.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    call.finish();
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    const ended = actor.getSnapshot();
    expect(sameApartFromAnswerText(after.context.messages, ended.context.messages)).toBe(false);
    expect(sameChatApartFromAnswerText(after, ended)).toBe(false);
    expect(sameChatApartFromAnswerText(ended, ended)).toBe(true);
  });

  it('counts as the same only the text of answers being written, nothing else', () => {
    const question: ChatMessage = { key: 'q', serverId: 'u', role: 'user', content: 'Hi', status: 'complete', files: [], error: null, siblingIds: ['u'], sentAt: null };
    const answer: ChatMessage = { ...question, key: 'a', serverId: 'r', role: 'assistant', content: 'Hel', status: 'streaming', siblingIds: ['r'] };
    const list = [question, answer];
    expect(sameApartFromAnswerText(list, list)).toBe(true);
    expect(sameApartFromAnswerText(list, [question, { ...answer, content: 'Hello' }])).toBe(true);
    // A written message's text, another field, a field added, a message more: each is a change.
    expect(sameApartFromAnswerText(list, [{ ...question, content: 'Hey' }, answer])).toBe(false);
    expect(sameApartFromAnswerText(list, [question, { ...answer, content: 'Hello', status: 'complete' }])).toBe(false);
    expect(sameApartFromAnswerText(list, [question, { ...answer, error: 'lost' }])).toBe(false);
    expect(sameApartFromAnswerText(list, [question, { ...answer, usage: { promptTokens: 1, completionTokens: 2 } }])).toBe(false);
    expect(sameApartFromAnswerText(list, [question])).toBe(false);
    expect(sameApartFromAnswerText([question, { ...answer, status: 'complete' }], [question, { ...answer, status: 'complete', content: 'Hello' }])).toBe(false);
  });

  it('appends the answer as it streams, and finishes with the message ids', async () => {
    const { actor, ask, streamCall, reply, question, context, exchangeSettled } = setup();
    ask('Hi');
    const call = await streamCall();

    start(call);
    expect(question()).toMatchObject({ serverId: 'm-user', status: 'complete' });
    expect(reply()).toMatchObject({ serverId: 'm-reply', status: 'streaming' });

    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Hel' });
    expect(reply().content).toBe('Hel');
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'lo' });
    expect(reply().content).toBe('Hello');
    call.emit({ type: 'delta', messageId: 'm-reply', text: '!' });
    expect(reply().content).toBe('Hello!');

    call.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    call.finish();

    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(reply()).toMatchObject({ content: 'Hello!', status: 'complete' });
    expect(context().messageIds).toEqual(['m-user', 'm-reply']);
    expect(exchangeSettled).toHaveBeenCalledWith('conv-new');
  });

  it('hands deltas on once per frame, however many arrive', async () => {
    const frames: Array<() => void> = [];
    const { actor, ask, streamCall, reply } = setup({
      frames: (flush) => {
        frames.push(flush);
        return () => frames.splice(frames.indexOf(flush), 1);
      },
    });
    ask('Hi');
    const call = await streamCall();
    start(call);

    for (const text of ['a', 'b', 'c', 'd']) call.emit({ type: 'delta', messageId: 'm-reply', text });
    expect(reply().content).toBe('');
    expect(frames).toHaveLength(1);

    frames.shift()!();
    expect(reply().content).toBe('abcd');

    call.emit({ type: 'delta', messageId: 'm-reply', text: 'e' });
    // the end event flushes what is left without waiting for a frame
    call.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(reply()).toMatchObject({ content: 'abcde', status: 'complete' });
  });

  it('calls the transport exactly once per send', async () => {
    const { actor, ask, streamCall, transport } = setup();
    ask('One');
    const first = await streamCall(0);
    start(first);
    first.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    first.finish();
    await waitFor(actor, (state) => state.matches(chatAt('done')));

    ask('Two');
    const second = await streamCall(1);
    expect(second.request).toMatchObject({ conversationId: 'conv-new', text: 'Two' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(transport).toHaveBeenCalledTimes(2);
  });
});

describe('the chat machine: failures', () => {
  it.each(['rejected', 'network'] as const)(
    'puts the question back in the box when the server never accepted it (%s)',
    async (kind) => {
      const { actor, ask, streamCall, context } = setup();
      ask('Keep me');
      const call = await streamCall();

      call.fail(kind, kind === 'rejected' ? 'Too many questions today' : '');
      await waitFor(actor, (state) => state.matches(chatAt('idle')));

      expect(context().draft).toBe('Keep me');
      expect(context().messages).toEqual([]);
      expect(context().failure).toEqual({ kind, message: kind === 'rejected' ? 'Too many questions today' : '' });
    },
  );

  it('keeps what was typed meanwhile after the returned question', async () => {
    const { actor, ask, streamCall, context } = setup();
    ask('First question');
    const call = await streamCall();
    actor.send({ type: 'draft.change', text: 'a follow-up' });

    call.fail('network');
    await waitFor(actor, (state) => state.matches(chatAt('idle')));

    expect(context().draft).toBe('First question\na follow-up');
  });

  it('puts the question back when the conversation cannot be created', async () => {
    const { actor, ask, context, transport } = setup({ create: async () => Promise.reject(new Error('No agent')) });
    ask('Hello?');
    await waitFor(actor, (state) => state.matches(chatAt('idle')) && state.context.failure !== null);

    expect(context().draft).toBe('Hello?');
    expect(context().messages).toEqual([]);
    expect(context().failure).toEqual({ kind: 'create', message: 'No agent' });
    expect(transport).not.toHaveBeenCalled();
  });

  it('reads the answer again from the text shown when the stream breaks after the start, without asking again', async () => {
    const { actor, ask, streamCall, resumeCall, reply, question, context, transport } = setup();
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once upon a' });

    call.fail('incomplete');
    const resume = await resumeCall();
    expect(actor.getSnapshot().matches('resuming')).toBe(true);
    expect(resume.request).toEqual({ conversationId: 'conv-new', messageId: 'm-reply', offset: 11 });
    resume.emit({ type: 'resume', messageId: 'm-reply', offset: 11 });
    resume.emit({ type: 'delta', messageId: 'm-reply', text: ' time.' });
    resume.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));

    expect(question()).toMatchObject({ content: 'Tell me a story', serverId: 'm-user' });
    expect(reply()).toMatchObject({ content: 'Once upon a time.', status: 'complete' });
    expect(context().draft).toBe('');
    expect(transport).toHaveBeenCalledTimes(1);
  });

  it('keeps what the server stored when the answer was stopped elsewhere, cutting what it never stored', async () => {
    const { actor, ask, streamCall, resumeCall, reply } = setup();
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once upon a' });
    call.fail('incomplete');
    const resume = await resumeCall();
    // The server lost its last unsaved second: it has only "Once upon".
    resume.emit({ type: 'resume', messageId: 'm-reply', offset: 9 });
    resume.emit({ type: 'incomplete', messageId: 'm-reply' });
    await waitFor(actor, (state) => state.matches(chatAt('incomplete')));
    expect(reply()).toMatchObject({ content: 'Once upon', status: 'incomplete', error: null });
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(true);
  });

  it('waits for the connection when the answer cannot be read again, then reads it from where it was', async () => {
    const { actor, ask, streamCall, resumeCall, reply } = setup();
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once' });
    call.fail('network');
    (await resumeCall(0)).fail('network');
    await waitFor(actor, (state) => state.matches('detached'));
    expect(reply()).toMatchObject({ content: 'Once', status: 'incomplete' });

    actor.send({ type: 'connection.restored' });
    const again = await resumeCall(1);
    expect(again.request.offset).toBe(4);
    expect(reply().status).toBe('streaming');
    again.emit({ type: 'resume', messageId: 'm-reply', offset: 4 });
    again.emit({ type: 'delta', messageId: 'm-reply', text: ' upon a time.' });
    again.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(reply()).toMatchObject({ content: 'Once upon a time.', status: 'complete' });
  });

  it('reads a detached answer again by itself, waiting longer each time up to a bound, and never asks again', async () => {
    const clock = new SimulatedClock();
    const { actor, ask, streamCall, resumeCall, reply, transport } = setup({ clock });
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once' });
    // The server restarts: the stream breaks, and so does reading it again.
    call.fail('network');
    (await resumeCall(0)).fail('network');
    await waitFor(actor, (state) => state.matches('detached'));

    let resumes = 1;
    for (const wait of [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]) {
      clock.increment(wait - 1);
      expect(actor.getSnapshot().matches('detached')).toBe(true);
      clock.increment(1);
      const again = await resumeCall(resumes);
      expect(again.request).toMatchObject({ messageId: 'm-reply', offset: 4 });
      resumes += 1;
      again.fail('network');
      await waitFor(actor, (state) => state.matches('detached'));
    }

    // The server answers, but nobody writes the answer any more (left by the server that stopped):
    // no new text, so the waits stay long.
    clock.increment(30_000);
    const orphaned = await resumeCall(resumes);
    resumes += 1;
    orphaned.emit({ type: 'resume', messageId: 'm-reply', offset: 4 });
    orphaned.fail('incomplete');
    await waitFor(actor, (state) => state.matches('detached'));
    clock.increment(29_999);
    expect(actor.getSnapshot().matches('detached')).toBe(true);

    // The answer is written again: it goes on from where it was; a later loss waits 1 s again.
    clock.increment(1);
    const back = await resumeCall(resumes);
    back.emit({ type: 'resume', messageId: 'm-reply', offset: 4 });
    back.emit({ type: 'delta', messageId: 'm-reply', text: ' upon' });
    back.fail('incomplete');
    await waitFor(actor, (state) => state.matches('detached'));
    clock.increment(999);
    expect(actor.getSnapshot().matches('detached')).toBe(true);
    clock.increment(1);
    const last = await resumeCall(resumes + 1);
    expect(last.request.offset).toBe('Once upon'.length);
    last.emit({ type: 'resume', messageId: 'm-reply', offset: 9 });
    last.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(reply()).toMatchObject({ content: 'Once upon', status: 'complete' });
    expect(transport).toHaveBeenCalledTimes(1);
  });

  it('marks the answer failed with the agent message when the agent errs after the start', async () => {
    const { actor, ask, streamCall, reply, context } = setup();
    ask('Hi');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Let me' });
    call.emit({ type: 'error', msg: 'The model is overloaded' });

    call.fail('agent-error', 'The model is overloaded');
    await waitFor(actor, (state) => state.matches(chatAt('failed')));

    expect(reply()).toMatchObject({ content: 'Let me', status: 'failed', error: 'The model is overloaded' });
    expect(context().failure).toEqual({ kind: 'agent-error', message: 'The model is overloaded' });
  });

  it('stop asks the server to stop, and shows exactly the text it stored', async () => {
    const stored: Message = { messageId: 'm-reply', conversationId: 'conv-new', role: 'assistant', content: '1, 2, 3, 4', status: 'incomplete', files: [], createdAt: '2025-01-01T00:00:00.000Z' };
    const { actor, ask, streamCall, reply, exchangeSettled, stopAnswer } = setup({ stop: async () => stored });
    ask('Count to a million');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: '1, 2, 3' });

    actor.send({ type: 'stop' });
    expect(actor.getSnapshot().matches('stopping')).toBe(true);
    expect(stopAnswer).toHaveBeenCalledWith({ conversationId: 'conv-new', messageId: 'm-reply' });
    await waitFor(actor, (state) => state.matches(chatAt('cancelled')));
    expect(call.signal.aborted).toBe(true);
    expect(reply()).toMatchObject({ content: '1, 2, 3, 4', status: 'incomplete', error: null });
    expect(exchangeSettled).toHaveBeenCalled();

    // what the transport says after the stop changes nothing
    call.emit({ type: 'delta', messageId: 'm-reply', text: ', 5' });
    call.finish();
    expect(reply().content).toBe('1, 2, 3, 4');
  });

  it('a stop pressed before the server took the question stops the answer as soon as it has one', async () => {
    const stored: Message = { messageId: 'm-reply', conversationId: 'conv-new', role: 'assistant', content: '', status: 'incomplete', files: [], createdAt: '2025-01-01T00:00:00.000Z' };
    const { actor, ask, streamCall, stopAnswer, reply } = setup({ stop: async () => stored });
    ask('Count');
    const call = await streamCall();
    actor.send({ type: 'stop' });
    expect(actor.getSnapshot().matches('streaming')).toBe(true);
    expect(stopAnswer).not.toHaveBeenCalled();
    start(call);
    expect(stopAnswer).toHaveBeenCalledWith({ conversationId: 'conv-new', messageId: 'm-reply' });
    await waitFor(actor, (state) => state.matches(chatAt('cancelled')));
    expect(reply()).toMatchObject({ content: '', status: 'incomplete' });
  });

  it('keeps the text shown when the stop call fails', async () => {
    const { actor, ask, streamCall, reply } = setup({ stop: async () => Promise.reject(new Error('offline')) });
    ask('Count');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: '1, 2' });
    actor.send({ type: 'stop' });
    await waitFor(actor, (state) => state.matches(chatAt('cancelled')));
    expect(reply()).toMatchObject({ content: '1, 2', status: 'incomplete' });
  });
});

describe('the chat machine: retry', () => {
  it('answers the stored question again after an incomplete answer, without sending its text', async () => {
    const { actor, ask, streamCall, reply, context, transport } = setup();
    ask('Tell me a story');
    const first = await streamCall(0);
    start(first);
    first.emit({ type: 'delta', messageId: 'm-reply', text: 'Once' });
    first.fail('malformed');
    await waitFor(actor, (state) => state.matches(chatAt('incomplete')));

    actor.send({ type: 'retry' });

    const second = await streamCall(1);
    expect(second.request).toEqual({ conversationId: 'conv-new', agentId: 'SpecialNoAgentFallback', retryMessageId: 'm-user' });
    expect(second.request).not.toHaveProperty('text');
    expect(actor.getSnapshot().matches('streaming')).toBe(true);
    expect(context().messages).toHaveLength(2);
    expect(reply()).toMatchObject({ content: '', status: 'streaming' });

    start(second, { userMessageId: 'm-user', replyMessageId: 'm-reply-2' });
    second.emit({ type: 'delta', messageId: 'm-reply-2', text: 'Once upon a time.' });
    second.emit({ type: 'end', messageIds: ['m-user', 'm-reply-2'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(reply()).toMatchObject({ content: 'Once upon a time.', status: 'complete' });
    expect(transport).toHaveBeenCalledTimes(2);
  });

  it('puts the earlier partial answer back when the server refuses the retry', async () => {
    const { actor, ask, streamCall, reply } = setup();
    ask('Tell me a story');
    const first = await streamCall(0);
    start(first);
    first.emit({ type: 'delta', messageId: 'm-reply', text: 'Once upon' });
    first.fail('malformed');
    await waitFor(actor, (state) => state.matches(chatAt('incomplete')));

    actor.send({ type: 'retry' });
    const second = await streamCall(1);
    second.fail('rejected', 'Too many requests, try again in a minute.');
    await waitFor(actor, (state) => state.matches(chatAt('incomplete')));

    expect(reply()).toMatchObject({ content: 'Once upon', status: 'incomplete', error: 'Too many requests, try again in a minute.' });
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(true);
  });

  it('can retry a failed or stopped answer too, but not a question the server never took', async () => {
    const { actor, ask, streamCall } = setup({ stop: async () => Promise.reject(new Error('offline')) });
    ask('Hi');
    const first = await streamCall(0);
    first.fail('rejected', 'nope');
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(false);

    actor.send({ type: 'send' });
    const second = await streamCall(1);
    start(second);
    actor.send({ type: 'stop' });
    await waitFor(actor, (state) => state.matches(chatAt('cancelled')));
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(true);
  });
});

describe('the chat machine: another person at the browser', () => {
  it('forgets an answer being streamed when the person signs out: nothing of it stays, and it is no longer read, not stopped', async () => {
    const { actor, ask, streamCall, context, stopAnswer, exchangeSettled } = setup();
    ask('What is my bank password hint?');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Your hint is' });
    actor.send({ type: 'draft.change', text: 'and my PIN?' });

    actor.send({ type: 'session.changed', drafts: {} });

    expect(actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(isAnswering(actor.getSnapshot())).toBe(false);
    expect(context()).toMatchObject({ conversationId: null, messages: [], draft: '', drafts: {}, attachments: [], outgoing: null, replyKey: null });
    // the page stops reading; the answer goes on on the server, for its owner to find
    expect(call.signal.aborted).toBe(true);
    expect(stopAnswer).not.toHaveBeenCalled();
    call.emit({ type: 'delta', messageId: 'm-reply', text: ' the name of your cat' });
    expect(context().messages).toEqual([]);
    expect(exchangeSettled).not.toHaveBeenCalled();
  });

  it('forgets an answer being read again, and stops reading it', async () => {
    const { actor, ask, streamCall, resumeCall, context, stopAnswer } = setup();
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once' });
    call.fail('incomplete');
    const resume = await resumeCall();

    actor.send({ type: 'session.changed', drafts: {} });

    expect(resume.signal.aborted).toBe(true);
    expect(stopAnswer).not.toHaveBeenCalled();
    expect(context()).toMatchObject({ conversationId: null, messages: [] });
  });

  it("gives the newcomer their own drafts, never the text the person before left in the box", async () => {
    const { actor, context } = setup({ input: { conversationId: 'conv-3' } });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    actor.send({ type: 'draft.change', text: "Ada's unsent words" });
    const theirs = { 'new:SpecialNoAgentFallback': { text: "Grace's own", at: 1 } };

    actor.send({ type: 'session.changed', drafts: theirs });
    expect(context()).toMatchObject({ conversationId: null, agentId: 'SpecialNoAgentFallback', draft: "Grace's own", drafts: theirs });
    actor.send({ type: 'conversation.open', conversationId: 'conv-3' });
    expect(context().draft).toBe('');
  });
});

describe('the chat machine: opening a conversation', () => {
  const history: Message[] = [
    { messageId: 'a', conversationId: 'conv-9', role: 'user', content: 'Hello', status: 'complete', files: [], createdAt: '2025-01-01T00:00:00.000Z' },
    { messageId: 'b', conversationId: 'conv-9', role: 'assistant', content: 'Hi the', status: 'incomplete', files: [], createdAt: '2025-01-01T00:00:01.000Z' },
  ];
  const streaming: Message[] = [history[0]!, { ...history[1]!, status: 'streaming' }];

  it('attaches to an answer still being written: reads it from the text loaded, then live', async () => {
    const { actor, resumeCall, context, transport } = setup({ load: async (id) => ({ conversation: conversation(id), messages: streaming }) });
    actor.send({ type: 'conversation.open', conversationId: 'conv-9' });
    const resume = await resumeCall();
    expect(actor.getSnapshot().matches('resuming')).toBe(true);
    expect(resume.request).toEqual({ conversationId: 'conv-9', messageId: 'b', offset: 6 });
    expect(context().messages.at(-1)).toMatchObject({ content: 'Hi the', status: 'streaming' });
    expect(actor.getSnapshot().can({ type: 'stop' })).toBe(true);
    resume.emit({ type: 'resume', messageId: 'b', offset: 6 });
    resume.emit({ type: 'delta', messageId: 'b', text: 're.' });
    resume.emit({ type: 'end', messageIds: ['a', 'b'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(context().messages.at(-1)).toMatchObject({ content: 'Hi there.', status: 'complete' });
    expect(transport).not.toHaveBeenCalled();
  });

  it('leaving a conversation while it answers detaches without stopping the answer', async () => {
    const { actor, resumeCall, stopAnswer } = setup({ load: async (id) => ({ conversation: conversation(id), messages: id === 'conv-9' ? streaming : [] }) });
    actor.send({ type: 'conversation.open', conversationId: 'conv-9' });
    const resume = await resumeCall();
    actor.send({ type: 'conversation.open', conversationId: 'conv-2' });
    expect(resume.signal.aborted).toBe(true);
    expect(stopAnswer).not.toHaveBeenCalled();
  });

  it('loads the history, marking an answer cut off mid-stream as incomplete', async () => {
    const { actor, loadConversation, context } = setup({
      load: async (id) => ({ conversation: conversation(id, 'writer-agent'), messages: history }),
    });

    actor.send({ type: 'conversation.open', conversationId: 'conv-9' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    await waitFor(actor, (state) => state.matches(chatAt('idle')));

    expect(loadConversation).toHaveBeenCalledWith('conv-9');
    expect(context()).toMatchObject({ conversationId: 'conv-9', agentId: 'writer-agent' });
    expect(context().messages.map((message) => [message.serverId, message.content, message.status])).toEqual([
      ['a', 'Hello', 'complete'],
      ['b', 'Hi the', 'incomplete'],
    ]);
  });

  it('marks an older answer left streaming as incomplete: only the last can still be written', async () => {
    const older: Message[] = [...streaming, { ...history[0]!, messageId: 'c' }, { ...history[1]!, messageId: 'd', status: 'complete' }];
    const { actor, context } = setup({ load: async (id) => ({ conversation: conversation(id), messages: older }) });
    actor.send({ type: 'conversation.open', conversationId: 'conv-9' });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    expect(context().messages.map((message) => message.status)).toEqual(['complete', 'incomplete', 'complete', 'complete']);
  });

  it('offers the retry of an answer cut short before the page opened, and answers the stored question again', async () => {
    const { actor, streamCall, context } = setup({
      load: async (id) => ({ conversation: conversation(id), messages: history }),
    });
    actor.send({ type: 'conversation.open', conversationId: 'conv-9' });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(true);
    actor.send({ type: 'retry' });
    const call = await streamCall();
    expect(call.request).toMatchObject({ conversationId: 'conv-9', retryMessageId: 'a' });
    expect(call.request.text ?? '').toBe('');
    expect(context().messages.at(-1)).toMatchObject({ content: '', status: 'streaming' });
  });

  it('offers no retry when the conversation opens on a finished answer', async () => {
    const finished: Message[] = [history[0]!, { ...history[1]!, content: 'Hi there.', status: 'complete' }];
    const { actor } = setup({ load: async (id) => ({ conversation: conversation(id), messages: finished }) });
    actor.send({ type: 'conversation.open', conversationId: 'conv-9' });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(false);
  });

  it('offers a reload when the history cannot be loaded', async () => {
    let fails = true;
    const { actor, loadConversation } = setup({
      load: async (id) => {
        if (fails) throw new Error('gone');
        return { conversation: conversation(id), messages: history };
      },
    });
    actor.send({ type: 'conversation.open', conversationId: 'conv-9' });
    await waitFor(actor, (state) => state.matches('loadFailed'));
    expect(actor.getSnapshot().context.failure?.kind).toBe('load');

    fails = false;
    actor.send({ type: 'reload' });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    expect(loadConversation).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.messages).toHaveLength(2);
  });

  it('starts on the conversation given as input', async () => {
    const { actor, loadConversation } = setup({ input: { conversationId: 'conv-3' } });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    expect(loadConversation).toHaveBeenCalledWith('conv-3');
  });

  it("a new conversation forgets the open one, and its draft stays with it", async () => {
    const { actor, context } = setup({ input: { conversationId: 'conv-3' } });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    actor.send({ type: 'draft.change', text: 'half-typed' });

    actor.send({ type: 'conversation.new', agentId: 'writer-agent' });
    expect(context()).toMatchObject({ conversationId: null, agentId: 'writer-agent', messages: [], draft: '' });

    actor.send({ type: 'conversation.open', conversationId: 'conv-3' });
    expect(context().draft).toBe('half-typed');
  });
  describe('the address', () => {
    const route = (conversationId: string | null, agentId: string | null = null, market = false) =>
      ({ type: 'route.changed', market, conversationId, agentId }) as const;

    it('opens the stored conversation it names, once', async () => {
      const { actor, loadConversation } = setup();
      actor.send(route('conv-9'));
      await waitFor(actor, (state) => state.matches(chatAt('idle')));
      actor.send(route('conv-9'));
      expect(actor.getSnapshot().matches(chatAt('idle'))).toBe(true);
      expect(loadConversation).toHaveBeenCalledTimes(1);
    });

    it('starts a new chat with the agent of a link, and on "/chat" after a conversation was open', async () => {
      const { actor, context } = setup({ input: { conversationId: 'conv-3' } });
      await waitFor(actor, (state) => state.matches(chatAt('idle')));
      actor.send({ type: 'draft.change', text: 'half-typed' });

      actor.send(route(null));
      expect(context()).toMatchObject({ conversationId: null, messages: [], draft: '' });

      actor.send(route(null, 'writer-agent'));
      expect(context()).toMatchObject({ conversationId: null, agentId: 'writer-agent' });
    });

    it('keeps the first question from home while its conversation is being created', async () => {
      let create!: (value: Conversation) => void;
      const { actor, context } = setup({ create: () => new Promise((resolve) => (create = resolve)) });
      actor.send({ type: 'draft.change', text: 'From home' });
      actor.send({ type: 'send' });
      actor.send(route(null));
      expect(actor.getSnapshot().matches('creatingConversation')).toBe(true);
      create(conversation('conv-new'));
      await waitFor(actor, (state) => state.matches('streaming'));
      expect(context().messages.map((message) => message.content)).toEqual(['From home', '']);
    });

    it('leaves the open conversation as it is while the agents market shows', async () => {
      const { actor, context } = setup({ input: { conversationId: 'conv-3' } });
      await waitFor(actor, (state) => state.matches(chatAt('idle')));
      actor.send(route(null, 'writer-agent', true));
      expect(context().conversationId).toBe('conv-3');
      expect(actor.getSnapshot().matches(chatAt('idle'))).toBe(true);
    });
  });
});

describe('the chat machine: a question whose acceptance was lost', () => {
  const storedMessage = (messageId: string, role: Message['role'], content: string, patch: Partial<Message> = {}): Message => ({
    messageId,
    conversationId: 'conv-new',
    role,
    content,
    status: 'complete',
    files: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    ...patch,
  });
  const stored = (...messages: Message[]) => async (id: string) => ({ conversation: conversation(id), messages });

  it('finds the question in the conversation and reads its answer live from the stored text, never giving it back', async () => {
    const { actor, ask, streamCall, resumeCall, context, transport, loadConversation } = setup({
      load: stored(storedMessage('q-1', 'user', 'Tell me about rye'), storedMessage('a-1', 'assistant', 'Rye is a', { status: 'streaming' })),
    });
    ask('  Tell me about rye ');
    const call = await streamCall();
    call.fail('incomplete');

    const resume = await resumeCall();
    expect(loadConversation).toHaveBeenCalledWith('conv-new');
    expect(resume.request).toEqual({ conversationId: 'conv-new', messageId: 'a-1', offset: 'Rye is a'.length });
    expect(actor.getSnapshot().value).toBe('resuming');
    expect(context().draft).toBe('');
    expect(context().failure).toBeNull();
    expect(context().messages.map((m) => [m.serverId, m.content, m.status])).toEqual([
      ['q-1', 'Tell me about rye', 'complete'],
      ['a-1', 'Rye is a', 'streaming'],
    ]);

    resume.emit({ type: 'resume', messageId: 'a-1', offset: 8 });
    resume.emit({ type: 'delta', messageId: 'a-1', text: ' grain.' });
    resume.emit({ type: 'end', messageIds: ['q-1', 'a-1'] });
    resume.finish();
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(context().messages.at(-1)).toMatchObject({ content: 'Rye is a grain.', status: 'complete' });
    expect(transport).toHaveBeenCalledTimes(1);
  });

  it('shows an answer already finished meanwhile, and says the exchange settled', async () => {
    const { actor, ask, streamCall, context, exchangeSettled, resumeTransport } = setup({
      load: stored(storedMessage('q-1', 'user', 'Tell me about rye'), storedMessage('a-1', 'assistant', 'Rye is a grain.')),
    });
    ask('Tell me about rye');
    (await streamCall()).fail('network');

    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(context().messages.map((m) => [m.serverId, m.status])).toEqual([
      ['q-1', 'complete'],
      ['a-1', 'complete'],
    ]);
    expect(context().draft).toBe('');
    expect(exchangeSettled).toHaveBeenCalledWith('conv-new');
    expect(resumeTransport).not.toHaveBeenCalled();
  });

  it.each([
    ['failed', 'failed'],
    ['incomplete', 'incomplete'],
  ] as const)('shows an answer that %s meanwhile as it is stored, with its retry', async (status, state) => {
    const { actor, ask, streamCall, context } = setup({
      load: stored(storedMessage('q-1', 'user', 'Tell me about rye'), storedMessage('a-1', 'assistant', 'Rye', { status, error: status === 'failed' ? 'Overloaded' : undefined })),
    });
    ask('Tell me about rye');
    (await streamCall()).fail('incomplete');

    await waitFor(actor, (snapshot) => snapshot.matches(chatAt(state)));
    expect(context().messages.at(-1)).toMatchObject({ serverId: 'a-1', content: 'Rye', status });
    actor.send({ type: 'retry' });
    expect(actor.getSnapshot().value).toBe('streaming');
  });

  it('looks after the messages the page showed: a question asked in a conversation is found after them', async () => {
    const earlier = [storedMessage('q-0', 'user', 'Hello'), storedMessage('a-0', 'assistant', 'Hi!')];
    let messages = earlier;
    const { actor, ask, streamCall, resumeCall, context, transport } = setup({ input: { conversationId: 'conv-new' }, load: async (id) => ({ conversation: conversation(id), messages }) });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    messages = [...earlier, storedMessage('q-1', 'user', 'And rye?'), storedMessage('a-1', 'assistant', '', { status: 'streaming' })];
    ask('And rye?');
    (await streamCall()).fail('incomplete');

    expect((await resumeCall()).request).toEqual({ conversationId: 'conv-new', messageId: 'a-1', offset: 0 });
    expect(context().messages.map((m) => m.serverId)).toEqual(['q-0', 'a-0', 'q-1', 'a-1']);
    expect(transport).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['the conversation holds nothing after what the page showed', [storedMessage('q-0', 'user', 'Hello'), storedMessage('a-0', 'assistant', 'Hi!')]],
    [
      'another question follows what the page showed',
      [storedMessage('q-0', 'user', 'Hello'), storedMessage('a-0', 'assistant', 'Hi!'), storedMessage('q-9', 'user', 'Something else'), storedMessage('a-9', 'assistant', 'Else.')],
    ],
    [
      'the same words follow other messages than the page showed',
      [storedMessage('q-7', 'user', 'Hello'), storedMessage('a-7', 'assistant', 'Hey'), storedMessage('q-8', 'user', 'Hello'), storedMessage('a-8', 'assistant', 'Hi!')],
    ],
    [
      'the same words carry other attachments',
      [
        storedMessage('q-0', 'user', 'Hello'),
        storedMessage('a-0', 'assistant', 'Hi!'),
        storedMessage('q-1', 'user', 'Hello', { files: [{ fileId: 'f-9', name: 'x.png', url: '/api/media/file/f-9', kind: 'image', mimeType: 'image/png', size: 1 }] }),
        storedMessage('a-1', 'assistant', 'Nice.'),
      ],
    ],
  ])('gives the question back when it is not there: %s', async (_case, after) => {
    const earlier = [storedMessage('q-0', 'user', 'Hello'), storedMessage('a-0', 'assistant', 'Hi!')];
    let messages = earlier;
    const { actor, ask, streamCall, context, loadConversation } = setup({ input: { conversationId: 'conv-new' }, load: async (id) => ({ conversation: conversation(id), messages }) });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    messages = after;
    ask('Hello');
    (await streamCall()).fail('network');

    await waitFor(actor, (state) => state.matches(chatAt('idle')) && state.context.failure !== null);
    expect(loadConversation).toHaveBeenCalledTimes(2);
    expect(context().draft).toBe('Hello');
    expect(context().messages.map((m) => m.serverId)).toEqual(['q-0', 'a-0']);
    expect(context().failure).toEqual({ kind: 'network', message: '' });
  });

  it('looks silently: a failure to read the conversation is the chat\'s to say, not a notice of its own', async () => {
    const { actor, ask, streamCall, loadInputs } = setup({ input: { conversationId: 'conv-1' }, load: stored() });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    expect(loadInputs).toEqual([{ conversationId: 'conv-1' }]);
    ask('Keep me');
    (await streamCall()).fail('network');
    await waitFor(actor, (state) => state.matches(chatAt('idle')) && state.context.failure !== null);
    expect(loadInputs).toEqual([{ conversationId: 'conv-1' }, { conversationId: 'conv-1', silent: true }]);
  });

  it('gives the question back, with how the connection broke, when the conversation cannot be read', async () => {
    const { actor, ask, streamCall, context } = setup({ load: async () => Promise.reject(new Error('down')) });
    ask('Keep me');
    (await streamCall()).fail('incomplete');

    await waitFor(actor, (state) => state.matches(chatAt('idle')) && state.context.failure !== null);
    expect(context().draft).toBe('Keep me');
    expect(context().messages).toEqual([]);
    expect(context().failure).toEqual({ kind: 'incomplete', message: '' });
  });

  it('does not look when the server refused the question: a refusal stored nothing', async () => {
    const { actor, ask, streamCall, loadConversation } = setup();
    ask('Keep me');
    (await streamCall()).fail('rejected', 'No');
    await waitFor(actor, (state) => state.matches(chatAt('idle')) && state.context.failure !== null);
    expect(loadConversation).not.toHaveBeenCalled();
  });

  it('is answering while it looks: Stop then stops the answer it finds', async () => {
    let found!: (loaded: LoadedConversation) => void;
    const { actor, ask, streamCall, stopAnswer } = setup({
      load: () => new Promise((resolve) => (found = resolve)),
      stop: async ({ messageId }) => storedMessage(messageId, 'assistant', 'Rye', { status: 'incomplete' }),
    });
    ask('Tell me about rye');
    (await streamCall()).fail('incomplete');
    await waitFor(actor, (state) => state.matches('confirming'));
    expect(isAnswering(actor.getSnapshot())).toBe(true);

    actor.send({ type: 'stop' });
    found({
      conversation: conversation('conv-new'),
      messages: [storedMessage('q-1', 'user', 'Tell me about rye'), storedMessage('a-1', 'assistant', 'Ry', { status: 'streaming' })],
    });
    await waitFor(actor, (state) => state.matches(chatAt('cancelled')));
    expect(stopAnswer).toHaveBeenCalledWith({ conversationId: 'conv-new', messageId: 'a-1' });
    expect(actor.getSnapshot().context.messages.at(-1)).toMatchObject({ content: 'Rye', status: 'incomplete' });
  });

  it('shows a question stored without an answer as cut short, and its retry answers that question', async () => {
    const { actor, ask, streamCall, context } = setup({ load: stored(storedMessage('q-1', 'user', 'Tell me about rye')) });
    ask('Tell me about rye');
    (await streamCall()).fail('incomplete');

    await waitFor(actor, (state) => state.matches(chatAt('incomplete')));
    expect(context().draft).toBe('');
    expect(context().messages.map((m) => [m.role, m.serverId, m.status])).toEqual([
      ['user', 'q-1', 'complete'],
      ['assistant', null, 'incomplete'],
    ]);
    actor.send({ type: 'retry' });
    expect((await streamCall(1)).request).toEqual({ conversationId: 'conv-new', agentId: 'SpecialNoAgentFallback', retryMessageId: 'q-1' });
  });
});
