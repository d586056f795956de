import type { UpdateUserRequest } from '../../contract/users';
import { call, type CallOptions } from '../http';

export const getUserInfo = (options?: CallOptions) => call('userInfo', undefined, options);

export const updateUser = (request: UpdateUserRequest, options?: CallOptions) => call('userUpdate', request, options);

export const updateScanId = (scanid: string, options?: CallOptions) => call('userUpdateScanId', { scanid }, options);
