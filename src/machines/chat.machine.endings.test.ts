import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { chatAt, message } from '../../tests/spa/chat-fixtures';
import { harness, photo, reach } from '../../tests/spa/chat-states-kit';
import type { ChatStreamReport } from './chat-stream.actor';
import { isAnswering } from './chat.machine';
import { draftIn, newChatScope } from './draft-book';

describe('every way an exchange ends tells the app, once, with the conversation', () => {
  it('a whole answer, a failed one and one cut short', async () => {
    for (const [state, expected] of [
      ['done', 'complete'],
      ['failed', 'failed'],
      ['incomplete', 'incomplete'],
    ] as const) {
      const h = await reach(state);
      expect(h.settled).toEqual(['conv-1']);
      expect(h.last()).toMatchObject({ serverId: 'r2', content: 'Par', status: expected });
    }
  });

  it('the failure of an accepted answer is said on it and on the page', async () => {
    const failed = await reach('failed');
    expect(failed.last().error).toBe('The agent failed');
    expect(failed.context().failure).toEqual({ kind: 'agent-error', message: 'The agent failed' });
    const cut = await reach('incomplete');
    expect(cut.last().error).toBe('Garbled');
    expect(cut.context().failure).toEqual({ kind: 'malformed', message: 'Garbled' });
  });

  it('a stopped answer, whether the stop call answers or fails', async () => {
    const stopped = await reach('cancelled');
    expect(stopped.stops).toEqual([{ conversationId: 'conv-1', messageId: 'r2' }]);
    expect(stopped.settled).toEqual(['conv-1']);
    expect(stopped.last()).toMatchObject({ content: 'Stored.', status: 'incomplete' });

    const h = harness({ stop: async () => Promise.reject(new Error('offline')) });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.ask('More?');
    h.accept(0, 'q2', 'r2');
    h.streams[0]!.report({ type: 'stream.delta', text: 'Shown' });
    h.actor.send({ type: 'stop' });
    await waitFor(h.actor, (s) => s.matches(chatAt('cancelled')));
    expect(h.settled).toEqual(['conv-1']);
    expect(h.last()).toMatchObject({ content: 'Shown', status: 'incomplete', error: null });
  });

  it('an answer read again that ends, is stopped elsewhere, or fails', async () => {
    const writing = [message('q', 'user', 'Which flour?'), message('a2', 'assistant', 'Ry', { status: 'streaming' })];
    for (const [report, state, status] of [
      [{ type: 'stream.ended', messageIds: ['q', 'a2'] }, 'done', 'complete'],
      [{ type: 'stream.stopped' }, 'incomplete', 'incomplete'],
      [{ type: 'stream.failed', kind: 'agent-error', message: 'Broke' }, 'failed', 'failed'],
    ] as const) {
      const h = harness({ messages: writing });
      await waitFor(h.actor, (s) => s.matches('resuming'));
      h.resumes[0]!.report(report as ChatStreamReport);
      await waitFor(h.actor, (s) => s.matches(chatAt(state)));
      expect(h.settled).toEqual(['conv-1']);
      expect(h.last().status).toBe(status);
    }
  });

  it('a question the server never took settles nothing and comes back, kept for a reload', async () => {
    const h = await reach('idle');
    h.ask('More?');
    h.streams[0]!.report({ type: 'stream.failed', kind: 'rejected', message: 'Refused' });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    expect(h.settled).toEqual([]);
    expect(h.context().draft).toBe('More?');
    expect(draftIn(h.persisted.at(-1)!, 'conv-1')).toBe('More?');
    expect(h.context().messages.map((m) => m.serverId)).toEqual(['q', 'a2']);
  });

  it('a question whose conversation could not be created comes back, kept for a reload', async () => {
    const h = harness({ input: { agentId: 'baker' }, create: async () => Promise.reject(new Error('Full')) });
    h.actor.send({ type: 'attachments.change', files: [photo] });
    h.ask('Bread?');
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')) && s.context.failure !== null);
    expect(h.context().failure).toEqual({ kind: 'create', message: 'Full' });
    expect(h.context().draft).toBe('Bread?');
    expect(h.context().attachments).toEqual([photo]);
    expect(draftIn(h.persisted.at(-1)!, newChatScope('baker'))).toBe('Bread?');
    expect(h.created).toEqual([]);
  });
});

describe('retry and Stop, in detail', () => {
  it('a refused retry of a failed answer puts the failed answer back, failed', async () => {
    const h = await reach('failed');
    h.actor.send({ type: 'retry' });
    h.streams[1]!.report({ type: 'stream.failed', kind: 'rate-limited', message: 'Later', retryAfterSeconds: 30 });
    await waitFor(h.actor, (s) => s.matches(chatAt('failed')));
    expect(h.last()).toMatchObject({ serverId: 'r2', content: 'Par', status: 'failed', error: 'Later' });
    expect(h.context().failure).toEqual({ kind: 'rate-limited', message: 'Later', retryAfterSeconds: 30 });
  });

  it('a refused new answer puts the answer back and says the failure was of a new answer, not of a typed question', async () => {
    const h = await reach('done');
    h.actor.send({ type: 'regenerate', key: h.keyOf('r2') });
    h.streams[1]!.report({ type: 'stream.failed', kind: 'rate-limited', message: 'Later', retryAfterSeconds: 5 });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    expect(h.context().failure).toEqual({ kind: 'rate-limited', message: 'Later', retryAfterSeconds: 5, newAnswer: true });
    expect(h.last()).toMatchObject({ serverId: 'r2', content: 'Par', status: 'complete' });
    expect(h.context().draft).toBe('');
  });

  it('a refusal without a message keeps the answer its own error', async () => {
    const h = await reach('failed');
    h.actor.send({ type: 'retry' });
    h.streams[1]!.report({ type: 'stream.failed', kind: 'rejected', message: '' });
    await waitFor(h.actor, (s) => s.matches(chatAt('failed')));
    expect(h.last()).toMatchObject({ content: 'Par', status: 'failed', error: 'The agent failed' });
    expect(h.context().failure).toEqual({ kind: 'rejected', message: '' });
  });

  it('a failure without a wait says none', async () => {
    const h = await reach('idle');
    h.ask('More?');
    h.streams[0]!.report({ type: 'stream.failed', kind: 'rate-limited', message: 'Slow down' });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    expect(h.context().failure).toEqual({ kind: 'rate-limited', message: 'Slow down' });
    expect(Object.keys(h.context().failure!)).not.toContain('retryAfterSeconds');
  });

  it('Stop forgets the failure shown and the wish to stop when it goes to the server', async () => {
    const h = harness({ messages: [message('q', 'user', 'Which flour?'), message('a2', 'assistant', 'Ry', { status: 'streaming' })], stop: () => new Promise(() => {}) });
    await waitFor(h.actor, (s) => s.matches('resuming'));
    h.resumes[0]!.report({ type: 'stream.failed', kind: 'network', message: 'Offline' });
    await waitFor(h.actor, (s) => s.matches('detached'));
    expect(h.context().failure).toEqual({ kind: 'network', message: 'Offline' });
    expect(isAnswering(h.actor.getSnapshot())).toBe(true);
    h.actor.send({ type: 'stop' });
    expect(h.actor.getSnapshot().value).toBe('stopping');
    expect(isAnswering(h.actor.getSnapshot())).toBe(true);
    expect(h.context().failure).toBeNull();
    expect(h.context().stopWanted).toBe(false);
    expect(h.stops).toEqual([{ conversationId: 'conv-1', messageId: 'a2' }]);
  });

  it('a wish to stop before the server took the question is forgotten once the stop goes', async () => {
    const h = await reach('idle');
    h.ask('More?');
    h.actor.send({ type: 'stop' });
    expect(h.context().stopWanted).toBe(true);
    h.accept(0, 'q2', 'r2');
    await waitFor(h.actor, (s) => s.matches(chatAt('cancelled')));
    expect(h.context().stopWanted).toBe(false);
    expect(h.stops).toEqual([{ conversationId: 'conv-1', messageId: 'r2' }]);
  });

  it('the server keeps a stopped answer `streaming` for a moment: it is shown incomplete; a finished one as stored', async () => {
    for (const [status, shown] of [
      ['streaming', 'incomplete'],
      ['complete', 'complete'],
    ] as const) {
      const h = harness({ stop: async (input) => ({ ...message(input.messageId, 'assistant', 'Par and more'), status }) });
      await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
      h.ask('More?');
      h.accept(0, 'q2', 'r2');
      h.actor.send({ type: 'stop' });
      await waitFor(h.actor, (s) => s.matches(chatAt('cancelled')));
      expect(h.last()).toMatchObject({ content: 'Par and more', status: shown, error: null });
    }
  });
});

describe('an answer read again', () => {
  const writing = () => [message('q', 'user', 'Which flour?'), message('a2', 'assistant', 'Ry', { status: 'streaming' })];

  it('is read from the text shown, live, as that message', async () => {
    const h = harness({ messages: writing() });
    await waitFor(h.actor, (s) => s.matches('resuming'));
    expect(isAnswering(h.actor.getSnapshot())).toBe(true);
    expect(h.actor.getSnapshot().hasTag('settled')).toBe(false);
    expect(h.resumes[0]!.request).toEqual({ conversationId: 'conv-1', messageId: 'a2', offset: 2 });
    h.resumes[0]!.report({ type: 'stream.delta', text: 'e.' });
    expect(h.last()).toMatchObject({ content: 'Rye.', status: 'streaming' });
  });

  it('that breaks in a way reading again cannot mend is kept, incomplete, with the reason', async () => {
    const h = harness({ messages: writing() });
    await waitFor(h.actor, (s) => s.matches('resuming'));
    h.resumes[0]!.report({ type: 'stream.failed', kind: 'malformed', message: 'Garbled' });
    await waitFor(h.actor, (s) => s.matches(chatAt('incomplete')));
    expect(h.last()).toMatchObject({ content: 'Ry', status: 'incomplete', error: 'Garbled' });
    expect(h.context().failure).toEqual({ kind: 'malformed', message: 'Garbled' });
    expect(h.settled).toEqual([]);
  });

  it('an agent error is shown on the answer', async () => {
    const h = harness({ messages: writing() });
    await waitFor(h.actor, (s) => s.matches('resuming'));
    h.resumes[0]!.report({ type: 'stream.failed', kind: 'agent-error', message: 'Broke' });
    await waitFor(h.actor, (s) => s.matches(chatAt('failed')));
    expect(h.last()).toMatchObject({ status: 'failed', error: 'Broke' });
  });

  it('a lost connection waits; Retry reads again at once, from the text shown', async () => {
    const h = harness({ messages: writing() });
    await waitFor(h.actor, (s) => s.matches('resuming'));
    h.resumes[0]!.report({ type: 'stream.delta', text: 'e' });
    h.resumes[0]!.report({ type: 'stream.failed', kind: 'incomplete', message: 'Cut' });
    await waitFor(h.actor, (s) => s.matches('detached'));
    expect(h.last()).toMatchObject({ content: 'Rye', status: 'incomplete', error: null });
    h.actor.send({ type: 'retry' });
    expect(h.actor.getSnapshot().value).toBe('resuming');
    expect(h.resumes[1]!.request).toEqual({ conversationId: 'conv-1', messageId: 'a2', offset: 3 });
    expect(h.last()).toMatchObject({ status: 'streaming', error: null });
    expect(h.context().failure).toBeNull();
  });
});
