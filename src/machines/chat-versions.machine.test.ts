import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { chatAt, conversation as storedConversation, message as storedMessage } from '../../tests/spa/chat-fixtures';
import { recordedChatStream, type RecordedStream } from '../../tests/spa/recorded-stream';
import type { ChatRequest, ChatResumeRequest } from '../contract/chat';
import type { Message } from '../contract/messages';
import { chatMachine, MAX_DRAFTS, writeDraft, type DraftBook } from './chat.machine';
import { keepDrafts } from './draft-book';
import type { ChatStreamReport } from './chat-stream.actor';

const conversation = storedConversation();

/** A message of "conv-1" whose versions are `siblingIds` (by default, only itself). */
const message = (messageId: string, role: Message['role'], content: string, siblingIds = [messageId]): Message =>
  storedMessage(messageId, role, content, { siblingIds });

/** A stored exchange whose answer has a second version: "q" → "a2" (2 of 2). */
const stored = [message('q', 'user', 'Which flour?'), message('a2', 'assistant', 'Rye.', ['a1', 'a2'])];

type Streamed = RecordedStream<ChatRequest>;

const setup = (
  options: {
    select?: (input: { conversationId: string; messageId: string }) => Promise<Message[]>;
    /** The conversation as the server stores it when read again (after a lost start): by default as first loaded. */
    later?: Message[] | Error;
  } = {},
) => {
  const streams: Streamed[] = [];
  const loads = vi.fn(async (): Promise<Message[]> => {
    if (loads.mock.calls.length === 1 || options.later === undefined) return stored;
    if (options.later instanceof Error) throw options.later;
    return options.later;
  });
  const select = vi.fn(options.select ?? (async () => [message('q', 'user', 'Which flour?'), message('a1', 'assistant', 'Spelt.', ['a1', 'a2'])]));
  const persisted: DraftBook[] = [];
  const actor = createActor(
    chatMachine.provide({
      actors: {
        loadConversation: fromPromise(async () => ({ conversation, messages: await loads() })),
        chatStream: recordedChatStream(streams),
        selectVersion: fromPromise(({ input }) => select(input)),
      },
    }),
    { input: { conversationId: 'conv-1' } },
  );
  // The drafts are kept as the app keeps them: by a subscription to the chat.
  keepDrafts(actor, (drafts) => void persisted.push(drafts));
  actor.start();
  const keyOf = (serverId: string) => actor.getSnapshot().context.messages.find((m) => m.serverId === serverId)!.key;
  const shown = () => actor.getSnapshot().context.messages.map((m) => `${m.content}|${m.status}|${m.siblingIds.join(',')}`);
  return { actor, streams, select, persisted, keyOf, shown, loads };
};

const accept = (streamed: Streamed, userMessageId: string, replyMessageId: string) =>
  streamed.report({ type: 'stream.accepted', conversationId: 'conv-1', userMessageId, replyMessageId } as ChatStreamReport);

describe('chat versions', () => {
  it('sends an edited question as a new version: the thread below it gives way to its answer', async () => {
    const { actor, streams, keyOf, shown } = setup();
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'edit.start', key: keyOf('q') });
    expect(actor.getSnapshot().context.editing).toEqual({ key: keyOf('q'), text: 'Which flour?' });
    actor.send({ type: 'edit.change', text: '  Which flour for rye bread?  ' });
    actor.send({ type: 'edit.send' });

    expect(actor.getSnapshot().matches('streaming')).toBe(true);
    expect(streams[0]!.request).toEqual({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', editMessageId: 'q', text: 'Which flour for rye bread?' });
    accept(streams[0]!, 'q2', 'r');
    expect(shown()).toEqual(['Which flour for rye bread?|complete|q,q2', '|streaming|r']);
    expect(actor.getSnapshot().context.editing).toBeNull();
  });

  it('keeps the edit open and the thread as it was when the server refuses the new version', async () => {
    const { actor, streams, keyOf, shown } = setup();
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    const before = shown();
    actor.send({ type: 'edit.start', key: keyOf('q') });
    actor.send({ type: 'edit.change', text: 'Rewritten' });
    actor.send({ type: 'edit.send' });
    streams[0]!.report({ type: 'stream.failed', kind: 'rejected', message: 'Too many questions' } as ChatStreamReport);

    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    expect(shown()).toEqual(before);
    expect(actor.getSnapshot().context.editing).toEqual({ key: keyOf('q'), text: 'Rewritten' });
    expect(actor.getSnapshot().context.failure).toMatchObject({ message: 'Too many questions' });
  });

  it('does not send an edit emptied of text, nor edit an answer', async () => {
    const { actor, streams, keyOf } = setup();
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'edit.start', key: keyOf('a2') });
    expect(actor.getSnapshot().context.editing).toBeNull();
    actor.send({ type: 'edit.start', key: keyOf('q') });
    actor.send({ type: 'edit.change', text: '   ' });
    actor.send({ type: 'edit.send' });
    expect(actor.getSnapshot().matches(chatAt('idle'))).toBe(true);
    expect(streams).toHaveLength(0);
    actor.send({ type: 'edit.cancel' });
    expect(actor.getSnapshot().context.editing).toBeNull();
  });

  it('asks for a new version of an answer, which takes its place as the newest version', async () => {
    const { actor, streams, keyOf, shown } = setup();
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'regenerate', key: keyOf('q') });
    expect(streams).toHaveLength(0);
    actor.send({ type: 'regenerate', key: keyOf('a2') });
    expect(streams[0]!.request).toEqual({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', regenerateMessageId: 'a2' });
    accept(streams[0]!, 'q', 'a3');
    streams[0]!.report({ type: 'stream.delta', text: 'Wheat.' } as ChatStreamReport);
    streams[0]!.report({ type: 'stream.ended', messageIds: ['q', 'a3'] } as ChatStreamReport);
    await waitFor(actor, (s) => s.matches(chatAt('done')));
    expect(shown()).toEqual(['Which flour?|complete|q', 'Wheat.|complete|a1,a2,a3']);
  });

  it('moves between versions through the server, and only to a version that exists', async () => {
    const { actor, select, keyOf, shown } = setup();
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'version.show', key: keyOf('a2'), offset: 1 });
    actor.send({ type: 'version.show', key: keyOf('q'), offset: -1 });
    expect(select).not.toHaveBeenCalled();

    actor.send({ type: 'version.show', key: keyOf('a2'), offset: -1 });
    expect(actor.getSnapshot().matches('switchingVersion')).toBe(true);
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    expect(select).toHaveBeenCalledWith({ conversationId: 'conv-1', messageId: 'a1' });
    expect(shown()).toEqual(['Which flour?|complete|q', 'Spelt.|complete|a1,a2']);
  });

  it('keeps the version shown and says so when the server cannot switch', async () => {
    const { actor, keyOf, shown } = setup({ select: async () => Promise.reject(new Error('Message not found')) });
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    const before = shown();
    actor.send({ type: 'version.show', key: keyOf('a2'), offset: -1 });
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    expect(shown()).toEqual(before);
    expect(actor.getSnapshot().context.failure).toEqual({ kind: 'version', message: 'Message not found' });
  });

  it('takes no new version while an answer is being written', async () => {
    const { actor, streams, keyOf } = setup();
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'draft.change', text: 'And water?' });
    actor.send({ type: 'send' });
    actor.send({ type: 'regenerate', key: keyOf('a2') });
    actor.send({ type: 'version.show', key: keyOf('a2'), offset: -1 });
    expect(streams).toHaveLength(1);
    expect(actor.getSnapshot().matches('streaming')).toBe(true);
  });
});

describe('chat versions with answers that outlive the page', () => {
  /** A conversation whose chosen path ends in `last`; resume and stop calls are recorded. */
  const live = (messages: Message[], options: { select?: () => Promise<Message[]> } = {}) => {
    const streams: Streamed[] = [];
    const resumes: RecordedStream<ChatResumeRequest>[] = [];
    const stops: { conversationId: string; messageId: string }[] = [];
    const actor = createActor(
      chatMachine.provide({
        actors: {
          loadConversation: fromPromise(async () => ({ conversation, messages })),
          chatStream: recordedChatStream(streams),
          resumeStream: recordedChatStream(resumes),
          stopAnswer: fromPromise(async ({ input }) => {
            stops.push(input);
            return { ...message(input.messageId, 'assistant', 'Rye, stopped'), status: 'incomplete' as const };
          }),
          selectVersion: fromPromise(options.select ?? (async () => messages)),
        },
      }),
      { input: { conversationId: 'conv-1' } },
    ).start();
    const keyOf = (serverId: string) => actor.getSnapshot().context.messages.find((m) => m.serverId === serverId)!.key;
    return { actor, streams, resumes, stops, keyOf };
  };
  const writing = (messageId: string, content: string, siblingIds: string[]): Message => ({ ...message(messageId, 'assistant', content, siblingIds), status: 'streaming' });

  it('opens a conversation whose chosen version is still being written and reads that version live', async () => {
    const { actor, resumes } = live([message('q', 'user', 'Which flour?'), writing('a2', 'Ry', ['a1', 'a2'])]);
    await waitFor(actor, (s) => s.matches('resuming'));
    expect(resumes[0]!.request).toEqual({ conversationId: 'conv-1', messageId: 'a2', offset: 2 });
  });

  it('offers no edit, new answer or other version while an answer is read again, reconnected or stopped', async () => {
    const { actor, streams, resumes, keyOf } = live([message('q', 'user', 'Which flour?'), writing('a2', 'Ry', ['a1', 'a2'])]);
    await waitFor(actor, (s) => s.matches('resuming'));
    const tryVersions = () => {
      expect(actor.getSnapshot().hasTag('settled')).toBe(false);
      actor.send({ type: 'edit.start', key: keyOf('q') });
      actor.send({ type: 'edit.change', text: 'Which rye?' });
      actor.send({ type: 'edit.send' });
      actor.send({ type: 'regenerate', key: keyOf('a2') });
      actor.send({ type: 'version.show', key: keyOf('a2'), offset: -1 });
      expect(actor.getSnapshot().context.editing).toBeNull();
    };
    tryVersions();
    expect(actor.getSnapshot().matches('resuming')).toBe(true);
    resumes[0]!.report({ type: 'stream.failed', kind: 'network', message: '' } as ChatStreamReport);
    await waitFor(actor, (s) => s.matches('detached'));
    tryVersions();
    expect(actor.getSnapshot().matches('detached')).toBe(true);
    actor.send({ type: 'stop' });
    expect(actor.getSnapshot().matches('stopping')).toBe(true);
    tryVersions();
    expect(streams).toHaveLength(0);
    await waitFor(actor, (s) => s.matches(chatAt('cancelled')));
    expect(actor.getSnapshot().hasTag('settled')).toBe(true);
  });

  it('a new answer outlives a lost connection and is stopped on the server as that version', async () => {
    const { actor, streams, resumes, stops, keyOf } = live([message('q', 'user', 'Which flour?'), message('a1', 'assistant', 'Spelt.')]);
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'regenerate', key: keyOf('a1') });
    accept(streams[0]!, 'q', 'a2');
    streams[0]!.report({ type: 'stream.delta', text: 'Ry' } as ChatStreamReport);
    streams[0]!.report({ type: 'stream.failed', kind: 'incomplete', message: '' } as ChatStreamReport);
    await waitFor(actor, (s) => s.matches('resuming'));
    expect(resumes[0]!.request).toEqual({ conversationId: 'conv-1', messageId: 'a2', offset: 2 });
    actor.send({ type: 'stop' });
    await waitFor(actor, (s) => s.matches(chatAt('cancelled')));
    expect(stops).toEqual([{ conversationId: 'conv-1', messageId: 'a2' }]);
    const answer = actor.getSnapshot().context.messages.at(-1)!;
    expect([answer.content, answer.status, answer.siblingIds]).toEqual(['Rye, stopped', 'incomplete', ['a1', 'a2']]);
  });

  it('moving to a version another tab is still writing reads it live', async () => {
    const path = [message('q', 'user', 'Which flour?'), writing('a1', 'Sp', ['a1', 'a2'])];
    const { actor, resumes, keyOf } = live([message('q', 'user', 'Which flour?'), message('a2', 'assistant', 'Rye.', ['a1', 'a2'])], { select: async () => path });
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'version.show', key: keyOf('a2'), offset: -1 });
    await waitFor(actor, (s) => s.matches('resuming'));
    expect(resumes[0]!.request).toEqual({ conversationId: 'conv-1', messageId: 'a1', offset: 2 });
  });

  it('a Stop wished before a refused question does not stop the next one', async () => {
    const { actor, streams } = live([message('q', 'user', 'Which flour?'), message('a1', 'assistant', 'Spelt.')]);
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'draft.change', text: 'And water?' });
    actor.send({ type: 'send' });
    actor.send({ type: 'stop' });
    streams[0]!.report({ type: 'stream.failed', kind: 'rejected', message: 'No' } as ChatStreamReport);
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'send' });
    accept(streams[1]!, 'q2', 'a3');
    expect(actor.getSnapshot().matches('streaming')).toBe(true);
  });
});

describe('chat drafts', () => {
  it('keeps one draft per conversation and per new chat, and gives each back when it is shown again', async () => {
    const { actor, persisted } = setup();
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    actor.send({ type: 'draft.change', text: 'for conv-1' });
    actor.send({ type: 'conversation.new' });
    expect(actor.getSnapshot().context.draft).toBe('');
    actor.send({ type: 'draft.change', text: 'for a new chat' });
    actor.send({ type: 'conversation.open', conversationId: 'conv-1' });
    expect(actor.getSnapshot().context.draft).toBe('for conv-1');
    actor.send({ type: 'conversation.new' });
    expect(actor.getSnapshot().context.draft).toBe('for a new chat');
    expect(Object.keys(persisted.at(-1)!).sort()).toEqual(['conv-1', 'new:SpecialNoAgentFallback']);
  });

  it("sending clears that conversation's draft, and only that one", async () => {
    const { actor, persisted } = setup();
    actor.send({ type: 'drafts.loaded', drafts: { 'conv-1': { text: 'kept from before', at: 1 }, 'conv-2': { text: 'other', at: 2 } } });
    await waitFor(actor, (s) => s.matches(chatAt('idle')));
    expect(actor.getSnapshot().context.draft).toBe('kept from before');
    actor.send({ type: 'send' });
    expect(persisted.at(-1)).toEqual({ 'conv-2': { text: 'other', at: 2 } });
  });

  it('keeps at most a bounded number of drafts, dropping the oldest', () => {
    let book: DraftBook = {};
    for (let i = 0; i < MAX_DRAFTS + 5; i++) book = writeDraft(book, `conv-${i}`, `text ${i}`);
    expect(Object.keys(book)).toHaveLength(MAX_DRAFTS);
    expect(book['conv-0']).toBeUndefined();
    expect(book[`conv-${MAX_DRAFTS + 4}`]?.text).toBe(`text ${MAX_DRAFTS + 4}`);
    book = writeDraft(book, 'conv-6', 'again');
    book = writeDraft(book, 'conv-new', 'x');
    expect(book['conv-6']?.text).toBe('again');
    expect(book['conv-5']).toBeUndefined();
    expect(Object.keys(writeDraft(book, 'conv-6', ''))).not.toContain('conv-6');
  });
});

describe('chat versions: a new version whose start was lost on the way back', () => {
  const lost = (streamed: Streamed) => streamed.report({ type: 'stream.failed', kind: 'incomplete', message: '' } as ChatStreamReport);
  const edit = async (h: ReturnType<typeof setup>, text: string) => {
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'edit.start', key: h.keyOf('q') });
    h.actor.send({ type: 'edit.change', text });
    h.actor.send({ type: 'edit.send' });
  };

  it('finds the edited question stored as a new version and reads its answer live; the edit is not given back to go twice', async () => {
    const h = setup({ later: [message('q2', 'user', 'Which flour for rye bread?', ['q', 'q2']), { ...message('r', 'assistant', 'Rye fl'), status: 'streaming' }] });
    await edit(h, ' Which flour for rye bread? ');
    lost(h.streams[0]!);

    await waitFor(h.actor, (s) => s.matches('resuming'));
    expect(h.shown()).toEqual(['Which flour for rye bread?|complete|q,q2', 'Rye fl|streaming|r']);
    expect(h.actor.getSnapshot().context.editing).toBeNull();
    expect(h.actor.getSnapshot().context.failure).toBeNull();
    expect(h.streams).toHaveLength(1);
  });

  it.each([
    ['the thread is as it was', stored],
    ['a version of the question the page knew', [message('q', 'user', 'Which flour?', ['q']), message('a2', 'assistant', 'Rye.', ['a1', 'a2'])]],
    ['a new version with other words', [message('q9', 'user', 'Something else', ['q', 'q9']), message('r9', 'assistant', 'Else.')]],
  ])('gives the edit back, open with its text and the thread as it was, when it is not there: %s', async (_case, later) => {
    const h = setup({ later });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    const before = [h.keyOf('q'), h.keyOf('a2')];
    await edit(h, 'Which flour for rye bread?');
    lost(h.streams[0]!);

    await waitFor(h.actor, (s) => s.matches(chatAt('idle')) && s.context.failure !== null);
    expect(h.loads).toHaveBeenCalledTimes(2);
    expect(h.shown()).toEqual(['Which flour?|complete|q', 'Rye.|complete|a1,a2']);
    expect(h.actor.getSnapshot().context.messages.map((m) => m.key)).toEqual(before);
    expect(h.actor.getSnapshot().context.editing).toEqual({ key: h.keyOf('q'), text: 'Which flour for rye bread?' });
    expect(h.actor.getSnapshot().context.failure).toEqual({ kind: 'incomplete', message: '' });
  });

  it('finds a new answer stored as a new version and shows it finished, as the newest version', async () => {
    const h = setup({ later: [message('q', 'user', 'Which flour?'), message('a3', 'assistant', 'Wheat.', ['a1', 'a2', 'a3'])] });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'regenerate', key: h.keyOf('a2') });
    lost(h.streams[0]!);

    await waitFor(h.actor, (s) => s.matches(chatAt('done')));
    expect(h.shown()).toEqual(['Which flour?|complete|q', 'Wheat.|complete|a1,a2,a3']);
    expect(h.streams).toHaveLength(1);
  });

  it.each([
    ['the answer shown is still the one stored', stored],
    ['the conversation cannot be read', new Error('down')],
  ])('puts the answer back when the new one is not there: %s', async (_case, later) => {
    const h = setup({ later });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'regenerate', key: h.keyOf('a2') });
    lost(h.streams[0]!);

    await waitFor(h.actor, (s) => s.matches(chatAt('idle')) && s.context.failure !== null);
    expect(h.shown()).toEqual(['Which flour?|complete|q', 'Rye.|complete|a1,a2']);
    expect(h.actor.getSnapshot().context.failure).toEqual({ kind: 'incomplete', message: '', newAnswer: true });
  });

  it('does not look for a retry: it asks nothing new, and the answer it replaces comes back at once', async () => {
    const h = setup();
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'draft.change', text: 'More?' });
    h.actor.send({ type: 'send' });
    accept(h.streams[0]!, 'q3', 'r3');
    h.streams[0]!.report({ type: 'stream.failed', kind: 'malformed', message: '' } as ChatStreamReport);
    await waitFor(h.actor, (s) => s.matches(chatAt('incomplete')));
    h.actor.send({ type: 'retry' });
    lost(h.streams[1]!);

    await waitFor(h.actor, (s) => s.matches(chatAt('incomplete')));
    expect(h.loads).toHaveBeenCalledTimes(1);
  });
});
