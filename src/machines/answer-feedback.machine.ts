import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { FeedbackRating, MessageFeedback } from '../contract/messages';

/** One rating on its way to the server: the answer, its new feedback (null: cleared). */
export type FeedbackChange = { conversationId: string; messageId: string; feedback: MessageFeedback | null };

export type FeedbackDialog = { conversationId: string; messageId: string; rating: FeedbackRating; comment: string };

export type AnswerFeedbackContext = {
  /** Ratings given here since the conversation was loaded, by answer id; they win over the loaded ones. */
  given: Record<string, MessageFeedback | null>;
  pending: FeedbackChange | null;
  dialog: FeedbackDialog | null;
  /** The answer whose rating could not be saved, to say so beside it. */
  failedId: string | null;
};

type Target = { conversationId: string; messageId: string; current: MessageFeedback | null };

export type AnswerFeedbackEvent =
  | ({ type: 'rate'; rating: FeedbackRating } & Target)
  | ({ type: 'comment.open' } & Target)
  | { type: 'comment.change'; text: string }
  | { type: 'comment.rating'; rating: FeedbackRating }
  | { type: 'comment.send' }
  | { type: 'comment.cancel' };

export const saveFeedbackLogic = fromPromise<unknown, FeedbackChange>(async () => {
  throw new Error('saveFeedback is provided where the app starts');
});

/** The feedback an answer shows: the one given here (even while it is saved), else the stored one. */
export const feedbackShown = (context: AnswerFeedbackContext, messageId: string, stored: MessageFeedback | null): MessageFeedback | null => {
  if (context.pending?.messageId === messageId) return context.pending.feedback;
  return messageId in context.given ? (context.given[messageId] ?? null) : stored;
};

/**
 * Thumbs up or down on answers, and a comment on the rating. A thumb rates at once; pressing the
 * pressed thumb again clears the rating. The comment dialog sends the rating with its comment;
 * if saving fails the dialog stays open with what was typed.
 */
export const answerFeedbackMachine = setup({
  types: {
    context: {} as AnswerFeedbackContext,
    events: {} as AnswerFeedbackEvent,
  },
  actors: { saveFeedback: saveFeedbackLogic },
  guards: {
    /** The thumb pressed is the rating the answer already has: pressing it again takes it back. */
    isSameRating: ({ event }) => {
      assertEvent(event, 'rate');
      return event.current?.rating === event.rating;
    },
  },
  actions: {
    pendRating: assign({
      pending: ({ event }) => {
        assertEvent(event, 'rate');
        return { conversationId: event.conversationId, messageId: event.messageId, feedback: { rating: event.rating } };
      },
      failedId: null,
    }),
    pendClearing: assign({
      pending: ({ event }) => {
        assertEvent(event, 'rate');
        return { conversationId: event.conversationId, messageId: event.messageId, feedback: null };
      },
      failedId: null,
    }),
    openDialog: assign({
      dialog: ({ event }) => {
        assertEvent(event, 'comment.open');
        return {
          conversationId: event.conversationId,
          messageId: event.messageId,
          rating: event.current?.rating ?? 'down',
          comment: event.current?.comment ?? '',
        };
      },
      failedId: null,
    }),
    changeComment: assign({
      dialog: ({ context, event }) => {
        assertEvent(event, 'comment.change');
        return context.dialog && { ...context.dialog, comment: event.text };
      },
    }),
    changeDialogRating: assign({
      dialog: ({ context, event }) => {
        assertEvent(event, 'comment.rating');
        return context.dialog && { ...context.dialog, rating: event.rating };
      },
    }),
    pendComment: assign({
      pending: ({ context }) => {
        const { conversationId, messageId, rating, comment } = context.dialog!;
        const text = comment.trim();
        return { conversationId, messageId, feedback: { rating, ...(text ? { comment: text } : {}) } };
      },
      failedId: null,
    }),
    keepSaved: assign({
      given: ({ context }) => ({ ...context.given, [context.pending!.messageId]: context.pending!.feedback }),
      pending: null,
    }),
    noteFailure: assign({ failedId: ({ context }) => context.pending?.messageId ?? null, pending: null }),
    closeDialog: assign({ dialog: null }),
  },
}).createMachine({
  id: 'answerFeedback',
  context: { given: {}, pending: null, dialog: null, failedId: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        rate: [
          { guard: 'isSameRating', target: 'saving', actions: 'pendClearing' },
          { target: 'saving', actions: 'pendRating' },
        ],
        'comment.open': { target: 'commenting', actions: 'openDialog' },
      },
    },
    saving: {
      invoke: {
        id: 'saveFeedback',
        src: 'saveFeedback',
        input: ({ context }) => context.pending!,
        onDone: { target: 'idle', actions: 'keepSaved' },
        onError: { target: 'idle', actions: 'noteFailure' },
      },
    },
    commenting: {
      on: {
        'comment.change': { actions: 'changeComment' },
        'comment.rating': { actions: 'changeDialogRating' },
        'comment.send': { target: 'savingComment', actions: 'pendComment' },
        'comment.cancel': { target: 'idle', actions: 'closeDialog' },
      },
    },
    savingComment: {
      invoke: {
        id: 'saveFeedback',
        src: 'saveFeedback',
        input: ({ context }) => context.pending!,
        onDone: { target: 'idle', actions: ['keepSaved', 'closeDialog'] },
        onError: { target: 'commenting', actions: 'noteFailure' },
      },
    },
  },
});
