import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { ChatRequest } from '../contract/chat';
import type { FileRef } from '../contract/media';
import { contentIssues, PLATFORM_LIMITS, type Brief, type DraftingSession, type Platform, type PostLanguage, type Task } from '../contract/tasks';
import type { ChatStreamReport } from './chat-stream.actor';
import {
  formIssues,
  formOf,
  isDirty,
  REFRESH_MS,
  taskEditorMachine,
  taskEditorView,
  type SaveInput,
  type TaskEditorEvent,
  type TransitionAction,
} from './task-editor.machine';

const task = (patch: Partial<Task> = {}): Task => ({
  id: 't1',
  platform: 'linkedin',
  title: 'Launch',
  brief: { topic: 'Launch', audience: '', tone: '', keywords: [], language: 'en-US' },
  drafts: [],
  chosenDraft: null,
  body: 'We launched.',
  images: [],
  status: 'draft',
  scheduledAt: null,
  failureReason: null,
  publishedAt: null,
  externalId: null,
  externalUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  history: [],
  ...patch,
});

type Fakes = {
  load?: (input: { taskId: string }) => Promise<Task>;
  save?: (input: SaveInput) => Promise<Task>;
  transition?: (input: { taskId: string; action: TransitionAction }) => Promise<Task>;
  startDrafting?: (input: DraftingInput) => Promise<DraftingSession>;
  stream?: (request: ChatRequest, report: (event: ChatStreamReport) => void) => void;
};

type DraftingInput = { platform: Platform; brief: Brief; count: number };

/** What each call to the server was given, in order. */
type Received = {
  load: { taskId: string }[];
  save: SaveInput[];
  transition: { taskId: string; action: TransitionAction }[];
  drafting: DraftingInput[];
  upload: File[][];
};

const start = (fakes: Fakes, input: { taskId: string | null; platform?: Platform; language?: PostLanguage } = { taskId: 't1' }) => {
  const calls: string[] = [];
  const received: Received = { load: [], save: [], transition: [], drafting: [], upload: [] };
  const taskCreated = vi.fn();
  const announceSaved = vi.fn();
  const leave = vi.fn();
  const actor = createActor(
    taskEditorMachine.provide({
      actors: {
        loadTask: fromPromise(async ({ input: loadInput }) => {
          calls.push('load');
          received.load.push(loadInput);
          return (fakes.load ?? (async () => task()))(loadInput);
        }),
        saveTask: fromPromise(async ({ input: saveInput }) => {
          calls.push('save');
          received.save.push(saveInput);
          return (fakes.save ?? (async (i: SaveInput) => task({ ...i.form, images: [] })))(saveInput);
        }),
        transitionTask: fromPromise(async ({ input: transitionInput }) => {
          calls.push(`transition:${transitionInput.action.action}`);
          received.transition.push(transitionInput);
          return (fakes.transition ?? (async () => task({ status: 'ready' })))(transitionInput);
        }),
        uploadImages: fromCallback<{ type: 'noop' }, { files: File[] }>(({ input: upload }) => {
          calls.push('upload');
          received.upload.push(upload.files);
        }),
        startDrafting: fromPromise(async ({ input: drafting }) => {
          received.drafting.push(drafting);
          return (
            fakes.startDrafting ??
            (async () => ({
              conversationId: 'c1',
              agentId: 'linkedin-post-writer',
              agentName: 'LinkedIn Post Writer',
              prompt: `drafts about ${drafting.brief.topic}`,
              count: drafting.count,
            }))
          )(drafting);
        }),
        chatStream: fromCallback<{ type: 'noop' }, ChatRequest>(({ input: request, sendBack }) => {
          calls.push(request.retryMessageId ? `retry:${request.retryMessageId}` : `stream:${request.text}`);
          fakes.stream?.(request, sendBack);
        }),
      },
      actions: {
        taskCreated: (_, params) => taskCreated(params.taskId),
        announceSaved: (_, params) => announceSaved(params.status),
        leave: (_, params) => leave(params.to),
      },
    }),
    { input: { platform: 'linkedin', ...input } },
  ).start();
  return { actor, calls, received, taskCreated, announceSaved, leave };
};

/** A call the test answers when it chooses, to act while it is out. */
const held = <T>() => {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
};

const editing = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (state) => state.matches({ task: { editing: 'idle' } }));

describe('the task editor', () => {
  it('fills the title with a stored draft cut to the platform, so the task can be saved as it is', async () => {
    const stored = { title: 'Weekend camping for beginners: what to pack and what to leave at home', body: 'Tent, sleeping bag, mat. #camping' };
    const { actor } = start(
      { load: async () => task({ platform: 'xiaohongshu', drafts: [stored] }) },
      { taskId: 't1', platform: 'xiaohongshu' },
    );
    await editing(actor);
    actor.send({ type: 'drafts.pick', index: 0 });
    const { form } = actor.getSnapshot().context;
    expect(form.title).toBe('Weekend camping for…');
    expect([...form.title].length).toBeLessThanOrEqual(PLATFORM_LIMITS.xiaohongshu.titleMax);
    expect(form.body).toBe(stored.body);
    expect(formIssues(actor.getSnapshot().context).filter((issue) => issue.field !== 'images')).toEqual([]);
  });

  it('keeps every change when a save fails, and says why', async () => {
    const { actor } = start({ save: async () => Promise.reject(new Error('The database is busy.')) });
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: 'A better text' } });
    actor.send({ type: 'save' });
    const state = await editing(actor);
    expect(state.context.form.body).toBe('A better text');
    expect(state.context.failure).toEqual({ kind: 'save', message: 'The database is busy.' });
    expect(isDirty(state.context)).toBe(true);
  });

  it('saves pending edits before changing the status', async () => {
    const { actor, calls } = start({});
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: 'Edited' } });
    actor.send({ type: 'transition', action: { action: 'markReady' } });
    const state = await waitFor(actor, (snapshot) => snapshot.context.saved?.status === 'ready');
    expect(calls).toEqual(['load', 'save', 'transition:markReady']);
    expect(state.matches({ task: { editing: 'idle' } })).toBe(true);
  });

  it('refuses to save beyond the platform limit without calling the server', async () => {
    const { actor, calls } = start({});
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: 'x'.repeat(3001) } });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().matches({ task: { editing: 'idle' } })).toBe(true);
    expect(calls).toEqual(['load']);
  });

  it('reports a new task once it has an id, and only then', async () => {
    const { actor, taskCreated } = start({}, { taskId: null });
    actor.send({ type: 'form.change', patch: { title: 'New', body: 'Text' } });
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.context.taskId === 't1');
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ task: { editing: 'idle' } }));
    expect(taskCreated).toHaveBeenCalledTimes(1);
    expect(taskCreated).toHaveBeenCalledWith('t1');
  });

  it('does not let a refresh from the server overwrite unsaved edits', async () => {
    const { actor, calls } = start({});
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: 'Typing…' } });
    actor.send({ type: 'refresh' });
    expect(calls).toEqual(['load']);
    expect(actor.getSnapshot().context.form.body).toBe('Typing…');
  });

  it('says an unknown or foreign task is not found', async () => {
    const { actor } = start({ load: async () => Promise.reject(Object.assign(new Error('Task not found'), { status: 404 })) });
    const state = await waitFor(actor, (snapshot) => snapshot.matches({ task: 'notFound' }));
    expect(state.context.notFound).toBe(true);
  });

  it('splits streamed drafts as they arrive and keeps a cut-short one for a retry of the same question', async () => {
    let report: (event: ChatStreamReport) => void = () => undefined;
    const { actor, calls } = start({ stream: (_request, send) => (report = send) });
    await editing(actor);
    actor.send({ type: 'drafts.generate' });
    await waitFor(actor, (state) => state.matches({ drafting: 'streaming' }));
    report({ type: 'stream.accepted', conversationId: 'c1', userMessageId: 'u1', replyMessageId: 'r1' });
    report({ type: 'stream.delta', text: '[[DRAFT]]\nFirst one.\n[[DRAFT]]\nSec' });
    expect(actor.getSnapshot().context.form.drafts.map((draft) => draft.body)).toEqual(['First one.', 'Sec']);
    report({ type: 'stream.failed', kind: 'incomplete', message: 'The answer broke off.' });
    expect(actor.getSnapshot().matches({ drafting: 'cut' })).toBe(true);
    expect(actor.getSnapshot().context.drafting.lastDraftPartial).toBe(true);
    expect(actor.getSnapshot().context.drafting.failure).toEqual({ kind: 'incomplete', message: 'The answer broke off.' });

    actor.send({ type: 'drafts.retry' });
    expect(calls).toEqual(['load', 'stream:drafts about Launch', 'retry:u1']);
    report({ type: 'stream.delta', text: '[[DRAFT]]\nA\n[[DRAFT]]\nB' });
    report({ type: 'stream.ended', messageIds: ['u1', 'r2'] });
    const state = actor.getSnapshot();
    expect(state.matches({ drafting: 'done' })).toBe(true);
    expect(state.context.form.drafts.map((draft) => draft.body)).toEqual(['A', 'B']);
    expect(state.context.drafting).toMatchObject({ lastDraftPartial: false, failure: null });
    actor.send({ type: 'drafts.pick', index: 1 });
    expect(actor.getSnapshot().context.form).toMatchObject({ body: 'B', chosenDraft: 1 });
  });

  it('offers no retry when the writer never accepted the question', async () => {
    let report: (event: ChatStreamReport) => void = () => undefined;
    const { actor } = start({ stream: (_request, send) => (report = send) });
    await editing(actor);
    actor.send({ type: 'drafts.generate' });
    await waitFor(actor, (state) => state.matches({ drafting: 'streaming' }));
    report({ type: 'stream.failed', kind: 'rejected', message: 'Too many requests' });
    const state = actor.getSnapshot();
    expect(state.matches({ drafting: 'failed' })).toBe(true);
    expect(state.context.drafting.failure).toEqual({ kind: 'rejected', message: 'Too many requests' });
    expect(state.can({ type: 'drafts.retry' })).toBe(false);
    expect(state.can({ type: 'drafts.generate' })).toBe(true);
  });

  it('keeps the brief, the number of drafts and the choice as they are while drafts are written', async () => {
    let report: (event: ChatStreamReport) => void = () => undefined;
    const { actor } = start({ stream: (_request, send) => (report = send) });
    await editing(actor);
    actor.send({ type: 'drafts.generate' });
    await waitFor(actor, (state) => state.matches({ drafting: 'streaming' }));
    report({ type: 'stream.accepted', conversationId: 'c1', userMessageId: 'u1', replyMessageId: 'r1' });
    report({ type: 'stream.delta', text: '[[DRAFT]]\nFirst one.\n[[DRAFT]]\nSec' });
    const before = actor.getSnapshot().context;
    expect(taskEditorView.briefOpen(actor.getSnapshot())).toBe(false);
    for (const event of [
      { type: 'brief.change', patch: { topic: 'Another topic' } },
      { type: 'drafts.count', count: 5 },
      { type: 'drafts.pick', index: 0 },
    ] as const) {
      expect(actor.getSnapshot().can(event), event.type).toBe(false);
      actor.send(event);
    }
    const after = actor.getSnapshot().context;
    expect(after.form.brief).toEqual(before.form.brief);
    expect(after.draftCount).toBe(before.draftCount);
    expect(after.form.chosenDraft).toBe(before.form.chosenDraft);
    report({ type: 'stream.ended', messageIds: ['u1', 'r1'] });
    expect(actor.getSnapshot().can({ type: 'brief.change', patch: { topic: 'Another topic' } })).toBe(true);
    expect(taskEditorView.briefOpen(actor.getSnapshot())).toBe(true);
  });
});

const image = (fileId: string): FileRef => ({ fileId, name: `${fileId}.png`, url: `/files/${fileId}`, kind: 'image', mimeType: 'image/png', size: 1000 });

const imageIds = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().context.form.images.map((file) => file.fileId);

/** Drafts being written for the task, the writer's answer reported by the test. */
const writing = async (fakes: Fakes = {}, input?: { taskId: string | null; platform?: Platform }) => {
  let report: (event: ChatStreamReport) => void = () => undefined;
  const started = start({ ...fakes, stream: (_request, send) => (report = send) }, input);
  await editing(started.actor);
  started.actor.send({ type: 'drafts.generate' });
  await waitFor(started.actor, (state) => state.matches({ drafting: 'streaming' }));
  return { ...started, report: (event: ChatStreamReport) => report(event) };
};

describe('a task as it opens', () => {
  it('starts a new task blank, its brief in Chinese until the operator picks a language, without asking the server', () => {
    const { actor, calls } = start({}, { taskId: null });
    const state = actor.getSnapshot();
    expect(state.matches({ task: { editing: 'idle' } })).toBe(true);
    expect(state.context.form).toEqual({
      title: '',
      brief: { topic: '', audience: '', tone: '', keywords: [], language: 'zh-CN' },
      drafts: [],
      chosenDraft: null,
      body: '',
      images: [],
    });
    expect(state.context.notFound).toBe(false);
    expect(state.context.drafting).toEqual({ session: null, answer: '', userMessageId: null, accepted: false, lastDraftPartial: false, failure: null });
    expect(taskEditorView.unsaved(state)).toBe(false);
    expect(taskEditorView.actionsOffered(state)).toEqual(['markReady']);
    expect(calls).toEqual([]);
  });

  it('loads the task it was opened on, its stored drafts not marked unfinished', async () => {
    const stored = task({ drafts: [{ title: '', body: 'One' }, { title: '', body: 'Two' }] });
    const { actor, received } = start({ load: async () => stored });
    const state = await editing(actor);
    expect(received.load).toEqual([{ taskId: 't1' }]);
    expect(state.context.form).toEqual(formOf(stored));
    expect(state.context.notFound).toBe(false);
    expect(state.context.drafting.lastDraftPartial).toBe(false);
    expect(taskEditorView.unsaved(state)).toBe(false);
  });

  it.each([
    ['a server error', Object.assign(new Error('The server is down.'), { status: 500 }), 'The server is down.'],
    ['a refusal without a reason', null, 'null'],
    ['nothing at all', undefined, 'undefined'],
    ['a bare message', 'offline', 'offline'],
  ])('offers a reload, not "not found", when the task fails to load with %s', async (_name, error, message) => {
    let attempts = 0;
    const { actor, calls } = start({ load: async () => (++attempts === 1 ? Promise.reject(error) : task()) });
    const failed = await waitFor(actor, (state) => state.matches({ task: 'loadFailed' }));
    expect(failed.status).toBe('active');
    expect(failed.context.notFound).toBe(false);
    expect(failed.context.failure).toEqual({ kind: 'load', message });
    actor.send({ type: 'reload' });
    const state = await editing(actor);
    expect(state.context.failure).toBeNull();
    expect(calls).toEqual(['load', 'load']);
  });
});

describe('what can be edited', () => {
  it.each(['draft', 'failed'] as const)('saves a %s task with its title still missing', async (status) => {
    const { actor, calls } = start({ load: async () => task({ status }) });
    await editing(actor);
    actor.send({ type: 'form.change', patch: { title: '' } });
    expect(formIssues(actor.getSnapshot().context)).toEqual([]);
    actor.send({ type: 'save' });
    await editing(actor);
    expect(calls).toEqual(['load', 'save']);
  });

  it('saves a new task with only its text written', async () => {
    const { actor, calls } = start({}, { taskId: null });
    actor.send({ type: 'form.change', patch: { body: 'Only the text so far.' } });
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.context.taskId === 't1');
    expect(calls).toEqual(['save']);
  });

  it('refuses to save a task on its way to publishing with its text missing', async () => {
    const { actor, calls } = start({ load: async () => task({ status: 'ready' }) });
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: '' } });
    expect(formIssues(actor.getSnapshot().context)).toContainEqual(expect.objectContaining({ field: 'body', kind: 'missing' }));
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().matches({ task: { editing: 'idle' } })).toBe(true);
    expect(calls).toEqual(['load']);
  });

  it.each(['publishing', 'published'] as const)('keeps the content of a %s task as it is', async (status) => {
    const images = [image('a'), image('b')];
    const { actor, calls } = start({ load: async () => task({ status, images }) });
    const before = (await editing(actor)).context.form;
    const refused: TaskEditorEvent[] = [
      { type: 'form.change', patch: { body: 'Changed' } },
      { type: 'images.remove', fileId: 'a' },
      { type: 'images.move', fileId: 'a', by: 1 },
      { type: 'images.add', files: [new File(['x'], 'c.png')] },
      { type: 'drafts.count', count: 5 },
    ];
    for (const event of refused) actor.send(event);
    const state = actor.getSnapshot();
    expect(state.context.form).toEqual(before);
    expect(state.context.draftCount).toBe(3);
    expect(state.matches({ uploads: 'idle' })).toBe(true);
    expect(calls).toEqual(['load']);
    expect(taskEditorView.editable(state)).toBe(false);
    expect(taskEditorView.briefOpen(state)).toBe(false);
  });
});

describe('the images', () => {
  it('removes the image the operator took out', async () => {
    const { actor } = start({ load: async () => task({ images: [image('a'), image('b'), image('c')] }) });
    await editing(actor);
    actor.send({ type: 'images.remove', fileId: 'b' });
    expect(imageIds(actor)).toEqual(['a', 'c']);
    expect(taskEditorView.unsaved(actor.getSnapshot())).toBe(true);
  });

  it('moves an image one place earlier or later, the first and the last staying where they are', async () => {
    const { actor } = start({ load: async () => task({ images: [image('a'), image('b'), image('c')] }) });
    await editing(actor);
    const moves: [string, -1 | 1, string[]][] = [
      ['a', -1, ['a', 'b', 'c']],
      ['c', 1, ['a', 'b', 'c']],
      ['gone', 1, ['a', 'b', 'c']],
      ['gone', -1, ['a', 'b', 'c']],
      ['a', 1, ['b', 'a', 'c']],
      ['a', -1, ['a', 'b', 'c']],
      ['b', 1, ['a', 'c', 'b']],
    ];
    for (const [fileId, by, expected] of moves) {
      actor.send({ type: 'images.move', fileId, by });
      expect(imageIds(actor), `${fileId} by ${by}`).toEqual(expected);
    }
  });

  it('uploads the files added and keeps those that arrived when some failed, saying why', async () => {
    const { actor, received } = start({ load: async () => task({ images: [image('a')] }) });
    await editing(actor);
    const files = [new File(['b'], 'b.png'), new File(['c'], 'c.png')];
    actor.send({ type: 'images.add', files });
    expect(actor.getSnapshot().matches({ uploads: 'uploading' })).toBe(true);
    expect(received.upload).toEqual([files]);
    actor.send({ type: 'uploads.done', files: [image('b')], error: 'c.png is too large.' });
    const state = actor.getSnapshot();
    expect(state.matches({ uploads: 'idle' })).toBe(true);
    expect(imageIds(actor)).toEqual(['a', 'b']);
    expect(state.context.failure).toEqual({ kind: 'upload', message: 'c.png is too large.' });
    actor.send({ type: 'dismissFailure' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    expect(imageIds(actor)).toEqual(['a', 'b']);
  });
});

describe('asking for drafts', () => {
  it('asks for between one and five drafts, whole, about the brief', async () => {
    const { actor, received } = start({});
    await editing(actor);
    expect(actor.getSnapshot().context.draftCount).toBe(3);
    for (const [count, expected] of [
      [0, 1],
      [9, 5],
      [2.6, 3],
      [2, 2],
    ] as const) {
      actor.send({ type: 'drafts.count', count });
      expect(actor.getSnapshot().context.draftCount, `${count}`).toBe(expected);
    }
    actor.send({ type: 'drafts.generate' });
    await waitFor(actor, (state) => state.matches({ drafting: 'streaming' }));
    expect(received.drafting).toEqual([{ platform: 'linkedin', brief: task().brief, count: 2 }]);
  });

  it('does not ask for drafts about a blank topic', async () => {
    const { actor } = start({});
    await editing(actor);
    actor.send({ type: 'brief.change', patch: { topic: '   ' } });
    expect(actor.getSnapshot().can({ type: 'drafts.generate' })).toBe(false);
  });

  it('says why the writer could not be asked', async () => {
    const { actor } = start({ startDrafting: async () => Promise.reject(new Error('No writer agent for LinkedIn.')) });
    await editing(actor);
    actor.send({ type: 'drafts.generate' });
    const state = await waitFor(actor, (snapshot) => snapshot.matches({ drafting: 'failed' }));
    expect(state.context.drafting.failure).toEqual({ kind: 'start', message: 'No writer agent for LinkedIn.' });
    expect(state.can({ type: 'drafts.retry' })).toBe(false);
    expect(state.can({ type: 'drafts.generate' })).toBe(true);
  });

  it.each<['done' | 'cut' | 'failed', ChatStreamReport]>([
    ['done', { type: 'stream.ended', messageIds: ['u1', 'r1'] }],
    ['cut', { type: 'stream.failed', kind: 'incomplete', message: 'The answer broke off.' }],
    ['failed', { type: 'stream.failed', kind: 'rejected', message: 'Too many requests' }],
  ])('asks again once %s only with a topic', async (ending, last) => {
    const { actor, report } = await writing();
    if (ending !== 'failed') report({ type: 'stream.accepted', conversationId: 'c1', userMessageId: 'u1', replyMessageId: 'r1' });
    report(last);
    expect(actor.getSnapshot().matches({ drafting: ending })).toBe(true);
    actor.send({ type: 'brief.change', patch: { topic: '' } });
    expect(actor.getSnapshot().can({ type: 'drafts.generate' })).toBe(false);
    actor.send({ type: 'brief.change', patch: { topic: 'Launch week' } });
    expect(actor.getSnapshot().can({ type: 'drafts.generate' })).toBe(true);
  });

  it('takes a picked draft title for the task only on Xiaohongshu', async () => {
    const linkedin = start({ load: async () => task({ drafts: [{ title: 'A headline', body: 'The post.' }] }) });
    await editing(linkedin.actor);
    linkedin.actor.send({ type: 'drafts.pick', index: 0 });
    expect(linkedin.actor.getSnapshot().context.form).toMatchObject({ title: 'Launch', body: 'The post.', chosenDraft: 0 });

    const xiaohongshu = start(
      { load: async () => task({ platform: 'xiaohongshu', title: '露营', drafts: [{ title: '', body: '帐篷和睡袋。' }] }) },
      { taskId: 't1', platform: 'xiaohongshu' },
    );
    await editing(xiaohongshu.actor);
    xiaohongshu.actor.send({ type: 'drafts.pick', index: 0 });
    expect(xiaohongshu.actor.getSnapshot().context.form).toMatchObject({ title: '露营', body: '帐篷和睡袋。', chosenDraft: 0 });
  });

  it("names an unnamed LinkedIn task after the picked post's first line, so it can be marked ready", async () => {
    const post = '**Three lessons from our launch week** #launch\n\nWe shipped on Monday. Here is what we learned.';
    const { actor } = start({ load: async () => task({ title: '', drafts: [{ title: '', body: post }] }) });
    await editing(actor);
    actor.send({ type: 'drafts.pick', index: 0 });
    expect(actor.getSnapshot().context.form).toMatchObject({ title: 'Three lessons from our launch week', body: post, chosenDraft: 0 });
    const { form } = actor.getSnapshot().context;
    expect(contentIssues('linkedin', { title: form.title, body: form.body, imageCount: 0 }, true)).toEqual([]);
  });

  it("writes a new task's posts in the interface's language, and an existing task's in its own", async () => {
    const fresh = start({}, { taskId: null, language: 'en-US' });
    expect(fresh.actor.getSnapshot().context.form.brief.language).toBe('en-US');
    expect(fresh.actor.getSnapshot().context.baseline.brief.language).toBe('en-US');
    const stored = start({ load: async () => task({ brief: { ...task().brief, language: 'de-DE' } }) }, { taskId: 't1', language: 'en-US' });
    await editing(stored.actor);
    expect(stored.actor.getSnapshot().context.form.brief.language).toBe('de-DE');
  });
});

describe('saving and moving a task on', () => {
  it('creates a new task, reports its id and says it was saved', async () => {
    const { actor, received, taskCreated, announceSaved } = start(
      { save: async (input) => task({ ...input.form, id: 't9', platform: 'xiaohongshu' }) },
      { taskId: null, platform: 'xiaohongshu' },
    );
    actor.send({ type: 'form.change', patch: { title: '露营', body: '帐篷和睡袋。' } });
    const sent = actor.getSnapshot().context.form;
    actor.send({ type: 'save' });
    const state = await waitFor(actor, (snapshot) => snapshot.context.taskId === 't9');
    expect(received.save).toEqual([{ taskId: null, platform: 'xiaohongshu', form: sent }]);
    expect(taskCreated.mock.calls).toEqual([['t9']]);
    expect(announceSaved.mock.calls).toEqual([['draft']]);
    expect(state.matches({ task: { editing: 'idle' } })).toBe(true);
    expect(state.context.saved?.id).toBe('t9');
    expect(taskEditorView.unsaved(state)).toBe(false);
  });

  it('saves a task with what the operator wrote, takes the server copy and says it was saved', async () => {
    const { actor, received, announceSaved, taskCreated } = start({ save: async (input) => task({ ...input.form, title: input.form.title.trim() }) });
    await editing(actor);
    actor.send({ type: 'form.change', patch: { title: 'Launch day  ', body: 'We launched today.' } });
    const sent = actor.getSnapshot().context.form;
    actor.send({ type: 'save' });
    await waitFor(actor, (snapshot) => snapshot.matches({ task: { editing: 'saving' } }));
    const state = await editing(actor);
    expect(received.save).toEqual([{ taskId: 't1', platform: 'linkedin', form: sent }]);
    expect(state.context.form).toMatchObject({ title: 'Launch day', body: 'We launched today.' });
    expect(taskEditorView.unsaved(state)).toBe(false);
    expect(announceSaved.mock.calls).toEqual([['draft']]);
    expect(taskCreated).not.toHaveBeenCalled();
  });

  it.each([
    ['an existing task', 't1'],
    ['a new task', null],
  ])('keeps what the operator typed while %s was being saved', async (_name, taskId) => {
    const answer = held<Task>();
    const { actor } = start({ save: async () => answer.promise }, { taskId });
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: 'First words.' } });
    actor.send({ type: 'save' });
    actor.send({ type: 'form.change', patch: { body: 'First words, and more.' } });
    answer.resolve(task({ body: 'First words.' }));
    const state = await waitFor(actor, (snapshot) => snapshot.context.saved !== null && snapshot.matches({ task: { editing: 'idle' } }));
    expect(state.context.form.body).toBe('First words, and more.');
    expect(taskEditorView.unsaved(state)).toBe(true);
  });

  it('moves a saved task on, and shows the server copy of it', async () => {
    const { actor, received, calls, announceSaved } = start({ transition: async () => task({ status: 'ready', body: 'We launched, as the server has it.' }) });
    await editing(actor);
    expect(taskEditorView.actionsOffered(actor.getSnapshot())).toEqual(['markReady']);
    actor.send({ type: 'transition', action: { action: 'markReady' } });
    const state = await waitFor(actor, (snapshot) => snapshot.context.saved?.status === 'ready');
    expect(calls).toEqual(['load', 'transition:markReady']);
    expect(received.transition).toEqual([{ taskId: 't1', action: { action: 'markReady' } }]);
    expect(state.context.form.body).toBe('We launched, as the server has it.');
    expect(state.context.pendingAction).toBeNull();
    expect(announceSaved.mock.calls).toEqual([['ready']]);
    expect(taskEditorView.actionsOffered(state)).toEqual(['backToDraft', 'schedule']);
  });

  it('creates a new task and moves it on in one go, what was typed during the save still in the form as the status change goes out', async () => {
    const saved = held<Task>();
    const moved = held<Task>();
    const { actor, calls, received, taskCreated, announceSaved } = start({ save: async () => saved.promise, transition: async () => moved.promise }, { taskId: null });
    actor.send({ type: 'form.change', patch: { title: 'New', body: 'Text' } });
    actor.send({ type: 'transition', action: { action: 'markReady' } });
    actor.send({ type: 'form.change', patch: { body: 'Text, and more' } });
    saved.resolve(task({ id: 't7', title: 'New', body: 'Text' }));
    const transitioning = await waitFor(actor, (state) => state.matches({ task: { editing: 'transitioning' } }));
    expect(transitioning.context.taskId).toBe('t7');
    expect(transitioning.context.form.body).toBe('Text, and more');
    expect(taskCreated.mock.calls).toEqual([['t7']]);
    expect(received.transition).toEqual([{ taskId: 't7', action: { action: 'markReady' } }]);
    moved.resolve(task({ id: 't7', title: 'New', body: 'Text', status: 'ready' }));
    const state = await waitFor(actor, (snapshot) => snapshot.context.saved?.status === 'ready');
    expect(state.matches({ task: { editing: 'idle' } })).toBe(true);
    expect(calls).toEqual(['save', 'transition:markReady']);
    expect(taskCreated).toHaveBeenCalledTimes(1);
    expect(announceSaved.mock.calls).toEqual([['ready']]);
    expect(state.context.form.body).toBe('Text, and more');
  });

  it('still holds what was typed during the save before a status change as the status change goes out', async () => {
    const saved = held<Task>();
    const moved = held<Task>();
    const { actor, received } = start({ save: async () => saved.promise, transition: async () => moved.promise });
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: 'Edited' } });
    actor.send({ type: 'transition', action: { action: 'markReady' } });
    actor.send({ type: 'form.change', patch: { body: 'Edited twice' } });
    saved.resolve(task({ body: 'Edited' }));
    const transitioning = await waitFor(actor, (state) => state.matches({ task: { editing: 'transitioning' } }));
    expect(transitioning.context.form.body).toBe('Edited twice');
    expect(received.transition).toEqual([{ taskId: 't1', action: { action: 'markReady' } }]);
    moved.resolve(task({ body: 'Edited', status: 'ready' }));
    const state = await waitFor(actor, (snapshot) => snapshot.context.saved?.status === 'ready');
    // Nothing typed is lost: the text stays, unsaved, on top of the server's copy.
    expect(state.context.form.body).toBe('Edited twice');
    expect(taskEditorView.mustAskBeforeLeaving(state)).toBe(true);
  });

  it('takes the server copy on a refresh when nothing was edited', async () => {
    let loads = 0;
    const { actor, received } = start({ load: async () => task(++loads === 1 ? {} : { body: 'Changed on the server.' }) });
    await editing(actor);
    actor.send({ type: 'refresh' });
    expect(actor.getSnapshot().matches({ task: { editing: 'refreshing' } })).toBe(true);
    const state = await editing(actor);
    expect(received.load).toEqual([{ taskId: 't1' }, { taskId: 't1' }]);
    expect(state.context.form.body).toBe('Changed on the server.');
    expect(taskEditorView.unsaved(state)).toBe(false);
  });

  it('lets the operator dismiss a failure, their changes kept', async () => {
    const { actor } = start({ save: async () => Promise.reject(new Error('The database is busy.')) });
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: 'A better text' } });
    actor.send({ type: 'save' });
    expect((await editing(actor)).context.failure).not.toBeNull();
    actor.send({ type: 'dismissFailure' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    expect(actor.getSnapshot().context.form.body).toBe('A better text');
  });
});

describe('leaving the task', () => {
  it('lets the operator leave at once when nothing would be lost', async () => {
    const { actor, leave } = start({});
    await editing(actor);
    expect(taskEditorView.mustAskBeforeLeaving(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'leave.request', to: '/tasks' });
    expect(actor.getSnapshot().matches({ leaving: 'staying' })).toBe(true);
    expect(leave).not.toHaveBeenCalled();
  });

  it('asks before unsaved changes are left behind, and stays when told', async () => {
    const { actor, leave } = start({});
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: 'Unsaved' } });
    expect(taskEditorView.mustAskBeforeLeaving(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'leave.request', to: '/tasks' });
    expect(actor.getSnapshot().matches({ leaving: 'asking' })).toBe(true);
    expect(actor.getSnapshot().context.leaveTo).toBe('/tasks');
    actor.send({ type: 'leave.stay' });
    const state = actor.getSnapshot();
    expect(state.matches({ leaving: 'staying' })).toBe(true);
    expect(state.context.leaveTo).toBeNull();
    expect(state.context.form.body).toBe('Unsaved');
    expect(leave).not.toHaveBeenCalled();
  });

  it('goes where the operator last asked once they confirm', async () => {
    const { actor, leave } = start({});
    await editing(actor);
    actor.send({ type: 'form.change', patch: { body: 'Unsaved' } });
    actor.send({ type: 'leave.request', to: '/tasks' });
    actor.send({ type: 'leave.request', to: '/agents' });
    expect(actor.getSnapshot().matches({ leaving: 'asking' })).toBe(true);
    expect(actor.getSnapshot().context.leaveTo).toBe('/agents');
    actor.send({ type: 'leave.confirm' });
    const state = actor.getSnapshot();
    expect(leave.mock.calls).toEqual([['/agents']]);
    expect(state.matches({ leaving: 'staying' })).toBe(true);
    expect(state.context.leaveTo).toBeNull();
  });

  it('asks before leaving drafts being written', async () => {
    const { actor, report } = await writing();
    expect(taskEditorView.unsaved(actor.getSnapshot())).toBe(false);
    expect(taskEditorView.mustAskBeforeLeaving(actor.getSnapshot())).toBe(true);
    report({ type: 'stream.ended', messageIds: ['u1', 'r1'] });
    actor.send({ type: 'save' });
    await editing(actor);
    expect(taskEditorView.mustAskBeforeLeaving(actor.getSnapshot())).toBe(false);
  });
});

describe('a task the scheduler may move on', () => {
  const NOW = Date.parse('2026-03-02T09:00:00.000Z');
  const at = (ms: number) => new Date(NOW + ms).toISOString();

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const watch = async (opened: Partial<Task>) => {
    const started = start({ load: async () => task(opened) });
    await editing(started.actor);
    const loads = () => started.calls.filter((call) => call === 'load').length;
    return { ...started, loads };
  };

  it('does not look again before the time set has come, then looks at the next tick', async () => {
    const { loads } = await watch({ status: 'scheduled', scheduledAt: at(REFRESH_MS + 2000) });
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads()).toBe(2);
  });

  it('looks again at the very moment the task is due', async () => {
    const { loads } = await watch({ status: 'scheduled', scheduledAt: at(REFRESH_MS) });
    await vi.advanceTimersByTimeAsync(REFRESH_MS - 1);
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads()).toBe(2);
  });

  it('keeps looking again while the task is being published', async () => {
    const { loads } = await watch({ status: 'publishing', scheduledAt: null });
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads()).toBe(2);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads()).toBe(3);
  });

  it('never looks again at a task the scheduler does not hold', async () => {
    const { loads } = await watch({ status: 'ready' });
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 3);
    expect(loads()).toBe(1);
  });
});
