import { describe, expect, it } from 'vitest';
import { editing, start, writing } from '../../tests/spa/task-editor-kit';
import { taskEditorView } from './task-editor.machine';

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
