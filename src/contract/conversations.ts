import * as v from 'valibot';
import { agentTranslationsSchema } from './agents';
import { idSchema, timestampSchema } from './common';
import { pageRequestEntries, pageSchema } from './paging';

export const CONVERSATION_SOURCES = ['agent', 'workflow'] as const;
export const conversationSourceSchema = v.picklist(CONVERSATION_SOURCES);
export type ConversationSource = (typeof CONVERSATION_SOURCES)[number];

export const TITLE_MAX = 100;

/** What a `workflow` conversation's header shows of its application. */
export const conversationApplicationSchema = v.object({
  name: v.string(),
  avatar: v.string(),
  intro: v.string(),
  /** Its name and intro in other languages, as the applications list gives them. */
  translations: v.optional(agentTranslationsSchema),
});
export type ConversationApplication = v.InferOutput<typeof conversationApplicationSchema>;

export const conversationSchema = v.object({
  conversationId: idSchema,
  source: conversationSourceSchema,
  sourceId: idSchema,
  title: v.string(),
  pinned: v.boolean(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  /** In a keyword search: a piece of a message holding the words, when one does, as plain text (no markdown). */
  match: v.optional(v.string()),
  /** Where in `match` the words are (JavaScript string indices), for the list to mark them. */
  matchAt: v.optional(v.object({ start: v.pipe(v.number(), v.integer(), v.minValue(0)), length: v.pipe(v.number(), v.integer(), v.minValue(1)) })),
  /** A `workflow` conversation: its application, while the caller can still see it. */
  application: v.optional(conversationApplicationSchema),
  /** An agent conversation: the agent's version it talks to (its last question's), when known. */
  agentVersionId: v.optional(v.string()),
  /** A preview of an agent's draft by its author: answered by the draft, never listed. */
  preview: v.optional(v.boolean()),
});
export type Conversation = v.InferOutput<typeof conversationSchema>;

export const createConversationRequestSchema = v.object({
  sourceId: idSchema,
  source: v.optional(conversationSourceSchema, 'agent'),
  title: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(TITLE_MAX))),
  /**
   * Who wrote `title`: the person (the default), or `question`, the first words of the question
   * the chat is started for, which a title the model writes after the first answer replaces.
   */
  titleBy: v.optional(v.picklist(['person', 'question'])),
  /**
   * A preview of the agent's draft (`sourceId` an agent the caller may edit: its author or an
   * admin): its questions are answered by the draft as it is when each is asked. Never listed.
   */
  preview: v.optional(v.boolean()),
});
export type CreateConversationRequest = v.InferInput<typeof createConversationRequestSchema>;

export const conversationListRequestSchema = v.object({
  ...pageRequestEntries,
  source: v.optional(conversationSourceSchema, 'agent'),
  /** When given, the conversations of all these sources, in one list (instead of `source`). */
  sources: v.optional(v.pipe(v.array(conversationSourceSchema), v.minLength(1), v.maxLength(CONVERSATION_SOURCES.length))),
  keyword: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
});
export type ConversationListRequest = v.InferInput<typeof conversationListRequestSchema>;

export const conversationPageSchema = pageSchema(conversationSchema);

export const conversationIdQuerySchema = v.object({ conversationId: idSchema });
export type ConversationIdQuery = v.InferInput<typeof conversationIdQuerySchema>;

export const updateConversationRequestSchema = v.object({
  conversationId: idSchema,
  title: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(TITLE_MAX))),
  pinned: v.optional(v.boolean()),
});
export type UpdateConversationRequest = v.InferInput<typeof updateConversationRequestSchema>;

export const deleteConversationRequestSchema = v.object({ conversationId: idSchema });
export type DeleteConversationRequest = v.InferInput<typeof deleteConversationRequestSchema>;
