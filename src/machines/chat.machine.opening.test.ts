import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { chatAt } from '../../tests/spa/chat-fixtures';
import { conversation, setup } from '../../tests/spa/chat-flow-kit';
import type { Conversation } from '../contract/conversations';
import type { Message } from '../contract/messages';

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
