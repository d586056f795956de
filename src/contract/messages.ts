import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { fileRefSchema } from './media';

export const MESSAGE_ROLES = ['user', 'assistant'] as const;
/**
 * `streaming` while the answer is being written; `complete` after the end event; `incomplete`
 * when the stream was cut (aborted, dropped) and what arrived is kept; `failed` when the agent
 * could not answer at all.
 */
export const MESSAGE_STATUSES = ['streaming', 'complete', 'incomplete', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

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
});
export type Message = v.InferOutput<typeof messageSchema>;

export const messageListSchema = v.array(messageSchema);

/** Body of `POST /api/workflow/agent-im/messages/select`: show this version of a message. */
export const selectMessageRequestSchema = v.object({ conversationId: idSchema, messageId: idSchema });
export type SelectMessageRequest = v.InferInput<typeof selectMessageRequestSchema>;
