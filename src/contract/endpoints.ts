import * as v from 'valibot';
import { agentDetailQuerySchema, agentPageSchema, agentSchema, publishedListRequestSchema } from './agents';
import { downloadManifestSchema } from './app';
import { applicationListRequestSchema, applicationPageSchema } from './applications';
import { loginRequestSchema, loginResultSchema } from './auth';
import { chatRequestSchema } from './chat';
import {
  conversationIdQuerySchema,
  conversationListRequestSchema,
  conversationPageSchema,
  conversationSchema,
  createConversationRequestSchema,
  deleteConversationRequestSchema,
  updateConversationRequestSchema,
} from './conversations';
import { fileRefSchema } from './media';
import { messageListSchema } from './messages';
import {
  createTaskRequestSchema,
  draftingRequestSchema,
  draftingSessionSchema,
  operationsSessionSchema,
  taskIdQuerySchema,
  taskIdRequestSchema,
  taskListRequestSchema,
  taskPageSchema,
  taskSchema,
  transitionRequestSchema,
  updateTaskRequestSchema,
} from './tasks';
import { updateScanIdRequestSchema, updateUserRequestSchema, userInfoSchema } from './users';
import {
  registerLoginQuerySchema,
  scanIdRequestSchema,
  scanStatusSchema,
  scanTicketSchema,
  validateLoginRequestSchema,
  wxConfigQuerySchema,
  wxConfigSchema,
  wxLoginQuerySchema,
} from './wechat';

/**
 * Who may call an endpoint: `user` needs a valid bearer token; `visitor` also accepts a visitor
 * (no token, identified by the `X-Visitor-Id` header); `public` needs neither.
 */
export type Access = 'public' | 'visitor' | 'user';
/** Where the input travels: JSON body, query string, multipart form, or nowhere. */
export type InputLocation = 'body' | 'query' | 'multipart' | 'none';

export type Endpoint = {
  method: 'GET' | 'POST';
  path: string;
  access: Access;
  input: InputLocation;
  request?: v.GenericSchema;
  /** The `data` of a successful envelope; `stream` answers are server-sent events instead. */
  response?: v.GenericSchema;
  stream?: true;
  summary: string;
};

const nothing = v.null();

export const endpoints = {
  agentPublishedList: {
    method: 'POST', path: '/api/workflow/agent/published-list', access: 'visitor', input: 'body',
    request: publishedListRequestSchema, response: agentPageSchema,
    summary: 'Published, non-draft agents the caller may see, newest first, paged.',
  },
  agentDetail: {
    method: 'GET', path: '/api/workflow/agent/detail', access: 'visitor', input: 'query',
    request: agentDetailQuerySchema, response: agentSchema,
    summary: 'One agent the caller may see.',
  },
  applicationList: {
    method: 'POST', path: '/api/workflow/application/list', access: 'visitor', input: 'body',
    request: applicationListRequestSchema, response: applicationPageSchema,
    summary: 'Published, non-draft applications, paged.',
  },
  conversationCreate: {
    method: 'POST', path: '/api/workflow/im/conversation/create', access: 'visitor', input: 'body',
    request: createConversationRequestSchema, response: conversationSchema,
    summary: 'Start a conversation with an agent or a workflow.',
  },
  conversationList: {
    method: 'POST', path: '/api/workflow/agent-im/conversation', access: 'visitor', input: 'body',
    request: conversationListRequestSchema, response: conversationPageSchema,
    summary: "The caller's conversations for a source, pinned first, then newest update first, paged.",
  },
  conversationDetail: {
    method: 'GET', path: '/api/workflow/agent-im/conversation/detail', access: 'visitor', input: 'query',
    request: conversationIdQuerySchema, response: conversationSchema,
    summary: "One of the caller's conversations.",
  },
  conversationUpdate: {
    method: 'POST', path: '/api/workflow/agent-im/conversation/update', access: 'visitor', input: 'body',
    request: updateConversationRequestSchema, response: conversationSchema,
    summary: "Rename or pin one of the caller's conversations.",
  },
  conversationDelete: {
    method: 'POST', path: '/api/workflow/agent-im/conversation/delete', access: 'visitor', input: 'body',
    request: deleteConversationRequestSchema, response: nothing,
    summary: "Delete one of the caller's conversations with its messages.",
  },
  messages: {
    method: 'GET', path: '/api/workflow/agent-im/messages', access: 'visitor', input: 'query',
    request: conversationIdQuerySchema, response: messageListSchema,
    summary: "Every message of one of the caller's conversations, oldest first.",
  },
  chat: {
    method: 'POST', path: '/api/workflow/sse/agent/chat', access: 'visitor', input: 'body',
    request: chatRequestSchema, stream: true,
    summary: 'Ask the agent; the answer streams back as server-sent JSON events.',
  },
  login: {
    method: 'POST', path: '/api/system/auth/login', access: 'public', input: 'body',
    request: loginRequestSchema, response: loginResultSchema,
    summary: 'Password login with a phone number or an e-mail address.',
  },
  logout: {
    method: 'POST', path: '/api/system/auth/logout', access: 'user', input: 'none', response: nothing,
    summary: 'Revoke the token the call carries.',
  },
  userInfo: {
    method: 'GET', path: '/api/system/user/get-user-info', access: 'user', input: 'none', response: userInfoSchema,
    summary: 'The signed-in user.',
  },
  userUpdate: {
    method: 'POST', path: '/api/system/user/update', access: 'user', input: 'body',
    request: updateUserRequestSchema, response: userInfoSchema,
    summary: 'Change nickname, avatar or WeChat id (the username never changes).',
  },
  userUpdateScanId: {
    method: 'POST', path: '/api/system/user/update-scanid', access: 'user', input: 'body',
    request: updateScanIdRequestSchema, response: nothing,
    summary: 'Confirm a pending scan login with the signed-in account.',
  },
  upload: {
    method: 'POST', path: '/api/media/upload', access: 'visitor', input: 'multipart', response: fileRefSchema,
    summary: 'Store one file (multipart field `file`); its kind comes from its content.',
  },
  appDownloadManifest: {
    method: 'GET', path: '/api/app/download-manifest', access: 'public', input: 'none', response: downloadManifestSchema,
    summary: 'The desktop app per platform: version, release date, installers and their links.',
  },
  wxConfig: {
    method: 'GET', path: '/api/system/openapi/wx/config', access: 'public', input: 'query',
    request: wxConfigQuerySchema, response: wxConfigSchema,
    summary: 'JS-SDK configuration signed for the given page URL.',
  },
  wxLogin: {
    method: 'GET', path: '/api/system/auth/wx-login', access: 'public', input: 'query',
    request: wxLoginQuerySchema, response: loginResultSchema,
    summary: 'Exchange a WeChat authorisation code for a token and the user.',
  },
  wxRegisterLogin: {
    method: 'GET', path: '/api/system/open-visit/user/wx/register-login', access: 'public', input: 'query',
    request: registerLoginQuerySchema, response: scanTicketSchema,
    summary: 'Open a scan-login ticket for this browser.',
  },
  wxValidateLogin: {
    method: 'POST', path: '/api/system/open-visit/user/wx/validate-login', access: 'public', input: 'body',
    request: validateLoginRequestSchema, response: scanStatusSchema,
    summary: 'Poll a scan-login ticket; once confirmed it answers the token and the user.',
  },
  wxLoginByScanId: {
    method: 'POST', path: '/api/system/auth/wx-login-by-scanid', access: 'public', input: 'body',
    request: scanIdRequestSchema, response: loginResultSchema,
    summary: 'Log in with a confirmed scan id.',
  },
  operationsSession: {
    method: 'GET', path: '/api/kraken/session/verify', access: 'user', input: 'none', response: operationsSessionSchema,
    summary: 'Checks the operator session when the operations area opens; says how each platform publishes.',
  },
  taskList: {
    method: 'POST', path: '/api/kraken/task/list', access: 'user', input: 'body',
    request: taskListRequestSchema, response: taskPageSchema,
    summary: "The operator's tasks, filtered by platform, status and title, newest update first, paged, with counts per status.",
  },
  taskDetail: {
    method: 'GET', path: '/api/kraken/task/detail', access: 'user', input: 'query',
    request: taskIdQuerySchema, response: taskSchema,
    summary: "One of the operator's tasks with its drafts, images and status history.",
  },
  taskCreate: {
    method: 'POST', path: '/api/kraken/task/create', access: 'user', input: 'body',
    request: createTaskRequestSchema, response: taskSchema,
    summary: 'Start a Xiaohongshu or LinkedIn task as a draft.',
  },
  taskUpdate: {
    method: 'POST', path: '/api/kraken/task/update', access: 'user', input: 'body',
    request: updateTaskRequestSchema, response: taskSchema,
    summary: "Change a task's title, brief, drafts, text or images, within its platform's limits.",
  },
  taskTransition: {
    method: 'POST', path: '/api/kraken/task/transition', access: 'user', input: 'body',
    request: transitionRequestSchema, response: taskSchema,
    summary: 'Move a task on: mark ready, back to draft, schedule, unschedule, or mark as published by hand.',
  },
  taskDelete: {
    method: 'POST', path: '/api/kraken/task/delete', access: 'user', input: 'body',
    request: taskIdRequestSchema, response: nothing,
    summary: "Delete one of the operator's tasks (not while it is being published).",
  },
  taskDrafting: {
    method: 'POST', path: '/api/kraken/task/drafting', access: 'user', input: 'body',
    request: draftingRequestSchema, response: draftingSessionSchema,
    summary: "Open a conversation with the platform's writer agent and answer the prompt that asks it for drafts from the brief.",
  },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof endpoints;
export type EndpointData<N extends EndpointName> = (typeof endpoints)[N] extends { response: infer S extends v.GenericSchema }
  ? v.InferOutput<S>
  : never;
export type EndpointInput<N extends EndpointName> = (typeof endpoints)[N] extends { request: infer S extends v.GenericSchema }
  ? v.InferInput<S>
  : never;
