import type { LoginRequest } from '../../contract/auth';
import { call, type CallOptions } from '../http';

export const loginWithPassword = (request: LoginRequest, options?: CallOptions) =>
  call('login', { ...request, loginType: request.loginType ?? 'password' }, options);

export const logout = (options?: CallOptions) => call('logout', undefined, options);
