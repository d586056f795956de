import * as v from 'valibot';
import { idSchema } from './common';

export const userInfoSchema = v.object({
  id: idSchema,
  username: v.string(),
  /** Falls back to the username when the user has not chosen one. */
  nickname: v.string(),
  avatar: v.string(),
  wechatId: v.optional(v.string()),
  companyId: v.optional(v.string()),
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
