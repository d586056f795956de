import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { editing, held, image, start, task } from '../../tests/spa/task-editor-kit';
import type { Task } from '../contract/tasks';
import { formIssues, taskEditorView, type TaskEditorEvent } from './task-editor.machine';

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
