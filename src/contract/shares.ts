import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { MESSAGE_ROLES } from './messages';

/** A share link's token: 32 random bytes in base64url (256 bits), the link's only secret. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const shareTokenSchema = v.pipe(v.string(), v.regex(SHARE_TOKEN_PATTERN, 'not a share token'));

/** Where the SPA shows a shared conversation. */
export const sharePath = (token: string) => `/share/${token}`;

/** Body of the share-create call: a snapshot of the caller's conversation as it is now. */
export const createShareRequestSchema = v.object({
  conversationId: idSchema,
  /** Show the owner's name on the shared page; off unless asked for. */
  showOwnerName: v.optional(v.boolean(), false),
});
export type CreateShareRequest = v.InferInput<typeof createShareRequestSchema>;

/** One of the owner's share links, as the owner sees it. */
export const shareSchema = v.object({
  shareId: idSchema,
  token: v.string(),
  conversationId: idSchema,
  title: v.string(),
  showOwnerName: v.boolean(),
  /** How many messages the snapshot holds. */
  messageCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  createdAt: timestampSchema,
});
export type Share = v.InferOutput<typeof shareSchema>;

export const shareListRequestSchema = v.object({ conversationId: v.optional(idSchema) });
export type ShareListRequest = v.InferInput<typeof shareListRequestSchema>;
export const shareListSchema = v.array(shareSchema);

export const revokeShareRequestSchema = v.object({ shareId: idSchema });

/** An attachment of a shared message: its name, type and size only, never its bytes or address. */
export const sharedFileSchema = v.object({ name: v.string(), mimeType: v.string(), size: v.pipe(v.number(), v.integer(), v.minValue(0)) });

export const sharedMessageSchema = v.object({
  role: v.picklist(MESSAGE_ROLES),
  content: v.string(),
  files: v.array(sharedFileSchema),
  createdAt: timestampSchema,
});
export type SharedMessage = v.InferOutput<typeof sharedMessageSchema>;

export const sharedConversationQuerySchema = v.object({ token: shareTokenSchema });

/** What anyone with the link reads: the snapshot, and the owner's name only when they chose. */
export const sharedConversationSchema = v.object({
  title: v.string(),
  ownerName: v.optional(v.string()),
  sharedAt: timestampSchema,
  messages: v.array(sharedMessageSchema),
});
export type SharedConversation = v.InferOutput<typeof sharedConversationSchema>;
