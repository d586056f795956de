import type { MessageFeedbackRequest } from '../../contract/messages';
import type {
  ConversationListRequest,
  CreateConversationRequest,
  UpdateConversationRequest,
} from '../../contract/conversations';
import { call, type CallOptions } from '../http';

export const createConversation = (request: CreateConversationRequest, options?: CallOptions) =>
  call('conversationCreate', request, options);

export const listConversations = (request: ConversationListRequest = {}, options?: CallOptions) =>
  call('conversationList', request, options);

export const getConversation = (conversationId: string, options?: CallOptions) =>
  call('conversationDetail', { conversationId }, options);

export const updateConversation = (request: UpdateConversationRequest, options?: CallOptions) =>
  call('conversationUpdate', request, options);

export const deleteConversation = (conversationId: string, options?: CallOptions) =>
  call('conversationDelete', { conversationId }, options);

export const listMessages = (conversationId: string, options?: CallOptions) =>
  call('messages', { conversationId }, options);

export const selectMessage = (conversationId: string, messageId: string, options?: CallOptions) =>
  call('messageSelect', { conversationId, messageId }, options);

/** Stops an answer being written, wherever it was asked; answers the answer as stored. */
export const stopAnswer = (conversationId: string, messageId: string, options?: CallOptions) =>
  call('chatStop', { conversationId, messageId }, options);

/** Rates an answer up or down with an optional comment; a null rating clears it. */
export const rateAnswer = (request: MessageFeedbackRequest, options?: CallOptions) => call('messageFeedback', request, options);
