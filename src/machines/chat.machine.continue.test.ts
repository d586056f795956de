import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { chatAt, message } from '../../tests/spa/chat-fixtures';
import { harness, reach } from '../../tests/spa/chat-states-kit';

const UNFINISHED = ['incomplete', 'failed', 'cancelled'] as const;
/** What each unfinished state shows of "More?"'s answer: what was written, or what the server stored on Stop. */
const SHOWN = { incomplete: 'Par', failed: 'Par', cancelled: 'Stored.' } as const;

describe('Continue: an answer cut short is written on in the same answer', () => {
  it.each(UNFINISHED)('in %s, an answer with text offers Continue beside Retry', async (state) => {
    const h = await reach(state);
    expect(h.actor.getSnapshot().can({ type: 'retry' })).toBe(true);
    expect(h.actor.getSnapshot().can({ type: 'continue' })).toBe(true);
  });

  it.each(['idle', 'done'] as const)('in %s, with the last answer whole, there is nothing to continue', async (state) => {
    const h = await reach(state);
    h.actor.send({ type: 'continue' });
    expect(h.actor.getSnapshot().value).toEqual(chatAt(state));
    expect(h.streams).toHaveLength(state === 'idle' ? 0 : 1);
  });

  it('an answer cut short before its first word offers Retry only: there is nothing to write on', async () => {
    const h = await reach('idle');
    h.ask('More?');
    h.accept(0, 'q2', 'r2');
    h.streams[0]!.report({ type: 'stream.failed', kind: 'malformed', message: 'Garbled' });
    await waitFor(h.actor, (s) => s.matches(chatAt('incomplete')));
    expect(h.actor.getSnapshot().can({ type: 'retry' })).toBe(true);
    expect(h.actor.getSnapshot().can({ type: 'continue' })).toBe(false);
  });

  it('a conversation opened on an answer cut short with text offers Continue; one with no question before it does not', async () => {
    const cut = harness({ messages: [message('q', 'user', 'Which flour?'), message('a', 'assistant', 'Ry', { status: 'incomplete' })] });
    await waitFor(cut.actor, (s) => s.matches(chatAt('idle')));
    expect(cut.actor.getSnapshot().can({ type: 'continue' })).toBe(true);
    const alone = harness({ messages: [message('a', 'assistant', 'Ry', { status: 'incomplete' })] });
    await waitFor(alone.actor, (s) => s.matches(chatAt('idle')));
    expect(alone.actor.getSnapshot().can({ type: 'continue' })).toBe(false);
  });

  it.each(UNFINISHED)('in %s, Continue names the answer, sends no text, and keeps the text shown', async (state) => {
    const h = await reach(state);
    h.actor.send({ type: 'continue' });
    expect(h.actor.getSnapshot().value).toBe('streaming');
    expect(h.streams.at(-1)!.request).toEqual({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', continueMessageId: 'r2' });
    expect(h.last()).toMatchObject({ serverId: 'r2', content: SHOWN[state], status: 'streaming', error: null });
    expect(h.context().failure).toBeNull();
  });

  it.each(['incomplete', 'failed'] as const)('a %s answer continued grows in place: one answer, its text then the new text', async (state) => {
    const h = await reach(state);
    const before = h.context().messages.map((m) => m.key);
    h.actor.send({ type: 'continue' });
    h.accept(1, 'q2', 'r2');
    h.streams[1]!.report({ type: 'stream.delta', text: 'tial' });
    expect(h.last().content).toBe('Partial');
    h.streams[1]!.report({ type: 'stream.ended', messageIds: ['q2', 'r2'] });
    await waitFor(h.actor, (s) => s.matches(chatAt('done')));
    expect(h.context().messages.map((m) => m.key)).toEqual(before);
    expect(h.last()).toMatchObject({ serverId: 'r2', content: 'Partial', status: 'complete', error: null, siblingIds: ['r2'] });
  });

  it.each([
    ['incomplete', 'This answer is complete.'],
    ['failed', 'This question is being answered right now.'],
  ] as const)('a continuation of a %s answer the server refuses puts the answer back as it was', async (state, refusal) => {
    const h = await reach(state);
    const shown = h.last();
    h.actor.send({ type: 'continue' });
    h.streams[1]!.report({ type: 'stream.failed', kind: 'rejected', message: refusal, status: 409 });
    await waitFor(h.actor, (s) => s.matches(chatAt(state)));
    expect(h.last()).toEqual({ ...shown, error: refusal });
    expect(h.context().outgoing).toBeNull();
    // and it may be continued again
    expect(h.actor.getSnapshot().can({ type: 'continue' })).toBe(true);
  });

  it('a continuation whose connection is lost is read again from the text shown', async () => {
    const h = await reach('incomplete');
    h.actor.send({ type: 'continue' });
    h.accept(1, 'q2', 'r2');
    h.streams[1]!.report({ type: 'stream.delta', text: 'tial' });
    h.streams[1]!.report({ type: 'stream.failed', kind: 'network', message: '' });
    await waitFor(h.actor, (s) => s.matches('resuming'));
    expect(h.resumes.at(-1)!.request).toEqual({ conversationId: 'conv-1', messageId: 'r2', offset: 'Partial'.length });
  });

  it('a continuation that fails again keeps what it added, and offers Continue again', async () => {
    const h = await reach('failed');
    h.actor.send({ type: 'continue' });
    h.accept(1, 'q2', 'r2');
    h.streams[1]!.report({ type: 'stream.delta', text: 'tial' });
    h.streams[1]!.report({ type: 'stream.failed', kind: 'agent-error', message: 'The agent failed' });
    await waitFor(h.actor, (s) => s.matches(chatAt('failed')));
    expect(h.last()).toMatchObject({ content: 'Partial', status: 'failed', error: 'The agent failed' });
    expect(h.actor.getSnapshot().can({ type: 'continue' })).toBe(true);
  });
});
