import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';

import { ROLES } from './roles';

export { mayAdminister, mayOperate, ROLES, type Role } from './roles';

export const userInfoSchema = v.object({
  id: idSchema,
  username: v.string(),
  /** Falls back to the username when the user has not chosen one. */
  nickname: v.string(),
  avatar: v.string(),
  wechatId: v.optional(v.string()),
  companyId: v.optional(v.string()),
  /** The organisation's name, with `companyId`. */
  companyName: v.optional(v.string()),
  /** Absent from a backend that does not speak of roles: its operations door decides alone. */
  role: v.optional(v.picklist(ROLES)),
});
export type UserInfo = v.InferOutput<typeof userInfoSchema>;

export const NICKNAME_MAX = 32;
export const WECHAT_ID_MAX = 40;

export const updateUserRequestSchema = v.object({
  nickname: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(NICKNAME_MAX))),
  /** The caller's own image upload (`/api/media/file/<id>`), `''` for none, or the avatar they have; the server checks whose upload it is. */
  avatar: v.optional(v.pipe(v.string(), v.maxLength(500))),
  /** WeChat ids are 6 to 20 characters: a letter first, then letters, digits, `_` or `-`; empty clears it. */
  wechatId: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.regex(/^[A-Za-z][-_A-Za-z0-9]{5,19}$/))])),
});
export type UpdateUserRequest = v.InferInput<typeof updateUserRequestSchema>;

export const updateScanIdRequestSchema = v.object({ scanid: idSchema });
export type UpdateScanIdRequest = v.InferInput<typeof updateScanIdRequestSchema>;

/** A browser as a person recognises it, read from its User-Agent (empty when unknown). */
export const deviceSchema = v.object({ browser: v.string(), os: v.string() });
export type BrowserInfo = v.InferOutput<typeof deviceSchema>;

export const scanTicketQuerySchema = v.object({ scanid: idSchema });
/**
 * What the person asked to approve a scan login sees before deciding: which browser asks, from
 * where, and for how long. `approved` / `denied` only to whoever decided; to anyone else a
 * decided ticket reads `expired`.
 */
export const SCAN_DECISIONS = ['waiting', 'approved', 'denied', 'expired'] as const;
export type ScanDecision = (typeof SCAN_DECISIONS)[number];
export const scanApprovalSchema = v.object({
  status: v.picklist(SCAN_DECISIONS),
  device: deviceSchema,
  /** The waiting browser's address as the server saw it. */
  address: v.string(),
  createdAt: timestampSchema,
  expiresAt: timestampSchema,
});
export type ScanApproval = v.InferOutput<typeof scanApprovalSchema>;

export const SIGN_IN_METHODS = ['password', 'wechat', 'miniprogram', 'google', 'scan'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** One signed-in browser of the account; `id` names it for signing it out and is no credential. */
export const sessionSchema = v.object({
  id: idSchema,
  device: deviceSchema,
  address: v.string(),
  /** How it signed in; absent for sessions opened before this was recorded. */
  method: v.optional(v.picklist(SIGN_IN_METHODS)),
  signedInAt: timestampSchema,
  lastUsedAt: timestampSchema,
  /** The session this call was made with. */
  current: v.boolean(),
});
export type Session = v.InferOutput<typeof sessionSchema>;
export const sessionListSchema = v.array(sessionSchema);

export const sessionIdRequestSchema = v.object({ id: idSchema });
export const revokedCountSchema = v.object({ revoked: v.number() });
