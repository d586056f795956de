import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { fileRefSchema } from './media';
import { tokenUsageSchema } from './messages';
import { answerModelSchema } from './models';

import { MESSAGE_FILES_MAX, MESSAGE_TEXT_MAX } from './constants';

export { MESSAGE_FILES_MAX, MESSAGE_TEXT_MAX };

/**
 * Body of `POST /api/workflow/sse/agent/chat`. A new question carries `text`; a retry of a
 * failed or incomplete answer carries `retryMessageId` (the user message to answer again) and
 * no text, so the question is never stored twice. An edit carries `editMessageId` (the question
 * it is a new version of) and the new `text`, and keeps that question's attachments; a new
 * version of an answer carries `regenerateMessageId` (the answer) and no text. Continuing an
 * answer that was cut short (incomplete or failed, with text) carries `continueMessageId` (the
 * answer) and no text: the model goes on from the stored text and what it adds is appended to the
 * same answer; the stream's deltas are only the added text. At most one of the four ids.
 * `modelId` asks another model of the caller's list (`GET /api/workflow/model/list`) to answer,
 * where the agent allows it (`allowModelChoice`); elsewhere it is refused (400,
 * `MODEL_CHOICE_NOT_ALLOWED`). Without it, the agent's own model answers, or the default.
 */
export const chatRequestSchema = v.pipe(
  v.object({
    conversationId: idSchema,
    agentId: idSchema,
    text: v.optional(v.pipe(v.string(), v.maxLength(MESSAGE_TEXT_MAX))),
    files: v.optional(v.pipe(v.array(fileRefSchema), v.maxLength(MESSAGE_FILES_MAX)), []),
    retryMessageId: v.optional(idSchema),
    editMessageId: v.optional(idSchema),
    regenerateMessageId: v.optional(idSchema),
    continueMessageId: v.optional(idSchema),
    modelId: v.optional(idSchema),
  }),
  v.check(
    (body) => [body.retryMessageId, body.editMessageId, body.regenerateMessageId, body.continueMessageId].filter((id) => id !== undefined).length <= 1,
    'retryMessageId, editMessageId, regenerateMessageId and continueMessageId go one at a time',
  ),
  v.check(
    (body) => body.editMessageId === undefined || ((body.text ?? '').trim().length > 0 && body.files.length === 0),
    'an edited question needs text, and keeps the attachments it had',
  ),
  v.check(
    (body) => (body.regenerateMessageId === undefined && body.continueMessageId === undefined) || (body.text === undefined && body.files.length === 0),
    'a new version or a continuation of an answer takes no text or files',
  ),
  v.check(
    (body) =>
      body.retryMessageId !== undefined ||
      body.regenerateMessageId !== undefined ||
      body.continueMessageId !== undefined ||
      (body.text ?? '').trim().length > 0 ||
      body.files.length > 0,
    'a message needs text or files',
  ),
);
export type ChatRequest = v.InferInput<typeof chatRequestSchema>;

/**
 * Body of `POST /api/workflow/sse/agent/chat/resume`: read an answer again from `offset` (the
 * number of characters of its text the reader already has), live if it is still being written.
 */
export const chatResumeRequestSchema = v.object({
  conversationId: idSchema,
  messageId: idSchema,
  offset: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER)),
});
export type ChatResumeRequest = v.InferInput<typeof chatResumeRequestSchema>;

/** Body of `POST /api/workflow/sse/agent/chat/stop`: stop an answer being written, from any tab. */
export const chatStopRequestSchema = v.object({ conversationId: idSchema, messageId: idSchema });
export type ChatStopRequest = v.InferInput<typeof chatStopRequestSchema>;

/**
 * The stream's events, one JSON object per SSE `data:` line.
 * - `start`: the server stored the question; names the user message and the answer to come,
 *   and, from servers that send them, when each was stored (the times a reload would show) and
 *   the model writing the answer.
 * - `delta`: a piece of the answer's text.
 * - `error`: the agent failed; `msg` is a generic sentence for a person and `ref` the reference
 *   under which the server logged the details. The stream closes after it.
 * - `end`: the answer is complete; `messageIds` collects every message id of this exchange;
 *   `usage`, when the model service reported what the answer cost.
 * A stream that closes without `end` is an incomplete answer.
 * Only the resume call sends the two others:
 * - `resume`: first event of a resume; the deltas that follow continue the answer's text from
 *   `offset`, which is less than the reader asked for when the stored text is shorter (a backend
 *   that shows text before storing it, and then stopped): the reader cuts its copy there. The
 *   reference server stores text before showing it, so its offset is never below the reader's.
 * - `incomplete`: the answer was stopped (Stop, a cap, a retry, a server restart) and is stored
 *   `incomplete` with exactly the text sent. The stream closes after it.
 */
export const chatEventSchema = v.variant('type', [
  v.object({
    type: v.literal('start'),
    conversationId: idSchema,
    userMessageId: idSchema,
    replyMessageId: idSchema,
    /** When the question was stored (its `createdAt`): for a retry, when it was first asked. */
    userMessageCreatedAt: v.optional(timestampSchema),
    /** When the answer was stored (its `createdAt`), empty and `streaming`. */
    replyMessageCreatedAt: v.optional(timestampSchema),
    /** The model writing the answer, from servers that say. */
    model: v.optional(answerModelSchema),
  }),
  v.object({ type: v.literal('delta'), messageId: idSchema, text: v.string() }),
  v.object({ type: v.literal('error'), msg: v.string(), ref: v.optional(v.string()) }),
  v.object({ type: v.literal('end'), messageIds: v.array(idSchema), usage: v.optional(tokenUsageSchema) }),
  v.object({ type: v.literal('resume'), messageId: idSchema, offset: v.pipe(v.number(), v.integer(), v.minValue(0)) }),
  v.object({ type: v.literal('incomplete'), messageId: idSchema }),
]);
export type ChatEvent = v.InferOutput<typeof chatEventSchema>;

export { agentFailureMessage, failureReference } from './agent-failure';
