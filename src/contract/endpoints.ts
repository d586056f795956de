import * as v from 'valibot';
import { agentDetailQuerySchema, agentPageSchema, agentSchema, publishedListRequestSchema } from './agents';
import {
  accountDeleteRequestSchema,
  accountExportSchema,
  invitationPreviewSchema,
  passwordChangeRequestSchema,
  passwordResetRequestSchema,
  resetByMailRequestSchema,
  resetPreviewSchema,
  signupRequestSchema,
  tokenQuerySchema,
  tokenRequestSchema,
} from './accounts';
import {
  adminUserIdRequestSchema,
  adminUserListRequestSchema,
  adminUserPageSchema,
  adminUserSchema,
  adminUserUpdateRequestSchema,
  auditListRequestSchema,
  auditPageSchema,
  connectorClearRequestSchema,
  connectorListSchema,
  connectorQuerySchema,
  connectorSchema,
  connectorSetRequestSchema,
  createdInvitationSchema,
  invitationCreateRequestSchema,
  invitationIdRequestSchema,
  invitationListSchema,
  organisationCreateRequestSchema,
  organisationListSchema,
  organisationSchema,
  resetLinkSchema,
  usageRequestSchema,
  usageSchema,
} from './admin';
import { downloadManifestSchema } from './app';
import {
  adminProviderListSchema,
  adminProviderSchema,
  adminModelSchema,
  discoveredModelsSchema,
  modelIdRequestSchema,
  modelSaveRequestSchema,
  providerIdRequestSchema,
  providerSaveRequestSchema,
  usableModelListSchema,
} from './models';
import {
  agentDocumentSchema,
  agentIdQuerySchema,
  agentIdRequestSchema,
  agentImportRequestSchema,
  agentMyListRequestSchema,
  agentRestoreRequestSchema,
  agentSaveRequestSchema,
  agentVersionPageSchema,
  agentVersionSchema,
  agentVersionsRequestSchema,
  reviewDecisionRequestSchema,
  reviewListRequestSchema,
  reviewPageSchema,
  reviewRejectRequestSchema,
  studioAgentPageSchema,
  studioAgentSchema,
} from './studio';
import { applicationListRequestSchema, applicationPageSchema } from './applications';
import { googleAuthorizationSchema, loginOptionsSchema, loginRequestSchema, loginResultSchema } from './auth';
import { chatRequestSchema, chatResumeRequestSchema, chatStopRequestSchema } from './chat';
import {
  conversationIdQuerySchema,
  conversationListRequestSchema,
  conversationPageSchema,
  conversationSchema,
  createConversationRequestSchema,
  deleteConversationRequestSchema,
  updateConversationRequestSchema,
} from './conversations';
import { deleteUploadRequestSchema, fileRefSchema } from './media';
import {
  createShareRequestSchema,
  revokeShareRequestSchema,
  sharedConversationQuerySchema,
  sharedConversationSchema,
  shareListRequestSchema,
  shareListSchema,
  shareSchema,
} from './shares';
import { messageFeedbackRequestSchema, messageListSchema, messageSchema, selectMessageRequestSchema } from './messages';
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
import {
  revokedCountSchema,
  scanApprovalSchema,
  scanTicketQuerySchema,
  sessionIdRequestSchema,
  sessionListSchema,
  updateScanIdRequestSchema,
  updateUserRequestSchema,
  userInfoSchema,
} from './users';
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

import { routes, type Route, type RouteName } from './routes';

export type { Access, InputLocation } from './routes';

export type Endpoint = Route & {
  request?: v.GenericSchema;
  /** The `data` of a successful envelope; `stream` answers are server-sent events instead. */
  response?: v.GenericSchema;
};

const nothing = v.null();

/** Every route of `routes.ts` with the schemas of its input and of its answer's `data`. */
export const endpoints = {
  agentPublishedList: { ...routes.agentPublishedList, request: publishedListRequestSchema, response: agentPageSchema },
  agentDetail: { ...routes.agentDetail, request: agentDetailQuerySchema, response: agentSchema },
  agentSave: { ...routes.agentSave, request: agentSaveRequestSchema, response: studioAgentSchema },
  agentPublish: { ...routes.agentPublish, request: agentIdRequestSchema, response: studioAgentSchema },
  agentMyList: { ...routes.agentMyList, request: agentMyListRequestSchema, response: studioAgentPageSchema },
  agentDraft: { ...routes.agentDraft, request: agentIdQuerySchema, response: studioAgentSchema },
  agentVersions: { ...routes.agentVersions, request: agentVersionsRequestSchema, response: agentVersionPageSchema },
  agentRestore: { ...routes.agentRestore, request: agentRestoreRequestSchema, response: studioAgentSchema },
  agentDelete: { ...routes.agentDelete, request: agentIdRequestSchema, response: nothing },
  agentExport: { ...routes.agentExport, request: agentIdQuerySchema, response: agentDocumentSchema },
  agentImport: { ...routes.agentImport, request: agentImportRequestSchema, response: studioAgentSchema },
  modelList: { ...routes.modelList, response: usableModelListSchema },
  applicationList: { ...routes.applicationList, request: applicationListRequestSchema, response: applicationPageSchema },
  conversationCreate: { ...routes.conversationCreate, request: createConversationRequestSchema, response: conversationSchema },
  conversationList: { ...routes.conversationList, request: conversationListRequestSchema, response: conversationPageSchema },
  conversationDetail: { ...routes.conversationDetail, request: conversationIdQuerySchema, response: conversationSchema },
  conversationUpdate: { ...routes.conversationUpdate, request: updateConversationRequestSchema, response: conversationSchema },
  conversationDelete: { ...routes.conversationDelete, request: deleteConversationRequestSchema, response: nothing },
  messages: { ...routes.messages, request: conversationIdQuerySchema, response: messageListSchema },
  messageSelect: { ...routes.messageSelect, request: selectMessageRequestSchema, response: messageListSchema },
  messageFeedback: { ...routes.messageFeedback, request: messageFeedbackRequestSchema, response: messageSchema },
  chat: { ...routes.chat, request: chatRequestSchema },
  chatResume: { ...routes.chatResume, request: chatResumeRequestSchema },
  chatStop: { ...routes.chatStop, request: chatStopRequestSchema, response: messageSchema },
  login: { ...routes.login, request: loginRequestSchema, response: loginResultSchema },
  loginOptions: { ...routes.loginOptions, response: loginOptionsSchema },
  googleAuthorize: { ...routes.googleAuthorize, response: googleAuthorizationSchema },
  logout: { ...routes.logout, response: nothing },
  userInfo: { ...routes.userInfo, response: userInfoSchema },
  userUpdate: { ...routes.userUpdate, request: updateUserRequestSchema, response: userInfoSchema },
  userUpdateScanId: { ...routes.userUpdateScanId, request: updateScanIdRequestSchema, response: nothing },
  userScanTicket: { ...routes.userScanTicket, request: scanTicketQuerySchema, response: scanApprovalSchema },
  userDenyScanId: { ...routes.userDenyScanId, request: updateScanIdRequestSchema, response: nothing },
  sessionList: { ...routes.sessionList, response: sessionListSchema },
  sessionRevoke: { ...routes.sessionRevoke, request: sessionIdRequestSchema, response: nothing },
  sessionRevokeOthers: { ...routes.sessionRevokeOthers, response: revokedCountSchema },
  shareCreate: { ...routes.shareCreate, request: createShareRequestSchema, response: shareSchema },
  shareList: { ...routes.shareList, request: shareListRequestSchema, response: shareListSchema },
  shareRevoke: { ...routes.shareRevoke, request: revokeShareRequestSchema, response: nothing },
  sharedConversation: { ...routes.sharedConversation, request: sharedConversationQuerySchema, response: sharedConversationSchema },
  upload: { ...routes.upload, response: fileRefSchema },
  uploadDelete: { ...routes.uploadDelete, request: deleteUploadRequestSchema, response: nothing },
  appDownloadManifest: { ...routes.appDownloadManifest, response: downloadManifestSchema },
  wxConfig: { ...routes.wxConfig, request: wxConfigQuerySchema, response: wxConfigSchema },
  wxLogin: { ...routes.wxLogin, request: wxLoginQuerySchema, response: loginResultSchema },
  wxRegisterLogin: { ...routes.wxRegisterLogin, request: registerLoginQuerySchema, response: scanTicketSchema },
  wxValidateLogin: { ...routes.wxValidateLogin, request: validateLoginRequestSchema, response: scanStatusSchema },
  wxLoginByScanId: { ...routes.wxLoginByScanId, request: scanIdRequestSchema, response: loginResultSchema },
  operationsSession: { ...routes.operationsSession, response: operationsSessionSchema },
  taskList: { ...routes.taskList, request: taskListRequestSchema, response: taskPageSchema },
  taskDetail: { ...routes.taskDetail, request: taskIdQuerySchema, response: taskSchema },
  taskCreate: { ...routes.taskCreate, request: createTaskRequestSchema, response: taskSchema },
  taskUpdate: { ...routes.taskUpdate, request: updateTaskRequestSchema, response: taskSchema },
  taskTransition: { ...routes.taskTransition, request: transitionRequestSchema, response: taskSchema },
  taskDelete: { ...routes.taskDelete, request: taskIdRequestSchema, response: nothing },
  taskDrafting: { ...routes.taskDrafting, request: draftingRequestSchema, response: draftingSessionSchema },
  signup: { ...routes.signup, request: signupRequestSchema, response: loginResultSchema },
  invitationPreview: { ...routes.invitationPreview, request: tokenQuerySchema, response: invitationPreviewSchema },
  invitationAccept: { ...routes.invitationAccept, request: tokenRequestSchema, response: userInfoSchema },
  passwordChange: { ...routes.passwordChange, request: passwordChangeRequestSchema, response: revokedCountSchema },
  passwordResetPreview: { ...routes.passwordResetPreview, request: tokenQuerySchema, response: resetPreviewSchema },
  passwordReset: { ...routes.passwordReset, request: passwordResetRequestSchema, response: nothing },
  passwordResetByMail: { ...routes.passwordResetByMail, request: resetByMailRequestSchema, response: nothing },
  accountExport: { ...routes.accountExport, response: accountExportSchema },
  accountDelete: { ...routes.accountDelete, request: accountDeleteRequestSchema, response: nothing },
  adminUserList: { ...routes.adminUserList, request: adminUserListRequestSchema, response: adminUserPageSchema },
  adminUserUpdate: { ...routes.adminUserUpdate, request: adminUserUpdateRequestSchema, response: adminUserSchema },
  adminUserSignOut: { ...routes.adminUserSignOut, request: adminUserIdRequestSchema, response: revokedCountSchema },
  adminUserResetLink: { ...routes.adminUserResetLink, request: adminUserIdRequestSchema, response: resetLinkSchema },
  adminOrganisationList: { ...routes.adminOrganisationList, response: organisationListSchema },
  adminOrganisationCreate: { ...routes.adminOrganisationCreate, request: organisationCreateRequestSchema, response: organisationSchema },
  adminInvitationList: { ...routes.adminInvitationList, response: invitationListSchema },
  adminInvitationCreate: { ...routes.adminInvitationCreate, request: invitationCreateRequestSchema, response: createdInvitationSchema },
  adminInvitationRevoke: { ...routes.adminInvitationRevoke, request: invitationIdRequestSchema, response: nothing },
  adminConnectorList: { ...routes.adminConnectorList, request: connectorQuerySchema, response: connectorListSchema },
  adminConnectorSet: { ...routes.adminConnectorSet, request: connectorSetRequestSchema, response: connectorSchema },
  adminConnectorClear: { ...routes.adminConnectorClear, request: connectorClearRequestSchema, response: nothing },
  adminUsage: { ...routes.adminUsage, request: usageRequestSchema, response: usageSchema },
  adminAuditList: { ...routes.adminAuditList, request: auditListRequestSchema, response: auditPageSchema },
  adminModelProviderList: { ...routes.adminModelProviderList, response: adminProviderListSchema },
  adminModelProviderSave: { ...routes.adminModelProviderSave, request: providerSaveRequestSchema, response: adminProviderSchema },
  adminModelProviderDelete: { ...routes.adminModelProviderDelete, request: providerIdRequestSchema, response: nothing },
  adminModelDiscover: { ...routes.adminModelDiscover, request: providerIdRequestSchema, response: discoveredModelsSchema },
  adminModelSave: { ...routes.adminModelSave, request: modelSaveRequestSchema, response: adminModelSchema },
  adminModelDelete: { ...routes.adminModelDelete, request: modelIdRequestSchema, response: nothing },
  adminModelSetDefault: { ...routes.adminModelSetDefault, request: modelIdRequestSchema, response: adminModelSchema },
  adminAgentReviewList: { ...routes.adminAgentReviewList, request: reviewListRequestSchema, response: reviewPageSchema },
  adminAgentApprove: { ...routes.adminAgentApprove, request: reviewDecisionRequestSchema, response: agentVersionSchema },
  adminAgentReject: { ...routes.adminAgentReject, request: reviewRejectRequestSchema, response: agentVersionSchema },
} as const satisfies Record<RouteName, Endpoint>;


export type EndpointName = keyof typeof endpoints;

/** Checks the `data` of a successful answer against its endpoint's schema. */
export const checkAnswer = (
  name: EndpointName,
  data: unknown,
): { valid: true; data: unknown } | { valid: false; issues: string } => {
  const endpoint: Endpoint = endpoints[name];
  if (!endpoint.response) return { valid: true, data };
  const parsed = v.safeParse(endpoint.response, data);
  return parsed.success ? { valid: true, data: parsed.output } : { valid: false, issues: v.summarize(parsed.issues) };
};
export type EndpointData<N extends EndpointName> = (typeof endpoints)[N] extends { response: infer S extends v.GenericSchema }
  ? v.InferOutput<S>
  : never;
export type EndpointInput<N extends EndpointName> = (typeof endpoints)[N] extends { request: infer S extends v.GenericSchema }
  ? v.InferInput<S>
  : never;
