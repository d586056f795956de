import * as v from 'valibot';
import { accountSchema, PASSWORD_MAX, PASSWORD_MIN } from './auth';
import { timestampSchema } from './common';
import { NICKNAME_MAX, ROLES } from './users';

/**
 * Who may make an account here: anyone (`open`), only someone holding an invitation (`invite`),
 * or nobody (`closed`: accounts come from `npm run admin`).
 */
export const SIGNUP_POLICIES = ['open', 'invite', 'closed'] as const;
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number];

/** An invitation's or a reset link's one-time token: random, URL-safe. */
export const linkTokenSchema = v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z0-9_-]{20,100}$/, 'the link is not valid'));

/**
 * A new password: 8 to 128 characters, not only digits, not the account name. The same rule
 * runs in the SPA (before sending) and on the server (which decides).
 */
export const newPasswordSchema = v.pipe(
  v.string(),
  v.minLength(PASSWORD_MIN, 'password.tooShort'),
  v.maxLength(PASSWORD_MAX, 'password.tooLong'),
  v.check((value) => !/^[0-9]*$/.test(value), 'password.onlyDigits'),
);
/** Why a password is refused, as a key the SPA translates (`password.tooShort`, ...); null when it is fine. */
export const passwordProblem = (password: string, username?: string): string | null => {
  const parsed = v.safeParse(newPasswordSchema, password);
  if (!parsed.success) return parsed.issues[0]!.message;
  if (username && password.trim().toLowerCase() === username.trim().toLowerCase()) return 'password.sameAsAccount';
  return null;
};

export const signupRequestSchema = v.object({
  username: accountSchema,
  password: newPasswordSchema,
  nickname: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(NICKNAME_MAX))),
  /** The token of an invitation link: the account joins its organisation with its role. */
  invitation: v.optional(linkTokenSchema),
});
export type SignupRequest = v.InferInput<typeof signupRequestSchema>;

export const tokenQuerySchema = v.object({ token: linkTokenSchema });
export const tokenRequestSchema = v.object({ token: linkTokenSchema });

/** What an invitation link shows before anyone accepts it. */
export const invitationPreviewSchema = v.object({
  companyName: v.string(),
  role: v.picklist(ROLES),
  expiresAt: timestampSchema,
});
export type InvitationPreview = v.InferOutput<typeof invitationPreviewSchema>;

export const passwordChangeRequestSchema = v.object({
  currentPassword: v.pipe(v.string(), v.minLength(1), v.maxLength(PASSWORD_MAX)),
  newPassword: newPasswordSchema,
});
export type PasswordChangeRequest = v.InferInput<typeof passwordChangeRequestSchema>;

/** Which account a reset link is for, before the new password is chosen. */
export const resetPreviewSchema = v.object({ username: v.string(), expiresAt: timestampSchema });
export const passwordResetRequestSchema = v.object({ token: linkTokenSchema, newPassword: newPasswordSchema });
/** Asks for a reset link by e-mail; answers the same whether the account exists or not. */
export const resetByMailRequestSchema = v.object({ username: accountSchema });

/** Deleting one's account: the account name typed again, so it is not done by a slip. */
export const accountDeleteRequestSchema = v.object({ confirm: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(254)) });

/** Everything the account holds, as one JSON document the person downloads before leaving. */
export const accountExportSchema = v.object({
  exportedAt: timestampSchema,
  user: v.record(v.string(), v.unknown()),
  conversations: v.array(v.record(v.string(), v.unknown())),
  uploads: v.array(v.record(v.string(), v.unknown())),
  shares: v.array(v.record(v.string(), v.unknown())),
});
export type AccountExport = v.InferOutput<typeof accountExportSchema>;
