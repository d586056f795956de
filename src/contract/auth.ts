import * as v from 'valibot';
import { userInfoSchema } from './users';

export { TOKEN_COOKIE } from './cookie';

export const LOGIN_TYPES = ['password', 'wechat-official-account', 'wechat-miniprogram', 'google-oauth'] as const;
export type LoginType = (typeof LOGIN_TYPES)[number];

/** A phone number (optionally with a leading +, 6 to 15 digits) or an e-mail address. */
export const accountSchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.maxLength(254),
  v.check(
    (value) => /^\+?[0-9]{6,15}$/.test(value) || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value),
    'account must be a phone number or an e-mail address',
  ),
);

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const loginRequestSchema = v.object({
  username: accountSchema,
  password: v.pipe(v.string(), v.minLength(1), v.maxLength(PASSWORD_MAX)),
  loginType: v.optional(v.picklist(LOGIN_TYPES), 'password'),
});
export type LoginRequest = v.InferInput<typeof loginRequestSchema>;

/** What every successful login answers, whatever its type. */
export const loginResultSchema = v.object({ token: v.string(), userInfo: userInfoSchema });
export type LoginResult = v.InferOutput<typeof loginResultSchema>;
