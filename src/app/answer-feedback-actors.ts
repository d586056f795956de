import { fromPromise } from 'xstate';
import { answerFeedbackMachine, type FeedbackChange } from '../machines/answer-feedback.machine';

/** Ratings go to the server; a failure is said beside the answer, not in a toast. */
export const answerFeedbackLogic = answerFeedbackMachine.provide({
  actors: {
    saveFeedback: fromPromise<unknown, FeedbackChange>(async ({ input }) => {
      const { rateAnswer } = await import('../services/api/conversations');
      return rateAnswer(
        {
          conversationId: input.conversationId,
          messageId: input.messageId,
          rating: input.feedback?.rating ?? null,
          ...(input.feedback?.comment ? { comment: input.feedback.comment } : {}),
        },
        { silent: true },
      );
    }),
  },
});
