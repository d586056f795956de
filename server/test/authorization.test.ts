import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID } from '../../src/contract/agents';
import { endpoints, type Endpoint, type EndpointName } from '../../src/contract/endpoints';
import { openHarness, type TestApp } from './harness';

/**
 * Every endpoint of the contract, tried by callers who must not get in: nobody, a forged token,
 * an expired token, a valid token sent only as the cookie the SPA keeps it in, and another
 * caller naming someone else's conversation, message or upload.
 */

let h: Awaited<ReturnType<typeof openHarness>>;
let t: TestApp;
let expiredApp: TestApp;
let owner: Awaited<ReturnType<Awaited<ReturnType<typeof openHarness>>['loggedIn']>>;
let stranger: Awaited<ReturnType<Awaited<ReturnType<typeof openHarness>>['loggedIn']>>;
let expiredToken: string;
let ids: {
  conversationId: string;
  userMessageId: string;
  answerMessageId: string;
  fileId: string;
  taskId: string;
  victimId: string;
  shareId: string;
  keptShareId: string;
  agentId: string;
};

const TOKEN_COOKIE = 'ai-chat-ops-token';
const FORGED = 'Bearer ' + 'A'.repeat(43);
/** Endpoints of the market: they answer nobody too (with only what is public). */
const ANSWERS_NOBODY = new Set<string>(['agentPublishedList', 'agentDetail', 'applicationList', 'modelList']);

type Ids = typeof ids;
type Sample = { body?: Record<string, unknown>; query?: Record<string, string>; form?: () => FormData };

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const pngForm = () => {
  const form = new FormData();
  form.set('file', new File([PNG], 'pic.png', { type: 'image/png' }));
  return form;
};

/** A request each endpoint would accept from its rightful caller, so a refusal is about identity only. */
const samples: Partial<Record<EndpointName, (ids: Ids) => Sample>> = {
  agentPublishedList: () => ({ body: {} }),
  agentDetail: () => ({ query: { agentId: DEFAULT_AGENT_ID } }),
  applicationList: () => ({ body: {} }),
  modelList: () => ({}),
  agentSave: () => ({ body: { name: 'A new agent of mine' } }),
  agentPublish: (ids) => ({ body: { agentId: ids.agentId } }),
  agentMyList: () => ({ body: {} }),
  agentDraft: (ids) => ({ query: { agentId: ids.agentId } }),
  agentVersions: (ids) => ({ body: { agentId: ids.agentId } }),
  agentRestore: (ids) => ({ body: { agentId: ids.agentId, versionId: ids.agentId } }),
  agentDelete: (ids) => ({ body: { agentId: ids.agentId } }),
  agentExport: (ids) => ({ query: { agentId: ids.agentId } }),
  agentImport: () => ({ body: { document: { format: 'kraken-agent', version: 1, agent: { name: 'Imported' } } } }),
  conversationCreate: () => ({ body: { sourceId: DEFAULT_AGENT_ID } }),
  conversationList: () => ({ body: {} }),
  conversationDetail: (ids) => ({ query: { conversationId: ids.conversationId } }),
  conversationUpdate: (ids) => ({ body: { conversationId: ids.conversationId, title: 'Renamed by someone' } }),
  conversationDelete: (ids) => ({ body: { conversationId: ids.conversationId } }),
  messages: (ids) => ({ query: { conversationId: ids.conversationId } }),
  messageSelect: (ids) => ({ body: { conversationId: ids.conversationId, messageId: ids.userMessageId } }),
  messageFeedback: (ids) => ({ body: { conversationId: ids.conversationId, messageId: ids.answerMessageId, rating: 'up' } }),
  shareCreate: (ids) => ({ body: { conversationId: ids.conversationId } }),
  shareList: () => ({ body: {} }),
  shareRevoke: (ids) => ({ body: { shareId: ids.shareId } }),
  chat: (ids) => ({ body: { conversationId: ids.conversationId, agentId: DEFAULT_AGENT_ID, text: 'Let me in' } }),
  chatResume: (ids) => ({ body: { conversationId: ids.conversationId, messageId: ids.answerMessageId, offset: 0 } }),
  chatStop: (ids) => ({ body: { conversationId: ids.conversationId, messageId: ids.answerMessageId } }),
  logout: () => ({}),
  userInfo: () => ({}),
  userUpdate: () => ({ body: { nickname: 'Someone else' } }),
  userUpdateScanId: () => ({ body: { scanid: 'scan-0000000000000000' } }),
  userScanTicket: () => ({ query: { scanid: 'scan-0000000000000000' } }),
  userDenyScanId: () => ({ body: { scanid: 'scan-0000000000000000' } }),
  sessionList: () => ({}),
  sessionRevoke: () => ({ body: { id: '00000000-0000-0000-0000-000000000000' } }),
  sessionRevokeOthers: () => ({}),
  upload: () => ({ form: pngForm }),
  uploadDelete: (ids) => ({ body: { fileId: ids.fileId } }),
  operationsSession: () => ({}),
  taskList: () => ({ body: {} }),
  taskDetail: (ids) => ({ query: { id: ids.taskId } }),
  taskCreate: () => ({ body: { platform: 'linkedin', title: 'Launch post' } }),
  taskUpdate: (ids) => ({ body: { id: ids.taskId, title: 'Taken over' } }),
  taskTransition: (ids) => ({ body: { id: ids.taskId, action: 'markReady' } }),
  taskDelete: (ids) => ({ body: { id: ids.taskId } }),
  taskDrafting: () => ({ body: { platform: 'linkedin', brief: { topic: 'Our new bakery' } } }),
  invitationAccept: () => ({ body: { token: 'A'.repeat(43) } }),
  // A new password the rule refuses (400): the call got past its access rule, and nothing changes.
  passwordChange: () => ({ body: { currentPassword: 'not the password', newPassword: 'short' } }),
  accountExport: () => ({}),
  accountDelete: () => ({ body: { confirm: 'not-my-account@test.local' } }),
  adminUserList: () => ({ body: {} }),
  adminUserUpdate: (ids) => ({ body: { id: ids.victimId, role: 'member' } }),
  adminUserSignOut: (ids) => ({ body: { id: ids.victimId } }),
  adminUserResetLink: (ids) => ({ body: { id: ids.victimId } }),
  adminOrganisationList: () => ({}),
  adminOrganisationCreate: () => ({ body: { name: 'Taken over Ltd' } }),
  adminInvitationList: () => ({}),
  adminInvitationCreate: () => ({ body: { companyId: 'kraken', role: 'admin' } }),
  adminInvitationRevoke: () => ({ body: { id: 'no-such-invitation' } }),
  adminConnectorList: () => ({ query: { companyId: 'kraken' } }),
  adminConnectorSet: () => ({ body: { companyId: 'kraken', platform: 'linkedin', accessToken: 'stolen-token-123', authorUrn: 'urn:li:person:x' } }),
  adminConnectorClear: () => ({ body: { companyId: 'kraken', platform: 'linkedin' } }),
  adminUsage: () => ({ body: {} }),
  adminAuditList: () => ({ body: {} }),
  adminModelProviderList: () => ({}),
  adminModelProviderSave: () => ({ body: { name: 'Taken over', baseUrl: 'https://1.1.1.1/v1' } }),
  adminModelProviderDelete: () => ({ body: { id: 'no-such-provider' } }),
  adminModelDiscover: () => ({ body: { id: 'no-such-provider' } }),
  adminModelSave: () => ({ body: { providerId: 'no-such-provider', model: 'm', name: 'M' } }),
  adminModelDelete: () => ({ body: { id: 'no-such-model' } }),
  adminModelSetDefault: () => ({ body: { id: 'no-such-model' } }),
  adminAgentReviewList: () => ({ body: {} }),
  adminAgentApprove: () => ({ body: { versionId: 'no-such-version' } }),
  adminAgentReject: () => ({ body: { versionId: 'no-such-version', reason: 'No.' } }),
};

const send = (app: TestApp, endpoint: Endpoint, sample: Sample, headers: Record<string, string>) => {
  const query = sample.query ? `?${new URLSearchParams(sample.query)}` : '';
  if (endpoint.method === 'GET') return app.raw(`${endpoint.path}${query}`, { headers });
  if (sample.form) return app.raw(endpoint.path, { method: 'POST', headers, body: sample.form() });
  return app.raw(endpoint.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(sample.body ?? {}),
  });
};

const table = Object.entries(endpoints) as [EndpointName, Endpoint][];
const guarded = table.filter(([, endpoint]) => endpoint.access !== 'public');
const sampleOf = (name: EndpointName): Sample => samples[name]?.(ids) ?? {};

beforeAll(async () => {
  h = await openHarness();
  t = h.makeApp();
  // The owner is an admin of the company, so every call has its rightful caller; the stranger
  // operates another company.
  owner = await h.loggedIn(t, { companyId: 'kraken', role: 'admin' });
  stranger = await h.operator(t, { companyId: 'northwind' });

  expiredApp = h.makeApp();
  expiredToken = (await h.loggedIn(expiredApp)).token;
  expiredApp.clock.advance(8 * 24 * 3600 * 1000);

  const conversationId = (await t.post(endpoints.conversationCreate.path, { sourceId: DEFAULT_AGENT_ID, title: 'Private' }, owner.headers)).body.data
    .conversationId as string;
  const answer = await t.raw(endpoints.chat.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...owner.headers },
    body: JSON.stringify({ conversationId, agentId: DEFAULT_AGENT_ID, text: 'My secret question' }),
  });
  await answer.text();
  const messages = (await t.get(endpoints.messages.path, { conversationId }, owner.headers)).body.data as { messageId: string; role: string }[];
  const upload = await t.raw(endpoints.upload.path, { method: 'POST', headers: owner.headers, body: pngForm() });
  ids = {
    conversationId,
    userMessageId: messages.find((message) => message.role === 'user')!.messageId,
    answerMessageId: messages.find((message) => message.role === 'assistant')!.messageId,
    fileId: ((await upload.json()) as { data: { fileId: string } }).data.fileId,
    taskId: '',
    victimId: (await h.newUser()).user.id,
    shareId: '',
    keptShareId: '',
    agentId: '',
  };
  // The owner's own agent: its studio calls refuse everyone else as if it did not exist.
  ids.agentId = (await t.post(endpoints.agentSave.path, { name: 'My private agent' }, owner.headers)).body.data.agentId as string;
  ids.taskId = (await t.post(endpoints.taskCreate.path, { platform: 'linkedin', title: 'Private plan' }, owner.headers)).body.data.id as string;
  ids.shareId = (await t.post(endpoints.shareCreate.path, { conversationId }, owner.headers)).body.data.shareId as string;
  // Never revoked by its owner here, so a stranger's refusal is about identity, not a revoked link.
  ids.keptShareId = (await t.post(endpoints.shareCreate.path, { conversationId }, owner.headers)).body.data.shareId as string;
});
afterAll(() => h.close());

describe('every guarded endpoint of the contract', () => {
  it('has a sample request that its rightful caller gets through with', async () => {
    for (const [name, endpoint] of guarded) {
      expect(samples[name], `no sample request for ${name}`).toBeDefined();
      // An admin of another company: every call lets them in, and none touches the owner's things.
      const rightful = (await h.loggedIn(t, endpoint.access === 'user' || name === 'logout' ? {} : { companyId: 'northwind', role: 'admin' })).headers;
      const headers = endpoint.access === 'visitor' && name !== 'logout' ? h.visitor() : rightful;
      const response = await send(t, endpoint, sampleOf(name), headers);
      expect([401, 403], `${name} refused its rightful caller`).not.toContain(response.status);
      expect(response.status, `${name} failed`).toBeLessThan(500);
    }
  });

  it.each(guarded.map(([name]) => name))('%s refuses a forged token, an expired token and a cookie without the header', async (name) => {
    const endpoint = endpoints[name] as Endpoint;
    const sample = sampleOf(name);
    expect((await send(t, endpoint, sample, { authorization: FORGED })).status).toBe(401);
    expect((await send(t, endpoint, sample, { authorization: 'Bearer' })).status).toBe(401);
    expect((await send(t, endpoint, sample, { authorization: `Basic ${btoa('a:b')}` })).status).toBe(401);
    expect((await send(expiredApp, endpoint, sample, { authorization: `Bearer ${expiredToken}` })).status).toBe(401);
    // A forged token next to a visitor id is still refused: a bad token is never downgraded.
    expect((await send(t, endpoint, sample, { authorization: FORGED, ...h.visitor() })).status).toBe(401);

    const cookieOnly = await send(t, endpoint, sample, { cookie: `${TOKEN_COOKIE}=${owner.token}` });
    const nobody = await send(t, endpoint, sample, {});
    if (ANSWERS_NOBODY.has(name)) {
      expect(nobody.status).toBe(200);
      expect(cookieOnly.status).toBe(200);
    } else {
      expect(nobody.status).toBe(401);
      expect(cookieOnly.status).toBe(401);
    }
  });

  it('refuses every public endpoint nothing more with a forged token than without one', async () => {
    for (const [name, endpoint] of table.filter(([, e]) => e.access === 'public')) {
      const without = await send(t, endpoint, sampleOf(name), {});
      const forged = await send(t, endpoint, sampleOf(name), { authorization: FORGED });
      expect(forged.status, name).toBe(without.status);
    }
  });
});

describe("another caller's ids", () => {
  const foreign: [string, EndpointName, (ids: Ids) => Sample][] = [
    ['reading the conversation', 'conversationDetail', (ids) => ({ query: { conversationId: ids.conversationId } })],
    ['reading its messages', 'messages', (ids) => ({ query: { conversationId: ids.conversationId } })],
    ['renaming it', 'conversationUpdate', (ids) => ({ body: { conversationId: ids.conversationId, title: 'Mine now' } })],
    ['pinning it', 'conversationUpdate', (ids) => ({ body: { conversationId: ids.conversationId, pinned: true } })],
    ['deleting it', 'conversationDelete', (ids) => ({ body: { conversationId: ids.conversationId } })],
    ['asking in it', 'chat', (ids) => ({ body: { conversationId: ids.conversationId, agentId: DEFAULT_AGENT_ID, text: 'Hi' } })],
    ['retrying its question', 'chat', (ids) => ({ body: { conversationId: ids.conversationId, agentId: DEFAULT_AGENT_ID, retryMessageId: ids.userMessageId } })],
    ['editing its question', 'chat', (ids) => ({ body: { conversationId: ids.conversationId, agentId: DEFAULT_AGENT_ID, editMessageId: ids.userMessageId, text: 'Mine now' } })],
    ['asking its answer again', 'chat', (ids) => ({ body: { conversationId: ids.conversationId, agentId: DEFAULT_AGENT_ID, regenerateMessageId: ids.answerMessageId } })],
    ['choosing a version of its messages', 'messageSelect', (ids) => ({ body: { conversationId: ids.conversationId, messageId: ids.userMessageId } })],
    ['rating its answer', 'messageFeedback', (ids) => ({ body: { conversationId: ids.conversationId, messageId: ids.answerMessageId, rating: 'down', comment: 'Mine now' } })],
    ['reading its answer again', 'chatResume', (ids) => ({ body: { conversationId: ids.conversationId, messageId: ids.answerMessageId, offset: 0 } })],
    ['sharing it by link', 'shareCreate', (ids) => ({ body: { conversationId: ids.conversationId } })],
    ['revoking its share link', 'shareRevoke', (ids) => ({ body: { shareId: ids.keptShareId } })],
    ['stopping its answer', 'chatStop', (ids) => ({ body: { conversationId: ids.conversationId, messageId: ids.answerMessageId } })],
    ...(['taskDetail', 'taskUpdate', 'taskTransition', 'taskDelete'] as const).map((name): [string, EndpointName, (ids: Ids) => Sample] => [`the operations task (${name})`, name, samples[name]!]),
  ];

  it.each(foreign)("%s answers 404 to another user (and 401 or 404 to a visitor), as if it did not exist", async (_what, name, sample) => {
    const endpoint = endpoints[name] as Endpoint;
    expect((await send(t, endpoint, sample(ids), stranger.headers)).status).toBe(404);
    expect((await send(t, endpoint, sample(ids), h.visitor())).status).toBe(endpoint.access === 'visitor' ? 404 : 401);
  });

  it("leaves the owner's task as it was", async () => {
    const detail = await t.get(endpoints.taskDetail.path, { id: ids.taskId }, owner.headers);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ title: 'Private plan', status: 'draft' });
  });

  it("cannot retry someone else's question from one's own conversation, nor attach their upload", async () => {
    const mine = (await t.post(endpoints.conversationCreate.path, { sourceId: DEFAULT_AGENT_ID }, stranger.headers)).body.data.conversationId as string;
    const retry = await send(t, endpoints.chat, { body: { conversationId: mine, agentId: DEFAULT_AGENT_ID, retryMessageId: ids.userMessageId } }, stranger.headers);
    expect(retry.status).toBe(404);
    const attach = await send(
      t,
      endpoints.chat,
      { body: { conversationId: mine, agentId: DEFAULT_AGENT_ID, text: 'see file', files: [{ fileId: ids.fileId, name: 'pic.png', url: `/api/media/file/${ids.fileId}`, kind: 'image', mimeType: 'image/png', size: PNG.length }] } },
      stranger.headers,
    );
    expect(attach.status).toBe(404);
  });

  it("leaves the owner's conversation as it was, and does not list it to anyone else", async () => {
    const detail = await t.get(endpoints.conversationDetail.path, { conversationId: ids.conversationId }, owner.headers);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ title: 'Private', pinned: false });
    const messages = await t.get(endpoints.messages.path, { conversationId: ids.conversationId }, owner.headers);
    expect((messages.body.data as { content: string }[]).map((message) => message.content)).toContain('My secret question');
    expect((messages.body.data as unknown[]).length).toBe(2);
    for (const headers of [stranger.headers, h.visitor()]) {
      const list = await t.post(endpoints.conversationList.path, {}, headers);
      expect((list.body.data.list as { conversationId: string }[]).map((item) => item.conversationId)).not.toContain(ids.conversationId);
    }
  });

  it('changes only the caller’s own account', async () => {
    await t.post(endpoints.userUpdate.path, { nickname: 'Stranger' }, stranger.headers);
    const me = await t.get(endpoints.userInfo.path, {}, owner.headers);
    expect(me.body.data.nickname).not.toBe('Stranger');
  });
});
