import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { chatAt, conversation, message } from '../../tests/spa/chat-fixtures';
import { application, harness, photo, reach, stored } from '../../tests/spa/chat-states-kit';
import { titleFromQuestion } from '../contract/chat-title';
import type { Message } from '../contract/messages';

describe('what each call is given', () => {
  it('a new conversation is created with the agent, the source and a title from the question', async () => {
    const question = 'How do I bake a sourdough loaf with a crisp crust and an open crumb at home, with no steam oven?';
    const h = harness({ input: { agentId: 'baker' } });
    h.actor.send({ type: 'attachments.change', files: [photo] });
    h.ask(question);
    await waitFor(h.actor, (s) => s.matches('streaming'));
    expect(h.creates).toEqual([{ agentId: 'baker', source: 'agent', title: titleFromQuestion(question) }]);
    expect(h.created).toEqual(['conv-new']);
    expect(h.streams[0]!.request).toEqual({ conversationId: 'conv-new', agentId: 'baker', text: question, files: [photo] });
    expect(h.context().attachments).toEqual([]);
  });

  it('a picture alone is something to send', async () => {
    const h = await reach('idle');
    h.actor.send({ type: 'attachments.change', files: [photo] });
    h.actor.send({ type: 'send' });
    expect(h.streams[0]!.request).toEqual({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', text: '', files: [photo] });
    expect(h.context().messages.at(-2)).toMatchObject({ role: 'user', content: '', files: [photo], siblingIds: [] });
  });

  it('every message sent here has a key of its own, and a new exchange forgets the last one\'s ids', async () => {
    const h = await reach('done');
    expect(h.context().messageIds).toEqual(['q', 'a2', 'q2', 'r2']);
    h.ask('Again?');
    expect(h.context().messageIds).toEqual([]);
    expect(h.context().stopWanted).toBe(false);
    const keys = h.context().messages.map((m) => m.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(h.context().messages.slice(-2).map((m) => [m.role, m.content, m.status, m.serverId, m.siblingIds, m.files])).toEqual([
      ['user', 'Again?', 'sending', null, [], []],
      ['assistant', '', 'streaming', null, [], []],
    ]);
    h.actor.send({ type: 'regenerate', key: h.keyOf('r2') });
    expect(h.actor.getSnapshot().value).toBe('streaming');
  });

  it('the taken question and its answer carry the server\'s ids and times, and only they', async () => {
    const h = await reach('idle');
    h.ask('More?');
    h.accept(0, 'q2', 'r2', { userMessageCreatedAt: '2025-02-01T00:00:00.000Z', replyMessageCreatedAt: '2025-02-01T00:00:01.000Z' });
    expect(h.context().messages.map((m) => [m.serverId, m.status, m.sentAt, m.siblingIds])).toEqual([
      ['q', 'complete', '2025-01-01T00:00:00.000Z', ['q']],
      ['a2', 'complete', '2025-01-01T00:00:00.000Z', ['a1', 'a2']],
      ['q2', 'complete', '2025-02-01T00:00:00.000Z', ['q2']],
      ['r2', 'streaming', '2025-02-01T00:00:01.000Z', ['r2']],
    ]);
  });

  it('without times from the server, the messages keep none', async () => {
    const h = await reach('idle');
    h.ask('More?');
    h.accept(0, 'q2', 'r2');
    expect(h.context().messages.slice(-2).map((m) => m.sentAt)).toEqual([null, null]);
  });

  it('a retried answer keeps its own place among its versions', async () => {
    const h = await reach('failed');
    h.actor.send({ type: 'retry' });
    h.accept(1, 'q2', 'r2b');
    expect(h.last()).toMatchObject({ serverId: 'r2b', siblingIds: ['r2b'] });
    expect(h.context().messages.at(-2)).toMatchObject({ serverId: 'q2', siblingIds: ['q2'] });
  });

  it('a version that cannot be shown says why and keeps the one shown', async () => {
    for (const [error, said] of [
      [new Error('Gone'), 'Gone'],
      ['not an error', ''],
    ] as const) {
      const h = harness({ select: async () => Promise.reject(error) });
      await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
      h.actor.send({ type: 'version.show', key: h.keyOf('a2'), offset: -1 });
      await waitFor(h.actor, (s) => s.matches(chatAt('idle')) && s.context.failure !== null);
      expect(h.context().failure).toEqual({ kind: 'version', message: said });
      expect(h.context().versionTarget).toBeNull();
      expect(h.context().messages.map((m) => m.content)).toEqual(['Which flour?', 'Rye.']);
    }
  });

  it('a history that cannot be loaded says why; loading again forgets it', async () => {
    let fail = true;
    const h = harness({
      load: async () => {
        if (fail) throw new Error('Offline');
        return { conversation: conversation(), messages: stored() };
      },
    });
    await waitFor(h.actor, (s) => s.matches('loadFailed'));
    expect(h.context().failure).toEqual({ kind: 'load', message: 'Offline' });
    fail = false;
    h.actor.send({ type: 'reload' });
    expect(h.context().failure).toBeNull();
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
  });
});

describe('a loaded conversation', () => {
  it('shows what the server stored: errors, versions, ratings, costs', async () => {
    const h = harness({
      messages: [
        message('q', 'user', 'Which flour?', { siblingIds: undefined }),
        message('a', 'assistant', 'Rye.', { status: 'failed', error: 'Broke', feedback: { rating: 'up' }, usage: { promptTokens: 3, completionTokens: 4 } } as Partial<Message>),
      ],
    });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    const [question, answer] = h.context().messages;
    expect(question).toEqual({ key: 'q', serverId: 'q', role: 'user', content: 'Which flour?', status: 'complete', files: [], error: null, siblingIds: ['q'], sentAt: '2025-01-01T00:00:00.000Z' });
    expect(answer).toMatchObject({ status: 'failed', error: 'Broke', feedback: { rating: 'up' }, usage: { promptTokens: 3, completionTokens: 4 } });
    expect(Object.keys(question!)).not.toContain('feedback');
    expect(Object.keys(question!)).not.toContain('usage');
  });

  it('an answer left streaming before the last is cut off; the last is read live', async () => {
    const h = harness({
      messages: [
        message('q1', 'user', 'One?'),
        message('a1', 'assistant', 'Un', { status: 'streaming' }),
        message('q2', 'user', 'Two?'),
        message('a2', 'assistant', 'Deu', { status: 'streaming' }),
      ],
    });
    await waitFor(h.actor, (s) => s.matches('resuming'));
    expect(h.context().messages.map((m) => m.status)).toEqual(['complete', 'incomplete', 'complete', 'streaming']);
  });

  it("a workflow conversation keeps its application; an agent's has none", async () => {
    const workflow = harness({ loaded: conversation({ source: 'workflow', sourceId: 'app-1', application }) });
    await waitFor(workflow.actor, (s) => s.matches(chatAt('idle')));
    expect(workflow.context()).toMatchObject({ source: 'workflow', agentId: 'app-1', application });
    const agent = harness();
    await waitFor(agent.actor, (s) => s.matches(chatAt('idle')));
    expect(agent.context().application).toBeNull();
  });

  it.each(['incomplete', 'failed'] as const)('opened on an answer left %s, Retry answers its question again', async (status) => {
    const h = harness({ messages: [message('q', 'user', 'Which flour?'), message('a', 'assistant', 'Ry', { status })] });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'retry' });
    expect(h.actor.getSnapshot().value).toBe('streaming');
    expect(h.streams[0]!.request).toEqual({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', retryMessageId: 'q' });
  });

  it('a stored conversation with nothing in it yet offers no starter question', async () => {
    const h = harness({ messages: [] });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'starter.ask', text: 'Bake bread' });
    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(h.streams).toHaveLength(0);
  });

  it('a Retry with no stored question before the answer is not offered', async () => {
    const h = harness({ messages: [message('a', 'assistant', 'Hello', { status: 'incomplete' })] });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'retry' });
    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(h.streams).toHaveLength(0);
  });

  it('a conversation ending in a question, with no answer, offers no Retry', async () => {
    const h = harness({ messages: [message('q', 'user', 'Hello?'), message('a', 'assistant', 'Hi', { status: 'incomplete' }), message('q2', 'user', 'And?')] });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'retry' });
    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(h.streams).toHaveLength(0);
  });

  it('a stored answer being written cannot be asked again, and one whose question is not stored neither', async () => {
    const h = harness({ messages: [message('q', 'user', 'Hello?'), message('a', 'assistant', 'Hi')] });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.ask('More?');
    // the question is not stored yet: its answer cannot be asked again
    h.actor.send({ type: 'regenerate', key: h.last().key });
    expect(h.streams).toHaveLength(1);
  });
});
