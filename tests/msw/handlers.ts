import { HttpResponse, type HttpHandler } from 'msw';
import { passwordProblem } from '../../src/contract/accounts';
import type { EndpointName } from '../../src/contract/endpoints';
import type { Message } from '../../src/contract/messages';
import { MODEL_ERRORS, type AnswerModel } from '../../src/contract/models';
import { adminHandlers } from './admin-handlers';
import {
  db,
  DEFAULT_ANSWER,
  issueToken,
  nextId,
  nextTimestamp,
  publicUser,
  type ScanTicketState,
  type StoredInvitation,
  userOwner,
} from './db';
import { sampleManifest } from './download-manifest';
import { FakeApiError, failBody, ok, ownerOf, page, requireUser, route, type Caller } from './fake-api';
import { eventStream, type StreamStep } from './sse';
import { studioHandlers, studioPreviewHandler } from './studio-handlers';
import { taskHandlers } from './tasks';

/**
 * The fake API: one handler per endpoint of the contract, at the contract's path (see
 * fake-api.ts for how each checks its input, its caller and its answer).
 */

export { FakeApiError, fail, failBody } from './fake-api';

/** Approves or declines a waiting ticket as the real server does: expired 410, already answered 409. */
const decideScanTicket = (userId: string, scanId: string, decision: 'confirmed' | 'denied') => {
  const ticket = db.scanTickets.get(scanId);
  if (!ticket) throw new FakeApiError(404, 'Scan id not found');
  if (ticket.status !== 'waiting') throw new FakeApiError(409, 'This login code was already answered.');
  if (Date.parse(ticket.expiresAt) <= Date.now()) {
    throw new FakeApiError(410, 'This login code has expired. Ask for a new code on the other device.');
  }
  Object.assign(ticket, { status: decision, userId });
};

const ownConversation = (caller: Caller, conversationId: string) => {
  const owner = ownerOf(caller);
  const stored = db.conversations.get(conversationId);
  if (!stored || stored.owner !== owner) throw new FakeApiError(404, 'Conversation not found');
  return stored;
};

const visible = <T extends { owner: string }>(stored: T): Omit<T, 'owner'> => {
  const { owner: _owner, ...rest } = stored;
  return rest;
};

/** Like the server: a workflow conversation names its application while it is published. */
const described = <T extends { owner: string; source: string; sourceId: string }>(stored: T) => {
  const conversation = visible(stored);
  const application = stored.source === 'workflow' ? db.applications.find((item) => item.applicationId === stored.sourceId && item.published && !item.isDraft) : undefined;
  if (!application) return conversation;
  const { name, avatar, intro, translations } = application;
  return { ...conversation, application: { name, avatar, intro, ...(translations ? { translations } : {}) } };
};


/** A scan ticket, only for the browser that opened it (its fingerPrint), like the real server. */
const ownScanTicket = (id: string, fingerPrint: string): ScanTicketState => {
  const ticket = db.scanTickets.get(id);
  if (!ticket || ticket.fingerPrint !== fingerPrint) throw new FakeApiError(404, 'Scan id not found');
  return ticket;
};

const loginResult = (userId: string) => {
  const userInfo = publicUser(userId);
  if (!userInfo) throw new FakeApiError(500, 'user vanished');
  return { token: issueToken(userId), userInfo };
};

/** The chosen path of a conversation, each message with its versions, like the real server. */
export const pathOf = (conversationId: string): Message[] => {
  const all = db.messages.get(conversationId) ?? [];
  const byId = new Map(all.map((message) => [message.messageId, message]));
  const chosen = db.leaves.get(conversationId);
  const path: Message[] = [];
  for (let row = (chosen ? byId.get(chosen) : undefined) ?? all.at(-1); row; row = row.parentId ? byId.get(row.parentId) : undefined) {
    path.unshift(row);
  }
  return path.map((message) => ({
    ...message,
    parentId: message.parentId ?? null,
    siblingIds: all.filter((other) => (other.parentId ?? null) === (message.parentId ?? null)).map((other) => other.messageId),
  }));
};

/** Where a path through this message ends: its newest versions below, all the way down. */
const newestLeafUnder = (all: Message[], messageId: string): string => {
  let id = messageId;
  for (let child = all.findLast((m) => m.parentId === id); child; child = all.findLast((m) => m.parentId === id)) id = child.messageId;
  return id;
};

type ChatInput = {
  conversationId: string;
  agentId: string;
  text?: string;
  retryMessageId?: string;
  editMessageId?: string;
  regenerateMessageId?: string;
  continueMessageId?: string;
  modelId?: string;
};

/** A refusal that names what went wrong (the envelope's `reason`), as the server words model refusals. */
class ModelRefusal extends FakeApiError {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(400, message);
  }
}

/**
 * Like the server (server/models/registry.ts, `answeringModel`): the agent's own model while it
 * is in the registry, else the default; another model only where the agent lets people choose,
 * and only one of the registry's. A workflow's application answers with the default alone.
 */
const answeringModel = (input: ChatInput, source: string): AnswerModel => {
  const agent = source === 'agent' ? db.agents.find((item) => item.agentId === input.agentId) : undefined;
  const fallback = db.models.find((model) => model.isDefault) ?? db.models[0];
  const own = db.models.find((model) => model.id === agent?.modelId) ?? fallback;
  if (!own) throw new FakeApiError(500, 'No model is configured.');
  const chosen = input.modelId === undefined || input.modelId === own.id ? own : undefined;
  if (chosen) return { id: chosen.id, name: chosen.name };
  if (!agent?.allowModelChoice) throw new ModelRefusal(MODEL_ERRORS.choiceNotAllowed, 'This agent answers with its own model: choosing another is not allowed.');
  const other = db.models.find((model) => model.id === input.modelId);
  if (!other) throw new ModelRefusal(MODEL_ERRORS.unknown, 'This model is not available. Choose one of the list.');
  return { id: other.id, name: other.name };
};

/** Plays the default answer (or a queued one) and stores the exchange, like the real server. */
const ownAnswer = (caller: Caller, conversationId: string, messageId: string): Message => {
  ownConversation(caller, conversationId);
  const answer = db.messages.get(conversationId)?.find((message) => message.messageId === messageId && message.role === 'assistant');
  if (!answer) throw new FakeApiError(404, 'Message not found');
  return answer;
};

/** Like the server: the stored answer from the offset, then how it ended. */
const resumeSteps = (answer: Message, offset: number): StreamStep[] => {
  const from = Math.min(offset, answer.content.length);
  const rest = answer.content.slice(from);
  return [
    { type: 'resume', messageId: answer.messageId, offset: from },
    ...(rest ? [{ type: 'delta', messageId: answer.messageId, text: rest } satisfies StreamStep] : []),
    ...(answer.status === 'complete' ? [{ type: 'end', messageIds: [answer.messageId] } satisfies StreamStep] : []),
    ...(answer.status === 'incomplete' ? [{ type: 'incomplete', messageId: answer.messageId } satisfies StreamStep] : []),
    ...(answer.status === 'failed' ? [{ type: 'error', msg: answer.error ?? '' } satisfies StreamStep] : []),
  ];
};

/** Like the server's Continue: the same answer written on, its deltas only the added text. */
const continueSteps = (conversationId: string, answer: Message, model: AnswerModel): StreamStep[] => {
  if (answer.status !== 'incomplete' && answer.status !== 'failed') throw new FakeApiError(409, 'This answer is complete.');
  if (answer.content === '') throw new FakeApiError(409, 'This answer has no text to continue; retry it instead.');
  const { pieces, cut } = db.answers.shift() ?? { pieces: DEFAULT_ANSWER, cut: false };
  answer.content += pieces.join('');
  answer.status = cut ? 'incomplete' : 'complete';
  answer.model = model;
  delete answer.error;
  const userMessageId = answer.parentId ?? '';
  return [
    { type: 'start', conversationId, userMessageId, replyMessageId: answer.messageId, model },
    ...pieces.map((text): StreamStep => ({ type: 'delta', messageId: answer.messageId, text })),
    ...(cut ? [] : [{ type: 'end', messageIds: [userMessageId, answer.messageId] } satisfies StreamStep]),
  ];
};

const chatSteps = (input: ChatInput, caller: Caller): StreamStep[] => {
  const conversation = ownConversation(caller, input.conversationId);
  // Refused before anything is stored, as the server refuses before the stream opens.
  const model = answeringModel(input, conversation.source);
  if (input.continueMessageId) return continueSteps(input.conversationId, ownAnswer(caller, input.conversationId, input.continueMessageId), model);
  const history = db.messages.get(conversation.conversationId) ?? [];
  const find = (id: string, role: Message['role']) => {
    const found = history.find((message) => message.messageId === id && message.role === role);
    if (!found) throw new FakeApiError(404, 'Message not found');
    return found;
  };
  const ask = (parentId: string | null, content: string, files: Message['files']): Message => {
    const question: Message = {
      messageId: nextId('msg'),
      conversationId: conversation.conversationId,
      role: 'user',
      content,
      status: 'complete',
      files,
      createdAt: nextTimestamp(),
      parentId,
    };
    history.push(question);
    return question;
  };
  let userMessage: Message;
  let replaced = -1;
  if (input.retryMessageId) {
    userMessage = find(input.retryMessageId, 'user');
    const index = history.findIndex((message) => message.parentId === userMessage.messageId && message.role === 'assistant');
    if (index >= 0) {
      history.splice(index, 1);
      replaced = index;
    }
  } else if (input.editMessageId) {
    const edited = find(input.editMessageId, 'user');
    userMessage = ask(edited.parentId ?? null, input.text ?? '', edited.files);
  } else if (input.regenerateMessageId) {
    userMessage = find(find(input.regenerateMessageId, 'assistant').parentId ?? '', 'user');
  } else {
    userMessage = ask(pathOf(conversation.conversationId).at(-1)?.messageId ?? null, input.text ?? '', []);
  }
  const { pieces, cut } = db.answers.shift() ?? { pieces: DEFAULT_ANSWER, cut: false };
  const reply: Message = {
    messageId: nextId('msg'),
    conversationId: conversation.conversationId,
    role: 'assistant',
    content: pieces.join(''),
    status: cut ? 'incomplete' : 'complete',
    files: [],
    createdAt: nextTimestamp(),
    parentId: userMessage.messageId,
    model,
  };
  if (replaced >= 0) history.splice(replaced, 0, reply);
  else history.push(reply);
  db.messages.set(conversation.conversationId, history);
  db.leaves.set(conversation.conversationId, reply.messageId);
  conversation.updatedAt = nextTimestamp();
  return [
    {
      type: 'start',
      conversationId: conversation.conversationId,
      userMessageId: userMessage.messageId,
      replyMessageId: reply.messageId,
      userMessageCreatedAt: userMessage.createdAt,
      replyMessageCreatedAt: reply.createdAt,
      model,
    },
    ...pieces.map((text): StreamStep => ({ type: 'delta', messageId: reply.messageId, text })),
    ...(cut ? [] : [{ type: 'end', messageIds: [userMessage.messageId, reply.messageId] } satisfies StreamStep]),
  ];
};

/** Like the server: the newest message of the conversation holding the words, as a snippet, with where they are. */
const matchIn = (conversationId: string, keyword: string): { match: string; matchAt: { start: number; length: number } } | undefined => {
  if (!keyword) return undefined;
  const found = (db.messages.get(conversationId) ?? []).findLast((message) => message.content.toLowerCase().includes(keyword));
  return found ? { match: found.content, matchAt: { start: found.content.toLowerCase().indexOf(keyword), length: keyword.length } } : undefined;
};

/** Like the server: an unknown link is 404; one expired, used or revoked is 410. */
const usableInvitation = (token: string): StoredInvitation => {
  const invitation = db.invitations.get(token);
  if (!invitation) throw new FakeApiError(404, 'Invitation not found');
  if (invitation.acceptedAt || invitation.revokedAt || Date.parse(invitation.expiresAt) <= Date.now()) {
    throw new FakeApiError(410, 'This invitation has expired or was already used.');
  }
  return invitation;
};

const usableResetLink = (token: string) => {
  const link = db.resetLinks.get(token);
  if (!link || !db.users.has(link.userId)) throw new FakeApiError(404, 'Reset link not found');
  if (link.usedAt || Date.parse(link.expiresAt) <= Date.now()) throw new FakeApiError(410, 'This reset link has expired or was already used.');
  return link;
};

/** Signs the account out everywhere, or everywhere but the session `keep`; answers how many ended. */
const endSessions = (userId: string, keep?: string): number => {
  const ended = [...db.sessions].filter(([token, owner]) => owner === userId && token !== keep);
  for (const [token] of ended) {
    db.sessions.delete(token);
    db.sessionDetails.delete(token);
  }
  return ended.length;
};

const refuseWeakPassword = (password: string, username: string) => {
  const problem = passwordProblem(password, username);
  if (problem) throw new FakeApiError(400, `Invalid request: ${problem}`);
};

const joinOrganisation = (userId: string, invitation: StoredInvitation) => {
  Object.assign(db.users.get(userId)!, { role: invitation.role, companyId: invitation.companyId, companyName: invitation.companyName });
  invitation.acceptedAt = nextTimestamp();
};

export const handlers = {
  agentPublishedList: route('agentPublishedList', ({ input }) => {
    const keyword = (input.keyword ?? '').toLowerCase();
    const items = db.agents.filter(
      (agent) =>
        agent.published && !agent.isDraft && agent.name.toLowerCase().includes(keyword) && (!input.category || agent.category === input.category),
    );
    return ok('agentPublishedList', page(items, input.current, input.pageSize));
  }),
  agentDetail: route('agentDetail', ({ input }) => {
    const agent = db.agents.find((item) => item.agentId === input.agentId);
    if (!agent) throw new FakeApiError(404, 'Agent not found');
    return ok('agentDetail', agent);
  }),
  applicationList: route('applicationList', ({ input }) =>
    ok('applicationList', page(db.applications.filter((item) => item.published && !item.isDraft), input.current, input.pageSize)),
  ),
  conversationCreate: route('conversationCreate', ({ input, caller }) => {
    const owner = ownerOf(caller);
    if (input.source === 'workflow') {
      if (!db.applications.some((item) => item.applicationId === input.sourceId)) throw new FakeApiError(404, 'Application not found');
    } else if (!db.agents.some((agent) => agent.agentId === input.sourceId)) throw new FakeApiError(404, 'Agent not found');
    const now = nextTimestamp();
    const conversation = {
      conversationId: nextId('conv'),
      source: input.source,
      sourceId: input.sourceId,
      title: input.title || 'New chat',
      pinned: false,
      createdAt: now,
      updatedAt: now,
      owner,
    };
    db.conversations.set(conversation.conversationId, conversation);
    db.messages.set(conversation.conversationId, []);
    return ok('conversationCreate', described(conversation));
  }),
  conversationList: route('conversationList', ({ input, caller }) => {
    const owner = ownerOf(caller);
    const keyword = (input.keyword ?? '').toLowerCase();
    const items = [...db.conversations.values()]
      .filter((item) => item.owner === owner && (input.sources ?? [input.source]).includes(item.source))
      .filter((item) => item.title.toLowerCase().includes(keyword) || matchIn(item.conversationId, keyword) !== undefined)
      .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updatedAt.localeCompare(a.updatedAt))
      .map((item) => {
        const snippet = keyword ? matchIn(item.conversationId, keyword) : undefined;
        return snippet ? { ...described(item), ...snippet } : described(item);
      });
    return ok('conversationList', page(items, input.current, input.pageSize));
  }),
  conversationDetail: route('conversationDetail', ({ input, caller }) =>
    ok('conversationDetail', described(ownConversation(caller, input.conversationId))),
  ),
  conversationUpdate: route('conversationUpdate', ({ input, caller }) => {
    const stored = ownConversation(caller, input.conversationId);
    if (input.title !== undefined) stored.title = input.title;
    if (input.pinned !== undefined) stored.pinned = input.pinned;
    stored.updatedAt = nextTimestamp();
    return ok('conversationUpdate', described(stored));
  }),
  conversationDelete: route('conversationDelete', ({ input, caller }) => {
    ownConversation(caller, input.conversationId);
    db.conversations.delete(input.conversationId);
    db.messages.delete(input.conversationId);
    return ok('conversationDelete', null);
  }),
  messages: route('messages', ({ input, caller }) => {
    ownConversation(caller, input.conversationId);
    return ok('messages', pathOf(input.conversationId));
  }),
  messageSelect: route('messageSelect', ({ input, caller }) => {
    ownConversation(caller, input.conversationId);
    const all = db.messages.get(input.conversationId) ?? [];
    if (!all.some((message) => message.messageId === input.messageId)) throw new FakeApiError(404, 'Message not found');
    db.leaves.set(input.conversationId, newestLeafUnder(all, input.messageId));
    return ok('messageSelect', pathOf(input.conversationId));
  }),
  messageFeedback: route('messageFeedback', ({ input, caller }) => {
    const answer = ownAnswer(caller, input.conversationId, input.messageId);
    if (input.rating === null) delete answer.feedback;
    else answer.feedback = { rating: input.rating, ...(input.comment ? { comment: input.comment } : {}) };
    return ok('messageFeedback', answer);
  }),
  chat: route('chat', ({ input, caller, request }) => {
    try {
      return eventStream(chatSteps(input, caller), { signal: request.signal });
    } catch (error) {
      if (error instanceof ModelRefusal) return HttpResponse.json({ ...failBody(error.message), reason: error.reason }, { status: error.status });
      throw error;
    }
  }),
  chatResume: route('chatResume', ({ input, caller, request }) => eventStream(resumeSteps(ownAnswer(caller, input.conversationId, input.messageId), input.offset), { signal: request.signal })),
  chatStop: route('chatStop', ({ input, caller }) => {
    const answer = ownAnswer(caller, input.conversationId, input.messageId);
    if (answer.status === 'streaming') answer.status = 'incomplete';
    return ok('chatStop', answer);
  }),
  login: route('login', ({ input }) => {
    if (input.loginType === 'google-oauth') {
      if (!db.google.states.delete(input.state)) throw new FakeApiError(400, 'This Google sign-in has expired or was already used. Please start again.');
      const userId = db.google.codes.get(input.code);
      db.google.codes.delete(input.code);
      if (!userId) throw new FakeApiError(400, 'The Google authorisation code is invalid or expired.');
      return ok('login', loginResult(userId));
    }
    if (input.loginType !== 'password') {
      // Like the server's simulator: a WeChat code (official account or mini program) signs in its user once.
      const userId = db.wechatCodes.get(input.code);
      db.wechatCodes.delete(input.code);
      if (!userId) throw new FakeApiError(400, 'The WeChat authorisation code is invalid, expired or already used. Please sign in with WeChat again.');
      return ok('login', loginResult(userId));
    }
    const user = [...db.users.values()].find((item) => item.username === input.username);
    if (!user || user.password !== input.password) throw new FakeApiError(401, 'Wrong account or password');
    return ok('login', loginResult(user.id));
  }),
  loginOptions: route('loginOptions', () =>
    ok('loginOptions', { google: db.google.enabled, signup: db.accounts.signup, resetByMail: db.accounts.resetByMail }),
  ),
  googleAuthorize: route('googleAuthorize', () => {
    if (!db.google.enabled) throw new FakeApiError(503, 'Google login is not configured on this server.');
    const state = nextId('gstate');
    db.google.states.add(state);
    return ok('googleAuthorize', { url: `https://accounts.google.com/o/oauth2/v2/auth?response_type=code&state=${state}`, state });
  }),
  logout: route('logout', ({ request }) => {
    const token = request.headers.get('authorization')?.replace(/^Bearer\s+/i, '') ?? '';
    db.sessions.delete(token);
    return ok('logout', null);
  }),
  userInfo: route('userInfo', ({ caller }) => ok('userInfo', requireUser(caller))),
  userUpdate: route('userUpdate', ({ input, caller }) => {
    const user = requireUser(caller);
    const stored = db.users.get(user.id)!;
    if (input.nickname !== undefined) stored.nickname = input.nickname;
    if (input.avatar !== undefined) stored.avatar = input.avatar;
    if (input.wechatId !== undefined) stored.wechatId = input.wechatId;
    return ok('userUpdate', publicUser(user.id)!);
  }),
  userScanTicket: route('userScanTicket', ({ input, caller }) => {
    const user = requireUser(caller);
    const ticket = db.scanTickets.get(input.scanid);
    if (!ticket) throw new FakeApiError(404, 'Scan id not found');
    const waiting = ticket.status === 'waiting' && Date.parse(ticket.expiresAt) > Date.now();
    const mine = ticket.userId === user.id;
    const status = waiting ? 'waiting' : mine && ticket.status === 'denied' ? 'denied' : mine && ticket.status !== 'waiting' ? 'approved' : 'expired';
    const { device, address, createdAt, expiresAt } = ticket;
    return ok('userScanTicket', { status, device, address, createdAt, expiresAt });
  }),
  userUpdateScanId: route('userUpdateScanId', ({ input, caller }) => {
    decideScanTicket(requireUser(caller).id, input.scanid, 'confirmed');
    return ok('userUpdateScanId', null);
  }),
  userDenyScanId: route('userDenyScanId', ({ input, caller }) => {
    decideScanTicket(requireUser(caller).id, input.scanid, 'denied');
    return ok('userDenyScanId', null);
  }),
  sessionList: route('sessionList', ({ caller }) => {
    const user = requireUser(caller);
    const own = [...db.sessions].filter(([, userId]) => userId === user.id);
    return ok(
      'sessionList',
      own.map(([token]) => ({ ...db.sessionDetails.get(token)!, current: caller.kind === 'user' && caller.token === token })),
    );
  }),
  sessionRevoke: route('sessionRevoke', ({ input, caller }) => {
    const user = requireUser(caller);
    const found = [...db.sessionDetails].find(([token, details]) => details.id === input.id && db.sessions.get(token) === user.id);
    if (!found) throw new FakeApiError(404, 'Session not found');
    db.sessions.delete(found[0]);
    db.sessionDetails.delete(found[0]);
    return ok('sessionRevoke', null);
  }),
  shareCreate: route('shareCreate', ({ input, caller }) => {
    const user = requireUser(caller);
    const conversation = db.conversations.get(input.conversationId);
    if (!conversation || conversation.owner !== userOwner(user.id)) throw new FakeApiError(404, 'Conversation not found');
    const token = `${nextId('token')}`.padEnd(43, 'x');
    // The chosen versions only, as the server snapshots them.
    const messages = pathOf(conversation.conversationId).map((message) => ({
      role: message.role,
      content: message.content,
      files: message.files.map((file) => ({ name: file.name, mimeType: file.mimeType, size: file.size })),
      createdAt: message.createdAt,
    }));
    const share = {
      shareId: nextId('share'),
      token,
      conversationId: conversation.conversationId,
      title: conversation.title,
      showOwnerName: input.showOwnerName ?? false,
      messageCount: messages.length,
      createdAt: nextTimestamp(),
    };
    const shared = { title: conversation.title, sharedAt: share.createdAt, messages, ...(share.showOwnerName ? { ownerName: user.nickname } : {}) };
    db.shares.set(token, { share, owner: user.id, shared });
    return ok('shareCreate', share);
  }),
  shareList: route('shareList', ({ input, caller }) => {
    const user = requireUser(caller);
    const mine = [...db.shares.values()]
      .filter((entry) => entry.owner === user.id && (!input.conversationId || entry.share.conversationId === input.conversationId))
      .map((entry) => entry.share)
      .reverse();
    return ok('shareList', mine);
  }),
  shareRevoke: route('shareRevoke', ({ input, caller }) => {
    const user = requireUser(caller);
    const found = [...db.shares.values()].find((entry) => entry.share.shareId === input.shareId && entry.owner === user.id);
    if (!found) throw new FakeApiError(404, 'Share not found');
    db.shares.delete(found.share.token);
    return ok('shareRevoke', null);
  }),
  sharedConversation: route('sharedConversation', ({ input }) => {
    const found = db.shares.get(input.token);
    if (!found) throw new FakeApiError(404, 'Share not found');
    return ok('sharedConversation', found.shared);
  }),
  sessionRevokeOthers: route('sessionRevokeOthers', ({ caller }) => {
    const user = requireUser(caller);
    const current = caller.kind === 'user' ? caller.token : '';
    const others = [...db.sessions].filter(([token, userId]) => userId === user.id && token !== current);
    for (const [token] of others) {
      db.sessions.delete(token);
      db.sessionDetails.delete(token);
    }
    return ok('sessionRevokeOthers', { revoked: others.length });
  }),
  upload: route('upload', async ({ request, caller }) => {
    ownerOf(caller);
    const form = await request.formData();
    const entry = form.get('file');
    // jsdom's File and Node's are different classes: recognise a file by its shape.
    if (typeof entry !== 'object' || entry === null || !('name' in entry)) throw new FakeApiError(400, 'Invalid request: file is missing');
    const file = entry as Blob & { name: string };
    const kind = file.type.startsWith('image/') ? 'image' : file.type.startsWith('audio/') ? 'audio' : file.type.startsWith('video/') ? 'video' : 'other';
    const fileId = nextId('file');
    const ref = { fileId, name: file.name, url: `/media/${fileId}`, kind, mimeType: file.type || 'application/octet-stream', size: file.size } as const;
    db.uploads.set(fileId, ref);
    return ok('upload', ref);
  }),
  uploadDelete: route('uploadDelete', ({ input, caller }) => {
    ownerOf(caller);
    if (!db.uploads.delete(input.fileId)) throw new FakeApiError(404, 'File not found');
    return ok('uploadDelete', null);
  }),
  appDownloadManifest: route('appDownloadManifest', () => ok('appDownloadManifest', sampleManifest)),
  wxConfig: route('wxConfig', () => {
    if (db.wechat.configFailure) throw new FakeApiError(502, db.wechat.configFailure);
    return ok('wxConfig', {
      appId: 'wx-test-app',
      timestamp: 1_700_000_000,
      nonceStr: 'nonce',
      signature: 'signature',
      ...(db.wechat.authorizeUrl ? { authorizeUrl: db.wechat.authorizeUrl } : {}),
    });
  }),
  wxLogin: route('wxLogin', ({ input }) => {
    const userId = db.wechatCodes.get(input.code);
    db.wechatCodes.delete(input.code);
    if (!userId) throw new FakeApiError(400, 'The WeChat authorisation code is invalid, expired or already used. Please sign in with WeChat again.');
    return ok('wxLogin', loginResult(userId));
  }),
  wxRegisterLogin: route('wxRegisterLogin', ({ input }) => {
    const ticket: ScanTicketState = {
      id: nextId('scan'),
      fingerPrint: input.fingerPrint,
      expiresAt: new Date(Date.now() + 3 * 60_000).toISOString(),
      status: 'waiting',
      device: { browser: 'Firefox 133', os: 'Linux' },
      address: '203.0.113.7',
      createdAt: new Date().toISOString(),
    };
    db.scanTickets.set(ticket.id, ticket);
    return ok('wxRegisterLogin', { id: ticket.id, expiresAt: ticket.expiresAt });
  }),
  wxValidateLogin: route('wxValidateLogin', ({ input }) => {
    const ticket = ownScanTicket(input.id, input.fingerPrint);
    if (ticket.status === 'confirmed' && ticket.userId) {
      ticket.status = 'consumed';
      return ok('wxValidateLogin', { status: 'confirmed', ...loginResult(ticket.userId) });
    }
    if (ticket.status === 'denied') return ok('wxValidateLogin', { status: 'denied' });
    const waiting = ticket.status === 'waiting' && Date.parse(ticket.expiresAt) > Date.now();
    return ok('wxValidateLogin', { status: waiting ? 'waiting' : 'expired' });
  }),
  wxLoginByScanId: route('wxLoginByScanId', ({ input }) => {
    const ticket = ownScanTicket(input.scanid, input.fingerPrint);
    if (ticket.status === 'waiting' && Date.parse(ticket.expiresAt) > Date.now()) {
      throw new FakeApiError(409, 'The scan code has not been confirmed yet.');
    }
    if (ticket.status !== 'confirmed' || !ticket.userId) throw new FakeApiError(404, 'Scan id not found');
    ticket.status = 'consumed';
    return ok('wxLoginByScanId', loginResult(ticket.userId));
  }),
  signup: route('signup', ({ input }) => {
    const invitation = input.invitation ? usableInvitation(input.invitation) : undefined;
    if (!invitation && db.accounts.signup !== 'open') {
      throw new FakeApiError(403, db.accounts.signup === 'invite' ? 'Accounts are made by invitation only.' : 'Sign-up is closed.');
    }
    if (db.accounts.signup === 'closed') throw new FakeApiError(403, 'Sign-up is closed.');
    if ([...db.users.values()].some((user) => user.username === input.username)) throw new FakeApiError(409, 'An account with this name exists.');
    refuseWeakPassword(input.password, input.username);
    const id = nextId('user');
    db.users.set(id, { id, username: input.username, nickname: input.nickname ?? input.username, avatar: '', password: input.password, role: 'member' });
    if (invitation) joinOrganisation(id, invitation);
    return ok('signup', loginResult(id));
  }),
  invitationPreview: route('invitationPreview', ({ input }) => {
    const { companyName, role, expiresAt } = usableInvitation(input.token);
    return ok('invitationPreview', { companyName, role, expiresAt });
  }),
  invitationAccept: route('invitationAccept', ({ input, caller }) => {
    const user = requireUser(caller);
    joinOrganisation(user.id, usableInvitation(input.token));
    return ok('invitationAccept', publicUser(user.id)!);
  }),
  passwordChange: route('passwordChange', ({ input, caller }) => {
    const user = requireUser(caller);
    const stored = db.users.get(user.id)!;
    if (stored.password !== input.currentPassword) throw new FakeApiError(403, 'The current password is wrong.');
    refuseWeakPassword(input.newPassword, stored.username);
    stored.password = input.newPassword;
    return ok('passwordChange', { revoked: endSessions(user.id, caller.kind === 'user' ? caller.token : undefined) });
  }),
  passwordResetPreview: route('passwordResetPreview', ({ input }) => {
    const link = usableResetLink(input.token);
    return ok('passwordResetPreview', { username: db.users.get(link.userId)!.username, expiresAt: link.expiresAt });
  }),
  passwordReset: route('passwordReset', ({ input }) => {
    const link = usableResetLink(input.token);
    const stored = db.users.get(link.userId)!;
    refuseWeakPassword(input.newPassword, stored.username);
    stored.password = input.newPassword;
    link.usedAt = nextTimestamp();
    endSessions(stored.id);
    return ok('passwordReset', null);
  }),
  passwordResetByMail: route('passwordResetByMail', ({ input }) => {
    if (!db.accounts.resetByMail) throw new FakeApiError(404, 'This server does not send mail.');
    db.accounts.mailedResets.push(input.username);
    return ok('passwordResetByMail', null);
  }),
  accountExport: route('accountExport', ({ caller }) => {
    const user = requireUser(caller);
    const owner = userOwner(user.id);
    const conversations = [...db.conversations.values()]
      .filter((conversation) => conversation.owner === owner)
      .map((conversation) => ({ ...visible(conversation), messages: db.messages.get(conversation.conversationId) ?? [] }));
    const shares = [...db.shares.values()].filter((entry) => entry.owner === user.id).map((entry) => ({ ...entry.share }));
    return ok('accountExport', { exportedAt: new Date().toISOString(), user: { ...user }, conversations, uploads: [], shares });
  }),
  accountDelete: route('accountDelete', ({ input, caller }) => {
    const user = requireUser(caller);
    if (input.confirm !== user.username) throw new FakeApiError(400, 'Type the account name to confirm.');
    const otherAdmins = [...db.users.values()].filter((other) => other.role === 'admin' && other.id !== user.id);
    if (user.role === 'admin' && otherAdmins.length === 0) throw new FakeApiError(409, 'The last admin cannot delete their account.');
    endSessions(user.id);
    db.users.delete(user.id);
    for (const [id, conversation] of db.conversations) {
      if (conversation.owner === userOwner(user.id)) {
        db.conversations.delete(id);
        db.messages.delete(id);
      }
    }
    for (const [token, entry] of db.shares) if (entry.owner === user.id) db.shares.delete(token);
    return ok('accountDelete', null);
  }),
  ...taskHandlers,
  ...studioHandlers,
  ...adminHandlers,
  // The models anyone may use, as a model picker shows them (the registry itself is the console's).
  modelList: route('modelList', () => ok('modelList', { list: db.models })),
} satisfies Record<EndpointName, HttpHandler>;

/** A preview of an agent's draft is the studio's; any other new conversation falls through to `conversationCreate`. */
export const defaultHandlers: HttpHandler[] = [studioPreviewHandler, ...Object.values(handlers)];
