import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { answerFeedbackMachine } from './answer-feedback.machine';

const target = { conversationId: 'conv-1', messageId: 'm-1' };

describe('commenting on an answer', () => {
  it('opens on a thumbs down with an empty comment for an answer not rated yet', () => {
    const actor = createActor(answerFeedbackMachine).start();
    actor.send({ type: 'comment.open', ...target, current: null });
    expect(actor.getSnapshot().value).toBe('commenting');
    expect(actor.getSnapshot().context.dialog).toEqual({ ...target, rating: 'down', comment: '' });
  });

  it('opens on the rating and comment the answer already has', () => {
    const actor = createActor(answerFeedbackMachine).start();
    actor.send({ type: 'comment.open', ...target, current: { rating: 'up', comment: 'Clear.' } });
    expect(actor.getSnapshot().context.dialog).toEqual({ ...target, rating: 'up', comment: 'Clear.' });
  });
});
