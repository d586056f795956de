import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { chatAt, conversation, message, type ChatStateName } from '../../tests/spa/chat-fixtures';
import { recordedChatStream, type RecordedStream } from '../../tests/spa/recorded-stream';
import type { ChatRequest, ChatResumeRequest } from '../contract/chat';
import { titleFromQuestion } from '../contract/chat-title';
import type { Conversation, ConversationApplication } from '../contract/conversations';
import type { FileRef } from '../contract/media';
import type { Message } from '../contract/messages';
import type { ChatStreamReport } from './chat-stream.actor';
import { chatMachine, isAnswering, type ChatInput } from './chat.machine';
import { draftIn, keepDrafts, newChatScope, type DraftBook } from './draft-book';

/**
 * The chat machine state by state: what each settled state lets a person do next, what every way
 * an exchange ends tells the app, and what each call is given. The flows are told in
 * chat.machine.test.ts and chat-versions.machine.test.ts; these pin the details they pass over.
 */

/** A stored exchange whose answer has two versions: "Which flour?" → "Rye." (2 of 2). */
const stored = (): Message[] => [message('q', 'user', 'Which flour?'), message('a2', 'assistant', 'Rye.', { siblingIds: ['a1', 'a2'] })];

const application: ConversationApplication = { name: 'Planner', avatar: '/a.png', intro: 'Plans things.' };
const photo: FileRef = { fileId: 'f-1', name: 'bread.png', url: '/api/media/file/f-1', kind: 'image', mimeType: 'image/png', size: 10 };

const harness = (
  options: {
    input?: ChatInput;
    messages?: Message[];
    loaded?: Conversation;
    load?: () => Promise<{ conversation: Conversation; messages: Message[] }>;
    stop?: (input: { conversationId: string; messageId: string }) => Promise<Message>;
    select?: (input: { conversationId: string; messageId: string }) => Promise<Message[]>;
    create?: () => Promise<Conversation>;
  } = {},
) => {
  const streams: RecordedStream<ChatRequest>[] = [];
  const resumes: RecordedStream<ChatResumeRequest>[] = [];
  const stops: { conversationId: string; messageId: string }[] = [];
  const selects: { conversationId: string; messageId: string }[] = [];
  const creates: { agentId: string; source: string; title: string }[] = [];
  const persisted: DraftBook[] = [];
  const settled: (string | null)[] = [];
  const created: string[] = [];
  const actor = createActor(
    chatMachine.provide({
      actors: {
        loadConversation: fromPromise(options.load ?? (async () => ({ conversation: options.loaded ?? conversation(), messages: options.messages ?? stored() }))),
        createConversation: fromPromise(async ({ input }) => {
          creates.push(input);
          return (options.create ?? (async () => conversation({ conversationId: 'conv-new' })))();
        }),
        chatStream: recordedChatStream(streams),
        resumeStream: recordedChatStream(resumes),
        stopAnswer: fromPromise(async ({ input }) => {
          stops.push(input);
          return (options.stop ?? (async () => ({ ...message(input.messageId, 'assistant', 'Stored.'), status: 'incomplete' as const })))(input);
        }),
        selectVersion: fromPromise(async ({ input }) => {
          selects.push(input);
          return (options.select ?? (async () => [message('q', 'user', 'Which flour?'), message('a1', 'assistant', 'Spelt.', { siblingIds: ['a1', 'a2'] })]))(input);
        }),
      },
      actions: {
        exchangeSettled: (_, { conversationId }) => void settled.push(conversationId),
        conversationCreated: (_, { conversationId }) => void created.push(conversationId),
      },
    }),
    { input: options.input ?? { conversationId: 'conv-1' } },
  );
  // The drafts are kept as the app keeps them: by a subscription to the chat.
  const { hand } = keepDrafts(actor, (drafts) => void persisted.push(drafts));
  actor.start();
  const context = () => actor.getSnapshot().context;
  const keyOf = (serverId: string) => context().messages.find((m) => m.serverId === serverId)!.key;
  const last = () => context().messages.at(-1)!;
  const ask = (text: string) => {
    actor.send({ type: 'draft.change', text });
    actor.send({ type: 'send' });
  };
  const accept = (n: number, userMessageId: string, replyMessageId: string, patch: Partial<Extract<ChatStreamReport, { type: 'stream.accepted' }>> = {}) =>
    streams[n]!.report({ type: 'stream.accepted', conversationId: context().conversationId ?? 'conv-new', userMessageId, replyMessageId, ...patch });
  return { actor, hand, streams, resumes, stops, selects, creates, persisted, settled, created, context, keyOf, last, ask, accept };
};

type Harness = ReturnType<typeof harness>;
type SettledState = 'idle' | 'done' | 'incomplete' | 'failed' | 'cancelled';

/**
 * conv-1 opened on "Which flour?" → "Rye." (two versions); for every state but `idle`, "More?"
 * asked, taken as q2 with its answer r2, which then ends that way.
 */
const reach = async (state: SettledState): Promise<Harness> => {
  const h = harness();
  await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
  if (state === 'idle') return h;
  h.ask('More?');
  h.accept(0, 'q2', 'r2');
  h.streams[0]!.report({ type: 'stream.delta', text: 'Par' });
  if (state === 'done') h.streams[0]!.report({ type: 'stream.ended', messageIds: ['q', 'a2', 'q2', 'r2'] });
  if (state === 'incomplete') h.streams[0]!.report({ type: 'stream.failed', kind: 'malformed', message: 'Garbled' });
  if (state === 'failed') h.streams[0]!.report({ type: 'stream.failed', kind: 'agent-error', message: 'The agent failed' });
  if (state === 'cancelled') h.actor.send({ type: 'stop' });
  await waitFor(h.actor, (s) => s.matches(chatAt(state)));
  return h;
};

const SETTLED: SettledState[] = ['idle', 'done', 'incomplete', 'failed', 'cancelled'];
const AFTER_AN_EXCHANGE: SettledState[] = ['done', 'incomplete', 'failed', 'cancelled'];

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

describe('new chats', () => {
  it('a new chat with an application keeps the application; with an agent, none', async () => {
    const h = await reach('idle');
    h.actor.send({ type: 'conversation.new', agentId: 'app-1', source: 'workflow', application });
    expect(h.context()).toMatchObject({ agentId: 'app-1', source: 'workflow', application, conversationId: null, messages: [] });
    h.actor.send({ type: 'conversation.new', agentId: 'baker', application });
    expect(h.context()).toMatchObject({ agentId: 'baker', source: 'agent', application: null });
  });

  it('a new chat forgets the ids of the last exchange and a wish to stop', async () => {
    const done = await reach('done');
    done.actor.send({ type: 'conversation.new' });
    expect(done.context().messageIds).toEqual([]);
    const h = await reach('idle');
    h.ask('More?');
    h.actor.send({ type: 'stop' });
    expect(h.context().stopWanted).toBe(true);
    h.actor.send({ type: 'conversation.new' });
    expect(h.context().stopWanted).toBe(false);
  });

  it('a new chat, by the button or by a link to an agent, leaves an answer being written for a blank page', async () => {
    for (const leave of [
      { type: 'conversation.new', agentId: 'baker' },
      { type: 'route.changed', market: false, conversationId: null, agentId: 'baker' },
    ] as const) {
      const h = await reach('idle');
      h.ask('More?');
      h.accept(0, 'q2', 'r2');
      h.actor.send(leave);
      expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
      expect(h.context()).toMatchObject({ agentId: 'baker', conversationId: null, messages: [] });
    }
  });

  it('an edit or a new answer sent after a Stop wished for a refused one is not stopped', async () => {
    for (const again of ['edit', 'regenerate'] as const) {
      const h = await reach('idle');
      const go = () => {
        if (again === 'edit') {
          h.actor.send({ type: 'edit.start', key: h.keyOf('q') });
          h.actor.send({ type: 'edit.change', text: 'Which rye?' });
          h.actor.send({ type: 'edit.send' });
        } else h.actor.send({ type: 'regenerate', key: h.keyOf('a2') });
      };
      go();
      h.actor.send({ type: 'stop' });
      h.streams[0]!.report({ type: 'stream.failed', kind: 'rejected', message: 'No' });
      await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
      expect(h.context().stopWanted).toBe(true);
      h.actor.send({ type: 'edit.cancel' });
      go();
      expect(h.context().stopWanted).toBe(false);
      h.accept(1, 'q', 'a3');
      expect(h.actor.getSnapshot().value).toBe('streaming');
      expect(h.stops).toEqual([]);
    }
  });

  it('a new chat with no agent named keeps the one in use, and its application', async () => {
    const h = await reach('idle');
    h.actor.send({ type: 'conversation.new', agentId: 'app-1', source: 'workflow', application });
    h.actor.send({ type: 'conversation.new' });
    expect(h.context()).toMatchObject({ agentId: 'app-1', source: 'workflow', application });
  });

  it('starters are offered only in an agent chat with nothing said or typed', async () => {
    const h = await reach('idle');
    h.actor.send({ type: 'conversation.new', agentId: 'app-1', source: 'workflow', application });
    h.actor.send({ type: 'starter.ask', text: 'Plan my week' });
    expect(h.creates).toEqual([]);
    h.actor.send({ type: 'conversation.new', agentId: 'baker' });
    h.actor.send({ type: 'starter.ask', text: 'Bake bread' });
    await waitFor(h.actor, (s) => s.matches('streaming'));
    expect(h.streams.at(-1)!.request).toMatchObject({ text: 'Bake bread' });
    expect(draftIn(h.persisted.at(-1)!, newChatScope('baker'))).toBe('');
  });

  it('the address: the market changes nothing; another conversation opens; the created one is only noted', async () => {
    const h = await reach('idle');
    h.actor.send({ type: 'route.changed', market: true, conversationId: 'conv-2', agentId: 'baker' });
    h.actor.send({ type: 'route.changed', market: true, conversationId: null, agentId: 'baker' });
    h.actor.send({ type: 'route.changed', market: true, conversationId: null, agentId: null });
    expect(h.context()).toMatchObject({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback' });
    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    // the address naming the open conversation is no news
    h.actor.send({ type: 'route.changed', market: false, conversationId: 'conv-1', agentId: null });
    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(h.context().messages).toHaveLength(2);
    // a new chat created here: the address naming it is only noted
    h.actor.send({ type: 'conversation.new', agentId: 'baker' });
    h.ask('Rye?');
    await waitFor(h.actor, (s) => s.matches('streaming'));
    expect(h.context().addressPending).toBe(true);
    h.actor.send({ type: 'route.changed', market: false, conversationId: 'conv-other', agentId: null });
    expect(h.actor.getSnapshot().value).toBe('loading');
  });

  it('"/chat" after an application\'s conversation starts a new one with that application', async () => {
    const h = harness({ loaded: conversation({ source: 'workflow', sourceId: 'app-1', application }) });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'route.changed', market: false, conversationId: null, agentId: null });
    expect(h.context()).toMatchObject({ conversationId: null, agentId: 'app-1', source: 'workflow', application, messages: [] });
  });

  it('the address naming the conversation just created notes it, and only that one', async () => {
    const h = harness({ input: { agentId: 'baker' } });
    h.ask('Rye?');
    await waitFor(h.actor, (s) => s.matches('streaming'));
    h.actor.send({ type: 'route.changed', market: true, conversationId: null, agentId: null });
    expect(h.context().addressPending).toBe(true);
    h.actor.send({ type: 'route.changed', market: false, conversationId: 'conv-new', agentId: null });
    expect(h.context().addressPending).toBe(false);
    expect(h.actor.getSnapshot().value).toBe('streaming');
    // later, "/chat" is the new-chat button
    h.actor.send({ type: 'route.changed', market: false, conversationId: null, agentId: null });
    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(h.context()).toMatchObject({ conversationId: null, agentId: 'baker', messages: [] });
  });
});

describe('another person at the browser (a sign-out, another account)', () => {
  const never = <T,>(): Promise<T> => new Promise<T>(() => undefined);
  const writing = () => [message('q', 'user', 'Which flour?'), message('a2', 'assistant', 'Ry', { status: 'streaming' })];
  const asked = async (h: Harness) => {
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.ask('More?');
    return h;
  };
  /** Every state the chat can rest in, reached with the person before's conversation on screen. */
  const REACH: Record<string, () => Promise<Harness>> = {
    ...Object.fromEntries(SETTLED.map((state) => [state, () => reach(state)])),
    loading: async () => harness({ load: never }),
    loadFailed: async () => {
      const h = harness({ load: () => Promise.reject(new Error('gone')) });
      await waitFor(h.actor, (s) => s.matches('loadFailed'));
      return h;
    },
    creatingConversation: async () => asked(harness({ input: {}, create: never })),
    streaming: async () => {
      const h = await asked(harness());
      h.accept(0, 'q2', 'r2');
      return h;
    },
    confirming: async () => {
      let loads = 0;
      const h = await asked(harness({ load: () => (loads++ === 0 ? Promise.resolve({ conversation: conversation(), messages: stored() }) : never()) }));
      h.streams[0]!.report({ type: 'stream.failed', kind: 'incomplete', message: '' });
      return h;
    },
    resuming: async () => {
      const h = harness({ messages: writing() });
      await waitFor(h.actor, (s) => s.matches('resuming'));
      return h;
    },
    detached: async () => {
      const h = harness({ messages: writing() });
      await waitFor(h.actor, (s) => s.matches('resuming'));
      h.resumes[0]!.report({ type: 'stream.failed', kind: 'network', message: '' });
      return h;
    },
    stopping: async () => {
      const h = await asked(harness({ stop: never }));
      h.accept(0, 'q2', 'r2');
      h.actor.send({ type: 'stop' });
      return h;
    },
    switchingVersion: async () => {
      const h = harness({ select: never });
      await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
      h.actor.send({ type: 'version.show', key: h.keyOf('a2'), offset: -1 });
      return h;
    },
  };
  const newcomer: DraftBook = { [newChatScope('SpecialNoAgentFallback')]: { text: 'Theirs, from before', at: 1 } };

  it('every state the chat can rest in is reached here', () => {
    type Node = { key: string; states: Record<string, Node> };
    const leaves = (node: Node): string[] => Object.values(node.states).flatMap((child) => (Object.keys(child.states).length ? leaves(child) : [child.key]));
    const declared = leaves(chatMachine.root).filter((state) => state !== 'choosing' && state !== 'sending');
    expect(Object.keys(REACH).sort()).toEqual(declared.sort());
  });

  it.each(Object.keys(REACH))('in %s, nothing of the person before stays: a new chat, with the newcomer\'s draft', async (state) => {
    const h = await REACH[state]!();
    await waitFor(h.actor, (s) => s.matches(chatAt(state as ChatStateName)));
    h.actor.send({ type: 'draft.change', text: 'Unsent, by the one before' });
    h.actor.send({ type: 'attachments.change', files: [photo] });
    const persisted = h.persisted.length;
    const settled = h.settled.length;
    const stops = h.stops.length;

    // as the app hands it over: the newcomer's drafts, read from storage
    h.hand({ type: 'session.changed', drafts: newcomer });

    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(isAnswering(h.actor.getSnapshot())).toBe(false);
    expect(h.context()).toMatchObject({
      agentId: 'SpecialNoAgentFallback',
      source: 'agent',
      application: null,
      conversationId: null,
      messages: [],
      draft: 'Theirs, from before',
      drafts: newcomer,
      attachments: [],
      outgoing: null,
      replyKey: null,
      failure: null,
      editing: null,
      versionTarget: null,
      stopWanted: false,
      addressPending: false,
    });
    // nothing is written for anyone, nothing told as settled, no answer stopped on the server
    expect(h.persisted).toHaveLength(persisted);
    expect(h.settled).toHaveLength(settled);
    expect(h.stops).toHaveLength(stops);
  });
});
