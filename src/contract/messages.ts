import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { fileRefSchema } from './media';
import { answerModelSchema } from './models';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
/**
 * `streaming` while the answer is being written; `complete` after the end event; `incomplete`
 * when the stream was cut (aborted, dropped) and what arrived is kept; `failed` when the agent
 * could not answer at all.
 */
export const MESSAGE_STATUSES = ['streaming', 'complete', 'incomplete', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const FEEDBACK_RATINGS = ['up', 'down'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];
export const FEEDBACK_COMMENT_MAX = 1000;

/** The owner's verdict on an answer: thumbs up or down, with an optional comment. */
export const messageFeedbackSchema = v.object({
  rating: v.picklist(FEEDBACK_RATINGS),
  comment: v.optional(v.pipe(v.string(), v.maxLength(FEEDBACK_COMMENT_MAX))),
});
export type MessageFeedback = v.InferOutput<typeof messageFeedbackSchema>;

/** What the model service reported an answer cost, in tokens, when it reports it. */
export const tokenUsageSchema = v.object({
  promptTokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
  completionTokens: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type TokenUsage = v.InferOutput<typeof tokenUsageSchema>;

export const messageSchema = v.object({
  messageId: idSchema,
  conversationId: idSchema,
  role: v.picklist(MESSAGE_ROLES),
  content: v.string(),
  status: v.picklist(MESSAGE_STATUSES),
  files: v.array(fileRefSchema),
  error: v.optional(v.string()),
  createdAt: timestampSchema,
  /** The message before this one on its path; null for the first. */
  parentId: v.optional(v.nullable(idSchema)),
  /**
   * This message and its other versions (same parent: the question edited, the answer
   * regenerated), oldest first; one id when it has no other version.
   */
  siblingIds: v.optional(v.array(idSchema)),
  /** On an answer its owner rated. */
  feedback: v.optional(messageFeedbackSchema),
  /** On an answer whose model service reported its cost. */
  usage: v.optional(tokenUsageSchema),
  /** On an answer: the model that wrote it (from servers that record it). */
  model: v.optional(answerModelSchema),
});
export type Message = v.InferOutput<typeof messageSchema>;

export const messageListSchema = v.array(messageSchema);

/** Body of `POST /api/workflow/agent-im/messages/select`: show this version of a message. */
export const selectMessageRequestSchema = v.object({ conversationId: idSchema, messageId: idSchema });
export type SelectMessageRequest = v.InferInput<typeof selectMessageRequestSchema>;

/**
 * Body of `POST /api/workflow/agent-im/messages/feedback`: rate an answer, or clear the rating
 * with `rating: null`. The comment is trimmed; an empty one is no comment.
 */
export const messageFeedbackRequestSchema = v.object({
  conversationId: idSchema,
  messageId: idSchema,
  rating: v.nullable(v.picklist(FEEDBACK_RATINGS)),
  comment: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(FEEDBACK_COMMENT_MAX))),
});
export type MessageFeedbackRequest = v.InferInput<typeof messageFeedbackRequestSchema>;
