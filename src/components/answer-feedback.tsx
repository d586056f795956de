import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { FEEDBACK_COMMENT_MAX, type FeedbackRating, type MessageFeedback } from '../contract/messages';
import { answerFeedbackMachine, feedbackShown } from '../machines/answer-feedback.machine';
import { ModalDialog } from './modal-dialog';

export type AnswerFeedbackRef = ActorRefFrom<typeof answerFeedbackMachine>;

const THUMB_ICON: Record<FeedbackRating, string> = { up: 'i-lucide-thumbs-up', down: 'i-lucide-thumbs-down' };
const RATINGS: FeedbackRating[] = ['up', 'down'];

/** Thumbs up and down under an answer, pressed when given, and a button to comment on the rating. */
export const AnswerFeedbackButtons = ({
  feedback,
  conversationId,
  messageId,
  stored,
}: {
  feedback: AnswerFeedbackRef;
  conversationId: string;
  messageId: string;
  stored: MessageFeedback | null;
}) => {
  const { t } = useTranslation();
  const current = useSelector(feedback, (state) => feedbackShown(state.context, messageId, stored));
  const target = { conversationId, messageId, current };
  const canRate = useSelector(feedback, (state) => state.can({ type: 'rate', rating: 'up', ...target }));
  const canComment = useSelector(feedback, (state) => state.can({ type: 'comment.open', ...target }));
  const failed = useSelector(feedback, (state) => state.context.failedId === messageId && !state.context.dialog);
  return (
    <>
      {RATINGS.map((rating) => (
        <button
          key={rating}
          type="button"
          className="btn-ghost h-7 px-1.5 py-0 text-xs text-muted aria-pressed:text-accent"
          aria-pressed={current?.rating === rating}
          aria-label={rating === 'up' ? t('chat.rateUp') : t('chat.rateDown')}
          title={rating === 'up' ? t('chat.rateUp') : t('chat.rateDown')}
          disabled={!canRate}
          onClick={() => feedback.send({ type: 'rate', rating, ...target })}
        >
          <span className={THUMB_ICON[rating]} aria-hidden="true" />
        </button>
      ))}
      <button
        type="button"
        className="btn-ghost h-7 gap-1 px-1.5 py-0 text-xs text-muted"
        aria-haspopup="dialog"
        disabled={!canComment}
        onClick={() => feedback.send({ type: 'comment.open', ...target })}
      >
        <span className="i-lucide-message-square" aria-hidden="true" />
        {t('chat.feedbackComment')}
      </button>
      {failed && (
        <span role="alert" className="ms-2 text-xs text-danger">
          {t('chat.feedbackFailed')}
        </span>
      )}
    </>
  );
};

/** The comment dialog: the rating, a comment of at most FEEDBACK_COMMENT_MAX characters, Send and Cancel. */
export const AnswerFeedbackDialog = ({ feedback }: { feedback: AnswerFeedbackRef }) => {
  const { t } = useTranslation();
  const dialog = useSelector(feedback, (state) => state.context.dialog);
  // While the comment is being saved, nothing in the dialog can be changed.
  const editable = useSelector(feedback, (state) => state.can({ type: 'comment.change', text: '' }));
  const canChangeRating = useSelector(feedback, (state) => state.can({ type: 'comment.rating', rating: 'up' }));
  const canSend = useSelector(feedback, (state) => state.can({ type: 'comment.send' }));
  const canCancel = useSelector(feedback, (state) => state.can({ type: 'comment.cancel' }));
  const failed = useSelector(feedback, (state) => state.context.dialog !== null && state.context.failedId === state.context.dialog.messageId);
  return (
    <ModalDialog open={dialog !== null} onClose={() => feedback.send({ type: 'comment.cancel' })} label={t('chat.feedbackTitle')} className="w-[min(28rem,92vw)]">
      {dialog && (
        <form
          className="flex flex-col gap-3 p-4"
          onSubmit={(event) => {
            event.preventDefault();
            feedback.send({ type: 'comment.send' });
          }}
        >
          <h2 className="m-0 text-base font-semibold">{t('chat.feedbackTitle')}</h2>
          <div role="group" aria-label={t('chat.feedbackRating')} className="flex gap-2">
            {RATINGS.map((rating) => (
              <button
                key={rating}
                type="button"
                className="btn-outline aria-pressed:border-accent aria-pressed:text-accent"
                aria-pressed={dialog.rating === rating}
                disabled={!canChangeRating}
                onClick={() => feedback.send({ type: 'comment.rating', rating })}
              >
                <span className={THUMB_ICON[rating]} aria-hidden="true" />
                {rating === 'up' ? t('chat.rateUp') : t('chat.rateDown')}
              </button>
            ))}
          </div>
          <label className="flex flex-col gap-1 text-sm">
            {t('chat.feedbackCommentLabel')}
            <textarea
              dir="auto"
              rows={4}
              className="w-full resize-y rounded-xl border border-line bg-surface px-3 py-2 text-fg"
              value={dialog.comment}
              maxLength={FEEDBACK_COMMENT_MAX}
              aria-describedby="feedback-comment-hint"
              readOnly={!editable}
              onChange={(event) => feedback.send({ type: 'comment.change', text: event.target.value })}
            />
          </label>
          <p id="feedback-comment-hint" className="m-0 text-xs text-muted">
            {t('chat.feedbackCommentHint', { max: FEEDBACK_COMMENT_MAX })}
          </p>
          {failed && (
            <p role="alert" className="m-0 text-sm text-danger">
              {t('chat.feedbackFailed')}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-ghost" onClick={() => feedback.send({ type: 'comment.cancel' })} disabled={!canCancel}>
              {t('chat.feedbackCancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={!canSend}>
              {t('chat.feedbackSend')}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
};
