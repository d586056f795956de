import type { ApplicationListRequest } from '../../contract/applications';
import { call, type CallOptions } from '../http';

export const listApplications = (request: ApplicationListRequest = {}, options?: CallOptions) =>
  call('applicationList', request, options);
