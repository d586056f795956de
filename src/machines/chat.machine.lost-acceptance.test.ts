import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { chatAt } from '../../tests/spa/chat-fixtures';
import { conversation, setup } from '../../tests/spa/chat-flow-kit';
import type { Message } from '../contract/messages';
import { isAnswering, type LoadedConversation } from './chat.machine';

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
