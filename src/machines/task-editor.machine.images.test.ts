import { describe, expect, it } from 'vitest';
import { editing, image, imageIds, start, task } from '../../tests/spa/task-editor-kit';
import { taskEditorView } from './task-editor.machine';

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
