import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { chatAt } from '../../tests/spa/chat-fixtures';
import { setup, start } from '../../tests/spa/chat-flow-kit';
import { sameApartFromAnswerText, sameChatApartFromAnswerText, selectAnswerText, type ChatMessage } from './chat.machine';

describe('the chat machine: sending', () => {
  it('creates a new conversation first, then streams the question into it', async () => {
    const { actor, ask, createConversation, conversationCreated, streamCall, context, transport } = setup();
    expect(actor.getSnapshot().matches(chatAt('idle'))).toBe(true);

    ask('What can you do for a small bakery?');

    expect(actor.getSnapshot().matches('creatingConversation')).toBe(true);
    expect(createConversation).toHaveBeenCalledWith({ agentId: 'SpecialNoAgentFallback', source: 'agent', title: 'What can you do for a small bakery?' });
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
