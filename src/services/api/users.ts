import type { UpdateUserRequest } from '../../contract/users';
import { call, type CallOptions } from '../http';

export const getUserInfo = (options?: CallOptions) => call('userInfo', undefined, options);

export const updateUser = (request: UpdateUserRequest, options?: CallOptions) => call('userUpdate', request, options);

export const updateScanId = (scanid: string, options?: CallOptions) => call('userUpdateScanId', { scanid }, options);

/** The browser asking to be signed in by a scan code, for the approval page. */
export const getScanTicket = (scanid: string, options?: CallOptions) => call('userScanTicket', { scanid }, options);

export const denyScanId = (scanid: string, options?: CallOptions) => call('userDenyScanId', { scanid }, options);

export const listSessions = (options?: CallOptions) => call('sessionList', undefined, options);

export const revokeSession = (id: string, options?: CallOptions) => call('sessionRevoke', { id }, options);

export const revokeOtherSessions = (options?: CallOptions) => call('sessionRevokeOthers', undefined, options);
