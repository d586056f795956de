import type { PasswordChangeRequest, SignupRequest } from '../../contract/accounts';
import { call, type CallOptions } from '../http';

/** Makes an account (as the sign-up policy allows) and answers as a login does. */
export const signup = (request: SignupRequest, options?: CallOptions) => call('signup', request, options);

export const previewInvitation = (token: string, options?: CallOptions) => call('invitationPreview', { token }, options);

/** Joins the invitation's organisation with its role, as the signed-in account. */
export const acceptInvitation = (token: string, options?: CallOptions) => call('invitationAccept', { token }, options);

/** Changes the password; every other session of the account is signed out. */
export const changePassword = (request: PasswordChangeRequest, options?: CallOptions) => call('passwordChange', request, options);

export const previewPasswordReset = (token: string, options?: CallOptions) => call('passwordResetPreview', { token }, options);

export const resetPassword = (token: string, newPassword: string, options?: CallOptions) =>
  call('passwordReset', { token, newPassword }, options);

/** Asks for a reset link by mail; the answer is the same whether the account exists or not. */
export const requestPasswordResetByMail = (username: string, options?: CallOptions) => call('passwordResetByMail', { username }, options);

export const exportAccount = (options?: CallOptions) => call('accountExport', undefined, options);

/** Deletes the account; `confirm` is the account name typed again. */
export const deleteAccount = (confirm: string, options?: CallOptions) => call('accountDelete', { confirm }, options);
