import type { CreateShareRequest } from '../../contract/shares';
import { call, type CallOptions } from '../http';

export const createShare = (request: CreateShareRequest, options?: CallOptions) => call('shareCreate', request, options);

export const listShares = (conversationId?: string, options?: CallOptions) =>
  call('shareList', conversationId ? { conversationId } : {}, options);

export const revokeShare = (shareId: string, options?: CallOptions) => call('shareRevoke', { shareId }, options);

export const readSharedConversation = (token: string, options?: CallOptions) => call('sharedConversation', { token }, options);
