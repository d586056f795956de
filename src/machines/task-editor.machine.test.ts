import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { editing, start, task } from '../../tests/spa/task-editor-kit';
import { PLATFORM_LIMITS } from '../contract/tasks';
import type { ChatStreamReport } from './chat-stream.actor';
import { formIssues, formOf, isDirty, taskEditorView } from './task-editor.machine';

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
