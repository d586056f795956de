import { describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '../../src/contract/endpoints';
import { listPublishedAgents, getAgentDetail } from '../../src/services/api/agents';
import { listApplications } from '../../src/services/api/applications';
import { call } from '../../src/services/http';
import {
  acceptInvitation,
  changePassword,
  deleteAccount,
  exportAccount,
  previewInvitation,
  previewPasswordReset,
  requestPasswordResetByMail,
  resetPassword,
  signup,
} from '../../src/services/api/accounts';
import { getLoginOptions, loginWithGoogle, loginWithPassword, logout, startGoogleAuthorization } from '../../src/services/api/auth';
import {
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  listMessages,
  rateAnswer,
  selectMessage,
  stopAnswer,
  updateConversation,
} from '../../src/services/api/conversations';
import {
  denyScanId,
  getScanTicket,
  getUserInfo,
  listSessions,
  revokeOtherSessions,
  revokeSession,
  updateScanId,
  updateUser,
} from '../../src/services/api/users';
import { getWxConfig, loginWithScanId, loginWithWxCode, openScanTicket, validateScanLogin } from '../../src/services/api/wechat';
import { getDownloadManifest } from '../../src/services/api/app';
import { deleteUpload } from '../../src/services/api/media';
import { createShare, listShares, readSharedConversation, revokeShare } from '../../src/services/api/shares';
import {
  createTask,
  deleteTask,
  getTask,
  listTasks,
  startDrafting,
  transitionTask,
  updateTask,
  verifyOperationsSession,
} from '../../src/services/api/tasks';
import {
  exportAgent,
  importAgent,
  listAgentVersions,
  listMyAgents,
  listUsableModels,
  openAgentDraft,
  publishAgent,
  restoreAgentVersion,
  retireAgent,
  saveAgent,
} from '../../src/services/api/studio';
import { resumeChat, streamChat } from '../../src/services/chat-stream';
import { setToken } from '../../src/services/cookies';
import { db, seedGoogleCode, seedInvitation, seedResetLink, seedUser, seedWechatCode } from '../msw/db';
import { handlers } from '../msw/handlers';
import { recordRequests } from '../msw/server';

/**
 * The fake API the SPA tests run against: one handler per endpoint of the contract, and every
 * answer, read through the real client (which validates it), inside the contract.
 */
describe('the fake API', () => {
  it('has exactly one handler per endpoint, at the contract path and method', () => {
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(endpoints).sort());
    for (const [name, handler] of Object.entries(handlers)) {
      const endpoint = endpoints[name as EndpointName];
      expect(handler.info, name).toMatchObject({ method: endpoint.method, path: endpoint.path });
    }
  });

  it('answers every endpoint within the contract through the real client', async () => {
    const seen = recordRequests();
    const { user, password } = seedUser({ username: 'ada@example.com' });

    const agents = await listPublishedAgents();
    expect(agents.total).toBeGreaterThan(0);
    await getAgentDetail(agents.list[0]!.agentId);
    await listApplications();

    const session = await loginWithPassword({ username: 'ada@example.com', password });
    expect(session.userInfo.id).toBe(user.id);
    setToken(session.token);
    expect((await getUserInfo()).username).toBe('ada@example.com');
    expect((await updateUser({ nickname: 'Countess' })).nickname).toBe('Countess');

    const conversation = await createConversation({ sourceId: 'SpecialNoAgentFallback', title: 'Hello' });
    expect((await listConversations()).list.map((item) => item.conversationId)).toEqual([conversation.conversationId]);
    expect((await getConversation(conversation.conversationId)).title).toBe('Hello');
    expect((await updateConversation({ conversationId: conversation.conversationId, pinned: true })).pinned).toBe(true);
    db.uploads.set('file-of-ada', { fileId: 'file-of-ada', name: 'notes.txt', url: '/media/file-of-ada', kind: 'other', mimeType: 'text/plain', size: 5 });
    await deleteUpload('file-of-ada');
    expect(db.uploads.has('file-of-ada')).toBe(false);

    const events: string[] = [];
    await streamChat(
      { conversationId: conversation.conversationId, agentId: 'SpecialNoAgentFallback', text: 'Hi' },
      { signal: new AbortController().signal, onEvent: (event) => events.push(event.type) },
    );
    expect(events.at(0)).toBe('start');
    expect(events.at(-1)).toBe('end');
    const [question, first] = await listMessages(conversation.conversationId);
    expect([question!.role, first!.role]).toEqual(['user', 'assistant']);
    await streamChat(
      { conversationId: conversation.conversationId, agentId: 'SpecialNoAgentFallback', regenerateMessageId: first!.messageId },
      { signal: new AbortController().signal, onEvent: () => undefined },
    );
    expect((await listMessages(conversation.conversationId)).at(-1)!.siblingIds).toHaveLength(2);
    expect((await selectMessage(conversation.conversationId, first!.messageId)).at(-1)!.messageId).toBe(first!.messageId);
    expect((await listMessages(conversation.conversationId)).map((message) => message.role)).toEqual(['user', 'assistant']);
    const answer = (await listMessages(conversation.conversationId)).at(-1)!;
    const resumed: string[] = [];
    await resumeChat(
      { conversationId: conversation.conversationId, messageId: answer.messageId, offset: 2 },
      { signal: new AbortController().signal, onEvent: (event) => resumed.push(event.type) },
    );
    expect(resumed).toEqual(['resume', 'delta', 'end']);
    expect(await stopAnswer(conversation.conversationId, answer.messageId)).toMatchObject({ messageId: answer.messageId, status: 'complete' });
    expect(await rateAnswer({ conversationId: conversation.conversationId, messageId: answer.messageId, rating: 'up', comment: 'Clear' })).toMatchObject({
      messageId: answer.messageId,
    });
    const share = await createShare({ conversationId: conversation.conversationId });
    expect((await listShares(conversation.conversationId)).map((item) => item.shareId)).toEqual([share.shareId]);
    expect((await readSharedConversation(share.token)).messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    await revokeShare(share.shareId);
    await expect(readSharedConversation(share.token, { silent: true })).rejects.toThrow();
    await deleteConversation(conversation.conversationId);


    await getWxConfig('https://app.example.com/chat');
    const fingerPrint = 'browser-fingerprint-0001';
    const ticket = await openScanTicket(fingerPrint);
    expect((await validateScanLogin(ticket.id, fingerPrint)).status).toBe('waiting');
    expect((await getScanTicket(ticket.id)).status).toBe('waiting');
    await updateScanId(ticket.id);
    expect((await validateScanLogin(ticket.id, fingerPrint)).status).toBe('confirmed');
    const other = await openScanTicket(fingerPrint);
    await updateScanId(other.id);
    expect((await loginWithScanId(other.id, fingerPrint)).userInfo.id).toBe(user.id);
    const declined = await openScanTicket(fingerPrint);
    await denyScanId(declined.id);
    expect((await validateScanLogin(declined.id, fingerPrint)).status).toBe('denied');
    const sessions = await listSessions();
    expect(sessions.filter((item) => item.current)).toHaveLength(1);
    await revokeSession(sessions.find((item) => !item.current)!.id);
    expect((await revokeOtherSessions()).revoked).toBeGreaterThan(0);
    seedWechatCode('wx-code-ada', user.id);
    expect((await loginWithWxCode('wx-code-ada')).userInfo.id).toBe(user.id);
    // the mini program's code goes through the login call (no SPA screen sends it; the fake takes it as the server does)
    seedWechatCode('mini-code-ada', user.id);
    expect((await call('login', { loginType: 'wechat-miniprogram', code: 'mini-code-ada' })).userInfo.id).toBe(user.id);
    await expect(call('login', { loginType: 'wechat-miniprogram', code: 'mini-code-ada' }, { silent: true })).rejects.toThrow(/already used/);
    db.google.enabled = true;
    expect(await getLoginOptions()).toEqual({ google: true, signup: 'closed', resetByMail: false });
    const { state } = await startGoogleAuthorization();
    seedGoogleCode('4/google-ada', user.id);
    expect((await loginWithGoogle({ code: '4/google-ada', state })).userInfo.id).toBe(user.id);

    expect((await getDownloadManifest()).platforms.length).toBeGreaterThan(0);

    await verifyOperationsSession();
    const task = await createTask({ platform: 'linkedin', title: 'Launch week' });
    expect((await listTasks({ platform: 'linkedin' })).list.map((item) => item.id)).toContain(task.id);
    expect((await getTask(task.id)).title).toBe('Launch week');
    await updateTask({ id: task.id, body: 'We are launching next week.' });
    await transitionTask({ id: task.id, action: 'markReady' });
    await startDrafting({ platform: 'linkedin', brief: { topic: 'Launch week' } });
    await deleteTask(task.id);

    db.accounts = { signup: 'invite', resetByMail: true, mailedResets: [] };
    const invitation = seedInvitation({ role: 'operator' });
    expect(await previewInvitation(invitation.token)).toMatchObject({ companyName: 'Acme Bakery', role: 'operator' });
    const grace = await signup({ username: 'grace@example.com', password: 'a-long-password', invitation: invitation.token });
    expect(grace.userInfo).toMatchObject({ role: 'operator', companyName: 'Acme Bakery' });
    await expect(previewInvitation(invitation.token, { silent: true })).rejects.toMatchObject({ status: 410 });
    expect(await acceptInvitation(seedInvitation({ role: 'admin' }).token)).toMatchObject({ id: user.id, role: 'admin' });
    expect(await changePassword({ currentPassword: password, newPassword: 'a-new-long-password' })).toEqual({ revoked: expect.any(Number) });
    expect((await exportAccount()).user).toMatchObject({ username: 'ada@example.com' });
    await requestPasswordResetByMail('ada@example.com');
    expect(db.accounts.mailedResets).toEqual(['ada@example.com']);
    setToken(grace.token);
    await deleteAccount('grace@example.com');
    expect(db.users.has(grace.userInfo.id)).toBe(false);
    setToken(session.token);

    const draft = await saveAgent({ name: 'Tutor', systemPrompt: 'Be kind.' });
    expect(draft).toMatchObject({ isDraft: true, published: false, versionId: null });
    const live = await publishAgent(draft.agentId);
    expect(live).toMatchObject({ published: true, hasDraft: false });
    expect((await listMyAgents({ current: 1, pageSize: 10, scope: 'mine' })).list.map((agent) => agent.agentId)).toEqual([draft.agentId]);
    await saveAgent({ agentId: draft.agentId, name: 'Tutor II' });
    expect((await openAgentDraft(draft.agentId)).content.name).toBe('Tutor II');
    const [oldest] = (await listAgentVersions({ agentId: draft.agentId, current: 1, pageSize: 10 })).list;
    expect((await restoreAgentVersion(draft.agentId, oldest!.versionId)).content.name).toBe('Tutor');
    expect((await importAgent(await exportAgent(draft.agentId))).content).toMatchObject({ name: 'Tutor', visibility: 'private' });
    await retireAgent(draft.agentId);
    expect((await listUsableModels()).list.some((model) => model.isDefault)).toBe(true);

    await logout();
    await expect(getUserInfo({ silent: true })).rejects.toMatchObject({ status: 401 });
    const link = seedResetLink(user.id);
    expect(await previewPasswordReset(link.token)).toMatchObject({ username: 'ada@example.com' });
    await resetPassword(link.token, 'another-long-password');
    expect((await loginWithPassword({ username: 'ada@example.com', password: 'another-long-password' })).userInfo.id).toBe(user.id);

    const reached = new Set(seen.map((request) => request.pathname));
    // Uploads are left out: jsdom's FormData and File cannot travel through Node's fetch here
    // (the file arrives as the text "[object File]"), so the upload handler is not exercised here.
    // The admin console's calls are exercised with the console (its fake is tests/msw/admin-handlers.ts).
    const unreached = Object.values(endpoints)
      .filter((endpoint) => !reached.has(endpoint.path) && !endpoint.path.startsWith('/api/admin/'))
      .map((endpoint) => endpoint.path);
    expect(unreached).toEqual([endpoints.upload.path]);
  });

  it('answers 403 to a member in the operations area, and lets an operator of an organisation in', async () => {
    const member = seedUser({ role: 'member' });
    setToken((await loginWithPassword({ username: member.user.username, password: member.password })).token);
    await expect(verifyOperationsSession({ silent: true })).rejects.toMatchObject({ status: 403 });
    await expect(listTasks({}, { silent: true })).rejects.toMatchObject({ status: 403 });
    const operator = seedUser({ role: 'operator', companyId: 'company-acme' });
    setToken((await loginWithPassword({ username: operator.user.username, password: operator.password })).token);
    await expect(verifyOperationsSession()).resolves.toMatchObject({ userId: operator.user.id });
  });

  it('keeps one visitor from another visitor’s conversations', async () => {
    const conversation = await createConversation({ sourceId: 'SpecialNoAgentFallback' });
    localStorage.clear(); // a new browser: a new visitor id
    await expect(getConversation(conversation.conversationId, { silent: true })).rejects.toMatchObject({ status: 404 });
  });
});
