/**
 * Every call of the API by name: method, path, who may call it, where its input travels and what
 * it does. No schemas here, so the SPA can know every route without loading them; the schemas
 * are added to each route in `endpoints.ts`.
 */

/**
 * Who may call an endpoint: `user` needs a valid bearer token; `visitor` also accepts a visitor
 * (no token, identified by the `X-Visitor-Id` header); `public` needs neither. `operator` needs
 * the role operator or admin in an organisation, `admin` the role admin: anyone else signed in
 * is answered 403.
 */
export type Access = 'public' | 'visitor' | 'user' | 'operator' | 'admin';
/** Where the input travels: JSON body, query string, multipart form, or nowhere. */
export type InputLocation = 'body' | 'query' | 'multipart' | 'none';

export type Route = {
  method: 'GET' | 'POST';
  path: string;
  access: Access;
  input: InputLocation;
  /** Answers server-sent events instead of an envelope. */
  stream?: true;
  summary: string;
};

export const routes = {
  agentPublishedList: {
    method: 'POST', path: '/api/workflow/agent/published-list', access: 'visitor', input: 'body',
    summary: 'Published, non-draft agents the caller may see, newest first, paged.',
  },
  agentDetail: {
    method: 'GET', path: '/api/workflow/agent/detail', access: 'visitor', input: 'query',
    summary: 'One agent the caller may see.',
  },
  agentSave: {
    method: 'POST', path: '/api/workflow/agent/save', access: 'user', input: 'body',
    summary: "Make an agent (no agentId), or replace the draft of one the caller may edit; answers it with isDraft and versionId.",
  },
  agentPublish: {
    method: 'POST', path: '/api/workflow/agent/publish', access: 'user', input: 'body',
    summary: 'Publish the draft as a new version: live at once, or waiting for an admin when it is for the public market.',
  },
  agentMyList: {
    method: 'POST', path: '/api/workflow/agent/my-list', access: 'user', input: 'body',
    summary: "The caller's agents (every agent for an admin asking scope all), drafts included, newest change first, paged, with their approval state.",
  },
  agentDraft: {
    method: 'GET', path: '/api/workflow/agent/draft', access: 'user', input: 'query',
    summary: 'An agent the caller may edit, as the studio opens it: its draft, or its latest version when it has none.',
  },
  agentVersions: {
    method: 'POST', path: '/api/workflow/agent/versions', access: 'user', input: 'body',
    summary: 'The versions of an agent the caller may edit, newest first, paged, each with its content and state.',
  },
  agentRestore: {
    method: 'POST', path: '/api/workflow/agent/restore', access: 'user', input: 'body',
    summary: "Make an earlier version's content the agent's draft (publish it to put it live again).",
  },
  agentDelete: {
    method: 'POST', path: '/api/workflow/agent/delete', access: 'user', input: 'body',
    summary: 'Retire an agent: off the market for good; its conversations can still be read, not continued.',
  },
  agentExport: {
    method: 'GET', path: '/api/workflow/agent/export', access: 'user', input: 'query',
    summary: 'An agent the caller may edit as a JSON document for another installation (no ids of this one, no secrets).',
  },
  agentImport: {
    method: 'POST', path: '/api/workflow/agent/import', access: 'user', input: 'body',
    summary: "Make a private draft agent of the caller's from an exported document, read strictly.",
  },
  modelList: {
    method: 'GET', path: '/api/workflow/model/list', access: 'visitor', input: 'none',
    summary: 'The models the caller may use: name and capabilities only, the default marked.',
  },
  applicationList: {
    method: 'POST', path: '/api/workflow/application/list', access: 'visitor', input: 'body',
    summary: 'Published, non-draft applications, paged.',
  },
  conversationCreate: {
    method: 'POST', path: '/api/workflow/im/conversation/create', access: 'visitor', input: 'body',
    summary: 'Start a conversation with an agent or a workflow.',
  },
  conversationList: {
    method: 'POST', path: '/api/workflow/agent-im/conversation', access: 'visitor', input: 'body',
    summary: "The caller's conversations for a source, pinned first, then newest update first, paged.",
  },
  conversationDetail: {
    method: 'GET', path: '/api/workflow/agent-im/conversation/detail', access: 'visitor', input: 'query',
    summary: "One of the caller's conversations.",
  },
  conversationUpdate: {
    method: 'POST', path: '/api/workflow/agent-im/conversation/update', access: 'visitor', input: 'body',
    summary: "Rename or pin one of the caller's conversations.",
  },
  conversationDelete: {
    method: 'POST', path: '/api/workflow/agent-im/conversation/delete', access: 'visitor', input: 'body',
    summary: "Delete one of the caller's conversations with its messages.",
  },
  messages: {
    method: 'GET', path: '/api/workflow/agent-im/messages', access: 'visitor', input: 'query',
    summary: "The messages of one of the caller's conversations on its chosen path, oldest first, with their versions.",
  },
  messageSelect: {
    method: 'POST', path: '/api/workflow/agent-im/messages/select', access: 'visitor', input: 'body',
    summary: 'Show another version of a message: the conversation follows it, on every device.',
  },
  messageFeedback: {
    method: 'POST', path: '/api/workflow/agent-im/messages/feedback', access: 'visitor', input: 'body',
    summary: "Rate one of the caller's answers up or down, with an optional comment, or clear the rating.",
  },
  chat: {
    method: 'POST', path: '/api/workflow/sse/agent/chat', access: 'visitor', input: 'body', stream: true,
    summary: 'Ask the agent; the answer streams back as server-sent JSON events.',
  },
  chatResume: {
    method: 'POST', path: '/api/workflow/sse/agent/chat/resume', access: 'visitor', input: 'body', stream: true,
    summary: 'Read an answer again from an offset, live while it is being written, as the chat events.',
  },
  chatStop: {
    method: 'POST', path: '/api/workflow/sse/agent/chat/stop', access: 'visitor', input: 'body',
    summary: 'Stop an answer being written, from any tab; answers the stored message.',
  },
  login: {
    method: 'POST', path: '/api/system/auth/login', access: 'public', input: 'body',
    summary: 'Log in: a password, a WeChat or mini-program code, or the code Google sent back.',
  },
  loginOptions: {
    method: 'GET', path: '/api/system/auth/login-options', access: 'public', input: 'none',
    summary: 'Which sign-in methods beyond the password this server offers.',
  },
  googleAuthorize: {
    method: 'POST', path: '/api/system/auth/google/authorize', access: 'public', input: 'none',
    summary: "Start a Google sign-in: Google's authorisation page and the one-time state it returns with.",
  },
  logout: {
    method: 'POST', path: '/api/system/auth/logout', access: 'user', input: 'none',
    summary: 'Revoke the token the call carries.',
  },
  userInfo: {
    method: 'GET', path: '/api/system/user/get-user-info', access: 'user', input: 'none',
    summary: 'The signed-in user.',
  },
  userUpdate: {
    method: 'POST', path: '/api/system/user/update', access: 'user', input: 'body',
    summary: 'Change nickname, avatar or WeChat id (the username never changes).',
  },
  userUpdateScanId: {
    method: 'POST', path: '/api/system/user/update-scanid', access: 'user', input: 'body',
    summary: 'Approve a pending scan login with the signed-in account (only after the person pressed Approve).',
  },
  userScanTicket: {
    method: 'GET', path: '/api/system/user/scan-ticket', access: 'user', input: 'query',
    summary: 'The browser asking to be signed in by a scan code: device, address, when it asked and until when.',
  },
  userDenyScanId: {
    method: 'POST', path: '/api/system/user/deny-scanid', access: 'user', input: 'body',
    summary: 'Decline a pending scan login; the waiting browser is told it was declined.',
  },
  sessionList: {
    method: 'GET', path: '/api/system/user/sessions', access: 'user', input: 'none',
    summary: "The account's active sessions, the caller's own marked current, most recently used first.",
  },
  sessionRevoke: {
    method: 'POST', path: '/api/system/user/sessions/revoke', access: 'user', input: 'body',
    summary: "Sign out one of the account's sessions.",
  },
  sessionRevokeOthers: {
    method: 'POST', path: '/api/system/user/sessions/revoke-others', access: 'user', input: 'none',
    summary: "Sign out every session of the account but the caller's own.",
  },
  shareCreate: {
    method: 'POST', path: '/api/workflow/agent-im/share/create', access: 'user', input: 'body',
    summary: 'Share a snapshot of one of your conversations by link (messages up to now).',
  },
  shareList: {
    method: 'POST', path: '/api/workflow/agent-im/share/list', access: 'user', input: 'body',
    summary: 'Your share links, newest first; of one conversation when it is named.',
  },
  shareRevoke: {
    method: 'POST', path: '/api/workflow/agent-im/share/revoke', access: 'user', input: 'body',
    summary: 'Revoke one of your share links: it answers 404 from then on.',
  },
  sharedConversation: {
    method: 'GET', path: '/api/workflow/share/detail', access: 'public', input: 'query',
    summary: 'A shared conversation by its token, read-only, for anyone with the link.',
  },
  upload: {
    method: 'POST', path: '/api/media/upload', access: 'visitor', input: 'multipart',
    summary: 'Store one file (multipart field `file`); its kind comes from its content.',
  },
  uploadDelete: {
    method: 'POST', path: '/api/media/delete', access: 'visitor', input: 'body',
    summary: "Delete one of the caller's uploads: its bytes, its text and the room it took.",
  },
  appDownloadManifest: {
    method: 'GET', path: '/api/app/download-manifest', access: 'public', input: 'none',
    summary: 'The desktop app per platform: version, release date, installers and their links.',
  },
  wxConfig: {
    method: 'GET', path: '/api/system/openapi/wx/config', access: 'public', input: 'query',
    summary: 'JS-SDK configuration signed for the given page URL.',
  },
  wxLogin: {
    method: 'GET', path: '/api/system/auth/wx-login', access: 'public', input: 'query',
    summary: 'Exchange a WeChat authorisation code for a token and the user.',
  },
  wxRegisterLogin: {
    method: 'GET', path: '/api/system/open-visit/user/wx/register-login', access: 'public', input: 'query',
    summary: 'Open a scan-login ticket for this browser.',
  },
  wxValidateLogin: {
    method: 'POST', path: '/api/system/open-visit/user/wx/validate-login', access: 'public', input: 'body',
    summary: 'Poll a scan-login ticket; once confirmed it answers the token and the user.',
  },
  wxLoginByScanId: {
    method: 'POST', path: '/api/system/auth/wx-login-by-scanid', access: 'public', input: 'body',
    summary: 'Log in with a confirmed scan id.',
  },
  operationsSession: {
    method: 'GET', path: '/api/kraken/session/verify', access: 'operator', input: 'none',
    summary: 'Checks the operator session when the operations area opens (403 for anyone who is not an operator or admin of an organisation); says how each platform publishes.',
  },
  taskList: {
    method: 'POST', path: '/api/kraken/task/list', access: 'operator', input: 'body',
    summary: "The organisation's tasks, filtered by platform, status and title, newest update first, paged, with counts per status.",
  },
  taskDetail: {
    method: 'GET', path: '/api/kraken/task/detail', access: 'operator', input: 'query',
    summary: "One of the organisation's tasks with its drafts, images and status history.",
  },
  taskCreate: {
    method: 'POST', path: '/api/kraken/task/create', access: 'operator', input: 'body',
    summary: 'Start a Xiaohongshu or LinkedIn task as a draft.',
  },
  taskUpdate: {
    method: 'POST', path: '/api/kraken/task/update', access: 'operator', input: 'body',
    summary: "Change a task's title, brief, drafts, text or images, within its platform's limits.",
  },
  taskTransition: {
    method: 'POST', path: '/api/kraken/task/transition', access: 'operator', input: 'body',
    summary: 'Move a task on: mark ready, back to draft, schedule, unschedule, or mark as published by hand.',
  },
  taskDelete: {
    method: 'POST', path: '/api/kraken/task/delete', access: 'operator', input: 'body',
    summary: "Delete one of the organisation's tasks (not while it is being published).",
  },
  taskDrafting: {
    method: 'POST', path: '/api/kraken/task/drafting', access: 'operator', input: 'body',
    summary: "Open a conversation with the platform's writer agent and answer the prompt that asks it for drafts from the brief.",
  },
  signup: {
    method: 'POST', path: '/api/system/auth/signup', access: 'public', input: 'body',
    summary: 'Make an account with a password, as the sign-up policy allows (open, by invitation, closed); answers as a login.',
  },
  invitationPreview: {
    method: 'GET', path: '/api/system/auth/invitation', access: 'public', input: 'query',
    summary: 'What an invitation link offers (organisation, role, until when), before it is used.',
  },
  invitationAccept: {
    method: 'POST', path: '/api/system/user/invitation/accept', access: 'user', input: 'body',
    summary: "Join an invitation's organisation with its role, as the signed-in account.",
  },
  passwordChange: {
    method: 'POST', path: '/api/system/user/password', access: 'user', input: 'body',
    summary: "Change the account's password; every other session of the account is signed out.",
  },
  passwordResetPreview: {
    method: 'GET', path: '/api/system/auth/password-reset', access: 'public', input: 'query',
    summary: 'Which account a reset link is for, and until when it works.',
  },
  passwordReset: {
    method: 'POST', path: '/api/system/auth/password-reset', access: 'public', input: 'body',
    summary: "Choose a new password with a one-time reset link; every session of the account is signed out.",
  },
  passwordResetByMail: {
    method: 'POST', path: '/api/system/auth/password-reset/mail', access: 'public', input: 'body',
    summary: 'Send a reset link to an e-mail account when the server sends mail; answers the same whether it exists or not.',
  },
  accountExport: {
    method: 'GET', path: '/api/system/user/export', access: 'user', input: 'none',
    summary: 'Everything the account holds (profile, conversations with their messages, uploads, shares) as one JSON document.',
  },
  accountDelete: {
    method: 'POST', path: '/api/system/user/delete', access: 'user', input: 'body',
    summary: 'Delete the account with its conversations, uploads, shares and sessions (the account name typed again to confirm).',
  },
  adminUserList: {
    method: 'POST', path: '/api/admin/user/list', access: 'admin', input: 'body',
    summary: 'Accounts, searched by name and organisation, newest first, paged.',
  },
  adminUserUpdate: {
    method: 'POST', path: '/api/admin/user/update', access: 'admin', input: 'body',
    summary: "Change an account's role, organisation or whether it is disabled (a disabled account is signed out everywhere).",
  },
  adminUserSignOut: {
    method: 'POST', path: '/api/admin/user/sign-out', access: 'admin', input: 'body',
    summary: 'Sign an account out of every session.',
  },
  adminUserResetLink: {
    method: 'POST', path: '/api/admin/user/reset-link', access: 'admin', input: 'body',
    summary: 'Issue a one-time link for the account to choose a new password (shown once).',
  },
  adminOrganisationList: {
    method: 'GET', path: '/api/admin/organisation/list', access: 'admin', input: 'none',
    summary: 'Every organisation with its number of members.',
  },
  adminOrganisationCreate: {
    method: 'POST', path: '/api/admin/organisation/create', access: 'admin', input: 'body',
    summary: 'Add an organisation.',
  },
  adminInvitationList: {
    method: 'GET', path: '/api/admin/invitation/list', access: 'admin', input: 'none',
    summary: 'Invitations, newest first, with whether each was used or revoked.',
  },
  adminInvitationCreate: {
    method: 'POST', path: '/api/admin/invitation/create', access: 'admin', input: 'body',
    summary: 'Invite someone into an organisation with a role; answers the link once.',
  },
  adminInvitationRevoke: {
    method: 'POST', path: '/api/admin/invitation/revoke', access: 'admin', input: 'body',
    summary: 'Revoke an unused invitation: its link no longer works.',
  },
  adminConnectorList: {
    method: 'GET', path: '/api/admin/connector/list', access: 'admin', input: 'query',
    summary: "An organisation's publishing connectors, without their secrets.",
  },
  adminConnectorSet: {
    method: 'POST', path: '/api/admin/connector/set', access: 'admin', input: 'body',
    summary: "Set an organisation's LinkedIn token and author (stored encrypted).",
  },
  adminConnectorClear: {
    method: 'POST', path: '/api/admin/connector/clear', access: 'admin', input: 'body',
    summary: "Remove an organisation's connector: its tasks are then exported and posted by hand.",
  },
  adminUsage: {
    method: 'POST', path: '/api/admin/usage', access: 'admin', input: 'body',
    summary: 'Questions and model tokens per day, per account and per agent over the last days.',
  },
  adminAuditList: {
    method: 'POST', path: '/api/admin/audit/list', access: 'admin', input: 'body',
    summary: 'The audit log (every admin and operator action), newest first, paged; it is never changed.',
  },
  adminModelProviderList: {
    method: 'GET', path: '/api/admin/model/provider/list', access: 'admin', input: 'none',
    summary: "The model providers with their models: the console's, the environment's (read-only) and the offline responder when nothing else answers. Never a key.",
  },
  adminModelProviderSave: {
    method: 'POST', path: '/api/admin/model/provider/save', access: 'admin', input: 'body',
    summary: 'Add an OpenAI-compatible provider or change one (its key stored encrypted; absent keeps it).',
  },
  adminModelProviderDelete: {
    method: 'POST', path: '/api/admin/model/provider/delete', access: 'admin', input: 'body',
    summary: 'Remove a provider with its models (refused while a published agent answers with one of them).',
  },
  adminModelDiscover: {
    method: 'POST', path: '/api/admin/model/provider/discover', access: 'admin', input: 'body',
    summary: "Ask a provider's GET /models which models it serves (not added: save the ones wanted).",
  },
  adminModelSave: {
    method: 'POST', path: '/api/admin/model/save', access: 'admin', input: 'body',
    summary: "Add a model to a provider or change one: display name, context window, longest answer, images, enabled.",
  },
  adminModelDelete: {
    method: 'POST', path: '/api/admin/model/delete', access: 'admin', input: 'body',
    summary: 'Remove a model (refused while a published agent answers with it).',
  },
  adminModelSetDefault: {
    method: 'POST', path: '/api/admin/model/set-default', access: 'admin', input: 'body',
    summary: 'Make an enabled model the default: the one agents without a model of their own answer with.',
  },
  adminAgentReviewList: {
    method: 'POST', path: '/api/admin/agent/review/list', access: 'admin', input: 'body',
    summary: 'Agent versions sent to the public market and waiting for an admin, oldest first, with their content.',
  },
  adminAgentApprove: {
    method: 'POST', path: '/api/admin/agent/review/approve', access: 'admin', input: 'body',
    summary: 'Approve a waiting version: it goes live on the public market.',
  },
  adminAgentReject: {
    method: 'POST', path: '/api/admin/agent/review/reject', access: 'admin', input: 'body',
    summary: 'Refuse a waiting version with a reason its author reads; the agent keeps its live version.',
  },
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;
