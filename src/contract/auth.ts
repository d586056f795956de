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

/** A one-time code handed back by WeChat or Google; their codes are far shorter than this. */
const codeSchema = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(512));

/** Account and password; the login type may be left out. */
export const passwordLoginSchema = v.object({
  loginType: v.optional(v.literal('password'), 'password'),
  username: accountSchema,
  password: v.pipe(v.string(), v.minLength(1), v.maxLength(PASSWORD_MAX)),
});

/**
 * A WeChat code: from the official account's authorisation redirect (the same exchange as
 * `GET /api/system/auth/wx-login`), or from `wx.login()` inside the mini program.
 */
export const wechatCodeLoginSchema = v.object({
  loginType: v.picklist(['wechat-official-account', 'wechat-miniprogram']),
  code: codeSchema,
});

/** The code and the state Google sent back to the redirect URI after its consent page. */
export const googleLoginSchema = v.object({
  loginType: v.literal('google-oauth'),
  code: codeSchema,
  state: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
});

/** One body per login type, told apart by `loginType` (`password` when absent). */
export const loginRequestSchema = v.variant('loginType', [passwordLoginSchema, wechatCodeLoginSchema, googleLoginSchema]);
export type LoginRequest = v.InferInput<typeof loginRequestSchema>;
export type PasswordLoginRequest = v.InferInput<typeof passwordLoginSchema>;
export type GoogleLoginRequest = Omit<v.InferInput<typeof googleLoginSchema>, 'loginType'>;

/**
 * The sign-in methods a server offers beyond the password (a server without this call offers
 * none), and who may make an account (absent: no sign-up; see accounts.ts); `resetByMail` when
 * the server can send a reset link by e-mail.
 */
export const loginOptionsSchema = v.object({
  google: v.boolean(),
  signup: v.optional(v.picklist(['open', 'invite', 'closed'])),
  resetByMail: v.optional(v.boolean()),
});
export type LoginOptions = v.InferOutput<typeof loginOptionsSchema>;

/** Where to send the person for Google's consent, and the state Google will hand back with the code. */
export const googleAuthorizationSchema = v.object({
  url: v.pipe(v.string(), v.url()),
  state: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
});
export type GoogleAuthorization = v.InferOutput<typeof googleAuthorizationSchema>;

/** What every successful login answers, whatever its type. */
export const loginResultSchema = v.object({ token: v.string(), userInfo: userInfoSchema });
export type LoginResult = v.InferOutput<typeof loginResultSchema>;
