import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { editing, start, task, writing } from '../../tests/spa/task-editor-kit';
import { contentIssues } from '../contract/tasks';
import type { ChatStreamReport } from './chat-stream.actor';

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
