import type { GoogleLoginRequest, PasswordLoginRequest } from '../../contract/auth';
import { call, type CallOptions } from '../http';

export const loginWithPassword = (request: PasswordLoginRequest, options?: CallOptions) =>
  call('login', { ...request, loginType: 'password' }, options);

/** Finishes a Google sign-in with what Google sent back to the redirect URI. */
export const loginWithGoogle = (request: GoogleLoginRequest, options?: CallOptions) =>
  call('login', { ...request, loginType: 'google-oauth' }, options);

export const getLoginOptions = (options?: CallOptions) => call('loginOptions', undefined, options);

export const startGoogleAuthorization = (options?: CallOptions) => call('googleAuthorize', undefined, options);

export const logout = (options?: CallOptions) => call('logout', undefined, options);
