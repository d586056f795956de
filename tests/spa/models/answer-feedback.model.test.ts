import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { MessageFeedback } from '../../../src/contract/messages';
import { answerFeedbackMachine, feedbackShown, type FeedbackChange } from '../../../src/machines/answer-feedback.machine';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * Rating an answer, on paths generated from the machine that ships: thumbs pressed (again, to
 * take the rating back), the comment dialog opened, typed in, its rating changed, sent or
 * cancelled, and the server saving or refusing. Each path is played on the real machine, the
 * save answered by hand, and checked against the product's rules: the answer shows the rating
 * given (at once, and after saving), a refused save shows the stored rating again and says so,
 * and a comment typed is never lost when saving fails.
 */
type Snapshot = SnapshotFrom<typeof answerFeedbackMachine>;
const TARGET = { conversationId: 'c-1', messageId: 'a-1' };
const STORED: MessageFeedback | null = null;

const EVENTS: ModelEvent[] = [
  { type: 'rate', rating: 'up', ...TARGET, current: null },
  { type: 'rate', rating: 'up', ...TARGET, current: { rating: 'up' } },
  { type: 'comment.open', ...TARGET, current: { rating: 'up', comment: 'Good' } },
  { type: 'comment.change', text: '  Too long  ' },
  { type: 'comment.rating', rating: 'down' },
  { type: 'comment.send' },
  { type: 'comment.cancel' },
  { type: 'xstate.done.actor.saveFeedback', output: {} },
  { type: 'xstate.error.actor.saveFeedback', error: { status: 500 } },
];
const serializeState = (state: Snapshot) =>
  JSON.stringify([state.value, state.context.given, state.context.dialog?.rating, state.context.dialog?.comment, state.context.failedId]);
const { paths, transitionCount, reachedStates } = productionPaths(answerFeedbackMachine, { events: EVENTS, serializeState });

/** What the person sees, by the product's rules. */
type Expected = {
  /** The rating the answer shows. */
  shown: MessageFeedback | null;
  /** The rating the server keeps. */
  saved: MessageFeedback | null;
  /** A save under way: what it sends. */
  sending: MessageFeedback | null | undefined;
  dialog: { rating: string; comment: string } | null;
  failed: boolean;
  saves: number;
};

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  switch (event.type) {
    case 'rate': {
      const feedback = (event.current as MessageFeedback | null)?.rating === event.rating ? null : { rating: event.rating as 'up' };
      return { ...before, shown: feedback, sending: feedback, failed: false, saves: before.saves + 1 };
    }
    case 'comment.open': {
      const current = event.current as MessageFeedback;
      return { ...before, dialog: { rating: current.rating, comment: current.comment ?? '' }, failed: false };
    }
    case 'comment.change':
      return { ...before, dialog: { ...before.dialog!, comment: event.text as string } };
    case 'comment.rating':
      return { ...before, dialog: { ...before.dialog!, rating: event.rating as string } };
    case 'comment.send': {
      const comment = before.dialog!.comment.trim();
      const feedback = { rating: before.dialog!.rating, ...(comment ? { comment } : {}) } as MessageFeedback;
      return { ...before, shown: feedback, sending: feedback, failed: false, saves: before.saves + 1 };
    }
    case 'comment.cancel':
      return { ...before, dialog: null };
    // Saved: the answer keeps what was sent, and the dialog closes.
    case 'xstate.done.actor.saveFeedback':
      return { ...before, saved: before.sending!, shown: before.sending!, sending: undefined, dialog: null };
    // Refused: the answer shows what the server keeps, says so, and the dialog keeps what was typed.
    case 'xstate.error.actor.saveFeedback':
      return { ...before, shown: before.saved, sending: undefined, failed: true };
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

const play = async (events: ModelEvent[]) => {
  const saves: { input: FeedbackChange; settle: (ok: boolean) => Promise<void> }[] = [];
  const actor = createActor(
    answerFeedbackMachine.provide({
      actors: {
        saveFeedback: fromPromise<unknown, FeedbackChange>(
          ({ input }) =>
            new Promise((resolve, reject) => {
              const done = new Promise<void>((settled) => {
                saves.push({
                  input,
                  settle: async (ok) => {
                    if (ok) resolve({});
                    else reject(new Error('refused'));
                    settled();
                  },
                });
              });
              void done;
            }),
        ),
      },
    }),
  ).start();
  let expected: Expected = { shown: STORED, saved: STORED, sending: undefined, dialog: null, failed: false, saves: 0 };
  for (const event of events) {
    if (event.type.startsWith('xstate.')) {
      await saves.at(-1)!.settle(event.type.startsWith('xstate.done'));
      // the promise's settling reaches the machine a few microtasks later
      for (let tick = 0; tick < 5; tick++) await Promise.resolve();
    } else {
      actor.send(event as never);
    }
    expected = EXPECTED_AFTER(expected, event);
    const after = event.type;
    const { context } = actor.getSnapshot();
    expect(feedbackShown(context, TARGET.messageId, STORED) ?? null, after).toEqual(expected.shown);
    expect(saves, after).toHaveLength(expected.saves);
    if (expected.sending !== undefined) expect(saves.at(-1)!.input, after).toEqual({ ...TARGET, feedback: expected.sending });
    expect(context.dialog && { rating: context.dialog.rating, comment: context.dialog.comment }, after).toEqual(expected.dialog);
    expect(context.failedId === TARGET.messageId, after).toBe(expected.failed);
  }
  actor.stop();
};

describe('rating answers, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    expect([...reachedStates].sort()).toEqual(Object.keys(answerFeedbackMachine.root.states).map((state) => JSON.stringify(state)).sort());
    // four states, each with what it holds (the ratings given, the dialog, a failure) told apart
    expect(transitionCount).toBe(288);
  });

  it.each(paths.map((path) => [describeEvents(path.events), path] as const))('%s', async (_description, path) => {
    await play(path.events);
  });
});
