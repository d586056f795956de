import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { chatAt, message } from '../../tests/spa/chat-fixtures';
import { AFTER_AN_EXCHANGE, harness, reach, SETTLED } from '../../tests/spa/chat-states-kit';
import { isAnswering } from './chat.machine';
import { draftIn } from './draft-book';

describe('what a settled chat lets a person do', () => {
  it.each(SETTLED)('%s is settled: nothing is being answered', async (state) => {
    const h = await reach(state);
    expect(h.actor.getSnapshot().hasTag('settled')).toBe(true);
    expect(isAnswering(h.actor.getSnapshot())).toBe(false);
  });

  it.each(SETTLED)('in %s, a typed question goes to the server and leaves no draft behind', async (state) => {
    const h = await reach(state);
    const asked = h.streams.length;
    h.actor.send({ type: 'draft.change', text: 'Next?' });
    expect(draftIn(h.persisted.at(-1)!, 'conv-1')).toBe('Next?');
    h.actor.send({ type: 'send' });
    expect(h.actor.getSnapshot().value).toBe('streaming');
    expect(h.streams).toHaveLength(asked + 1);
    expect(h.streams.at(-1)!.request).toEqual({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', text: 'Next?', files: [] });
    expect(draftIn(h.persisted.at(-1)!, 'conv-1')).toBe('');
    expect(h.context().draft).toBe('');
  });

  it.each(SETTLED)('in %s, nothing typed sends nothing', async (state) => {
    const h = await reach(state);
    const asked = h.streams.length;
    h.actor.send({ type: 'draft.change', text: '   ' });
    h.actor.send({ type: 'send' });
    expect(h.actor.getSnapshot().value).toEqual(chatAt(state));
    expect(h.streams).toHaveLength(asked);
  });

  it.each(SETTLED)('in %s, a sent question is edited with its own text and goes as a new version', async (state) => {
    const h = await reach(state);
    h.actor.send({ type: 'edit.start', key: h.keyOf('q') });
    expect(h.context().editing).toEqual({ key: h.keyOf('q'), text: 'Which flour?' });
    h.actor.send({ type: 'edit.change', text: '  Which rye?  ' });
    h.actor.send({ type: 'edit.send' });
    expect(h.actor.getSnapshot().value).toBe('streaming');
    expect(h.streams.at(-1)!.request).toEqual({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', editMessageId: 'q', text: 'Which rye?' });
    // the edited question replaces the thread from it on, its answer to come
    expect(h.context().messages.map((m) => [m.role, m.content, m.status, m.siblingIds, m.files])).toEqual([
      ['user', 'Which rye?', 'sending', ['q'], []],
      ['assistant', '', 'streaming', [], []],
    ]);
    expect(h.context().editing).toBeNull();
    expect(h.context().messageIds).toEqual([]);
  });

  it.each(SETTLED)('in %s, an answer is asked again as a new version, in its place', async (state) => {
    const h = await reach(state);
    h.actor.send({ type: 'regenerate', key: h.keyOf('a2') });
    expect(h.actor.getSnapshot().value).toBe('streaming');
    expect(h.streams.at(-1)!.request).toEqual({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', regenerateMessageId: 'a2' });
    expect(h.context().messages.map((m) => [m.role, m.content, m.status, m.siblingIds, m.files])).toEqual([
      ['user', 'Which flour?', 'complete', ['q'], []],
      ['assistant', '', 'streaming', ['a1', 'a2'], []],
    ]);
    expect(h.context().messageIds).toEqual([]);
  });

  it.each(SETTLED)('in %s, an edit emptied of text is not sent', async (state) => {
    const h = await reach(state);
    const asked = h.streams.length;
    h.actor.send({ type: 'edit.send' });
    h.actor.send({ type: 'edit.start', key: h.keyOf('q') });
    h.actor.send({ type: 'edit.change', text: '   ' });
    h.actor.send({ type: 'edit.send' });
    expect(h.actor.getSnapshot().value).toEqual(chatAt(state));
    expect(h.actor.getSnapshot().status).toBe('active');
    expect(h.streams).toHaveLength(asked);
  });

  it.each(AFTER_AN_EXCHANGE)('in %s, a later question is edited in its place, the thread before it kept', async (state) => {
    const h = await reach(state);
    h.actor.send({ type: 'edit.start', key: h.keyOf('q2') });
    expect(h.context().editing).toEqual({ key: h.keyOf('q2'), text: 'More?' });
    h.actor.send({ type: 'edit.change', text: 'Less?' });
    h.actor.send({ type: 'edit.send' });
    expect(h.context().messages.map((m) => [m.serverId, m.content])).toEqual([
      ['q', 'Which flour?'],
      ['a2', 'Rye.'],
      [null, 'Less?'],
      [null, ''],
    ]);
    // refused: the thread as it was, the edit open again on that question
    h.streams.at(-1)!.report({ type: 'stream.failed', kind: 'rejected', message: 'No' });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    expect(h.context().messages.map((m) => m.serverId)).toEqual(['q', 'a2', 'q2', 'r2']);
    expect(h.context().editing).toEqual({ key: h.keyOf('q2'), text: 'Less?' });
  });

  it.each(SETTLED)('in %s, the other version of an answer is asked of the server', async (state) => {
    const h = await reach(state);
    h.actor.send({ type: 'version.show', key: h.keyOf('a2'), offset: -1 });
    expect(h.actor.getSnapshot().value).toBe('switchingVersion');
    expect(h.selects).toEqual([{ conversationId: 'conv-1', messageId: 'a1' }]);
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    expect(h.context().messages.map((m) => m.content)).toEqual(['Which flour?', 'Spelt.']);
  });

  it.each(['incomplete', 'failed', 'cancelled'] as const)('in %s, Retry answers the stored question again', async (state) => {
    const h = await reach(state);
    h.actor.send({ type: 'retry' });
    expect(h.actor.getSnapshot().value).toBe('streaming');
    expect(h.streams.at(-1)!.request).toEqual({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', retryMessageId: 'q2' });
    expect(h.last()).toMatchObject({ serverId: 'r2', content: '', status: 'streaming', error: null });
  });

  it.each(['idle', 'done'] as const)('in %s, with the last answer whole, there is nothing to retry', async (state) => {
    const h = await reach(state);
    const asked = h.streams.length;
    h.actor.send({ type: 'retry' });
    expect(h.actor.getSnapshot().value).toEqual(chatAt(state));
    expect(h.streams).toHaveLength(asked);
  });

  it.each(AFTER_AN_EXCHANGE)('in %s, an answer of its own is not edited, and an unknown message neither', async (state) => {
    const h = await reach(state);
    h.actor.send({ type: 'edit.start', key: h.keyOf('r2') });
    h.actor.send({ type: 'edit.start', key: 'nobody' });
    expect(h.context().editing).toBeNull();
    h.actor.send({ type: 'regenerate', key: h.keyOf('q2') });
    h.actor.send({ type: 'regenerate', key: 'nobody' });
    h.actor.send({ type: 'version.show', key: h.keyOf('r2'), offset: 1 });
    h.actor.send({ type: 'version.show', key: 'nobody', offset: 1 });
    expect(h.actor.getSnapshot().value).toEqual(chatAt(state));
    expect(h.actor.getSnapshot().status).toBe('active');
  });

  it.each(['incomplete', 'failed', 'cancelled'] as const)('in %s, an answer with no question before it has nothing to answer again', async (state) => {
    const h = harness({ messages: [message('a', 'assistant', 'Hel', { status: 'streaming' })] });
    await waitFor(h.actor, (s) => s.matches('resuming'));
    if (state === 'incomplete') h.resumes[0]!.report({ type: 'stream.stopped' });
    if (state === 'failed') h.resumes[0]!.report({ type: 'stream.failed', kind: 'agent-error', message: 'Broke' });
    if (state === 'cancelled') h.actor.send({ type: 'stop' });
    await waitFor(h.actor, (s) => s.matches(chatAt(state)));
    h.actor.send({ type: 'retry' });
    h.actor.send({ type: 'regenerate', key: h.keyOf('a') });
    expect(h.actor.getSnapshot().value).toEqual(chatAt(state));
    expect(h.actor.getSnapshot().status).toBe('active');
    expect(h.streams).toHaveLength(0);
  });
});
