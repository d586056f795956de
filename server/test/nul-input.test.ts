import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID } from '../../src/contract/agents';
import { endpoints, type Endpoint, type EndpointName } from '../../src/contract/endpoints';
import { openHarness, type TestApp } from './harness';

/**
 * PostgreSQL refuses U+0000 in text. Every string an endpoint of the contract takes, in the
 * body, the query or the path, is tried with a NUL in it: the answer is 400 naming the field,
 * never a 500.
 */

type Input = Record<string, unknown>;
const ID = '0b9c7e43-8f0e-4c47-9a7f-3c1b2d4e5f60';
const FINGER = 'fp-0123456789abcdef';
/** An invitation's or a reset link's token, of the contract's shape. */
const LINK = 'link-token-0123456789abcdef';
const brief = { topic: 'Bakery', audience: 'Locals', tone: 'warm', keywords: ['bread'], language: 'en-US' };
const fileRef = { fileId: ID, name: 'pic.png', url: `/api/media/file/${ID}`, kind: 'image', mimeType: 'image/png', size: 12 };

/** A request of each endpoint holding every string field its schema reads. */
const samples: Record<EndpointName, Input | null> = {
  agentPublishedList: { keyword: 'writer', category: 'general' },
  agentDetail: { agentId: DEFAULT_AGENT_ID },
  applicationList: { keyword: 'app' },
  modelList: null,
  agentSave: {
    agentId: ID,
    name: 'Bot',
    avatar: 'data:image/svg+xml,x',
    intro: 'Intro',
    category: 'general',
    systemPrompt: 'Be kind.',
    modelId: ID,
    starters: { 'en-US': ['Hi?'] },
    translations: { 'fr-FR': { name: 'Bot', intro: 'Intro' } },
    visibility: 'private',
  },
  agentPublish: { agentId: ID },
  agentMyList: { scope: 'mine', keyword: 'bot' },
  agentDraft: { agentId: ID },
  agentVersions: { agentId: ID },
  agentRestore: { agentId: ID, versionId: ID },
  agentDelete: { agentId: ID },
  agentExport: { agentId: ID },
  agentImport: {
    document: {
      format: 'kraken-agent',
      version: 1,
      agent: {
        name: 'Bot',
        intro: 'Intro',
        systemPrompt: 'Be kind.',
        model: { model: 'gpt', name: 'GPT' },
        starters: { ja: ['こんにちは'] },
        translations: { ja: { name: 'ボット', intro: '紹介' } },
      },
    },
  },
  conversationCreate: { sourceId: DEFAULT_AGENT_ID, source: 'agent', title: 'Hello' },
  conversationList: { source: 'agent', keyword: 'hello' },
  conversationDetail: { conversationId: ID },
  conversationUpdate: { conversationId: ID, title: 'Renamed' },
  conversationDelete: { conversationId: ID },
  messages: { conversationId: ID },
  shareCreate: { conversationId: ID },
  shareList: { conversationId: ID },
  shareRevoke: { shareId: ID },
  sharedConversation: { token: 'a'.repeat(43) },
  messageSelect: { conversationId: ID, messageId: ID },
  messageFeedback: { conversationId: ID, messageId: ID, rating: 'up', comment: 'Clear and short' },
  chat: { conversationId: ID, agentId: DEFAULT_AGENT_ID, text: 'Hi', files: [fileRef], retryMessageId: ID },
  chatResume: { conversationId: ID, messageId: ID, offset: 0 },
  chatStop: { conversationId: ID, messageId: ID },
  login: { loginType: 'password', username: 'someone@test.local', password: 'secret-123' },
  loginOptions: null,
  googleAuthorize: null,
  logout: null,
  userInfo: null,
  userUpdate: { nickname: 'Nick', avatar: '/api/media/file/x', wechatId: 'wx_abcdef' },
  userUpdateScanId: { scanid: 'scan-0000000000000000' },
  userScanTicket: { scanid: 'scan-0000000000000000' },
  userDenyScanId: { scanid: 'scan-0000000000000000' },
  sessionList: null,
  sessionRevoke: { id: ID },
  sessionRevokeOthers: null,
  upload: null,
  uploadDelete: { fileId: ID },
  appDownloadManifest: null,
  wxConfig: { url: 'https://example.com/page' },
  wxLogin: { code: 'abc' },
  wxRegisterLogin: { fingerPrint: FINGER },
  wxValidateLogin: { id: 'ticket-0000000000', fingerPrint: FINGER },
  wxLoginByScanId: { scanid: 'ticket-0000000000', fingerPrint: FINGER },
  operationsSession: null,
  taskList: { platform: 'linkedin', status: 'draft', keyword: 'post' },
  taskDetail: { id: ID },
  taskCreate: { platform: 'linkedin', title: 'T', brief, drafts: [{ title: 'a', body: 'b' }], body: 'Body', images: [{ fileId: ID }] },
  taskUpdate: { id: ID, title: 'T', brief, drafts: [{ title: 'a', body: 'b' }], body: 'Body', images: [{ fileId: ID }] },
  taskTransition: { id: ID, action: 'markPublished', postUrl: 'https://example.com/p' },
  taskDelete: { id: ID },
  taskDrafting: { platform: 'linkedin', brief },
  signup: { username: 'newcomer@test.local', password: 'a-long-password', nickname: 'Newcomer', invitation: LINK },
  invitationPreview: { token: LINK },
  invitationAccept: { token: LINK },
  passwordChange: { currentPassword: 'secret-123', newPassword: 'a-long-password' },
  passwordResetPreview: { token: LINK },
  passwordReset: { token: LINK, newPassword: 'a-long-password' },
  passwordResetByMail: { username: 'someone@test.local' },
  accountExport: null,
  accountDelete: { confirm: 'someone@test.local' },
  adminUserList: { keyword: 'someone', companyId: ID },
  adminUserUpdate: { id: ID, role: 'operator', companyId: ID },
  adminUserSignOut: { id: ID },
  adminUserResetLink: { id: ID },
  adminOrganisationList: null,
  adminOrganisationCreate: { name: 'Acme Bakery' },
  adminInvitationList: null,
  adminInvitationCreate: { companyId: ID, role: 'operator', note: 'For Ada' },
  adminInvitationRevoke: { id: ID },
  adminConnectorList: { companyId: ID },
  adminConnectorSet: { companyId: ID, platform: 'linkedin', accessToken: 'token-0123456789', authorUrn: 'urn:li:person:abc' },
  adminConnectorClear: { companyId: ID, platform: 'linkedin' },
  adminUsage: { days: 7 },
  adminAuditList: { action: 'user.update' },
  adminModelProviderList: null,
  adminModelProviderSave: { id: ID, name: 'Provider', baseUrl: 'https://1.1.1.1/v1', apiKey: 'sk-0123456789' },
  adminModelProviderDelete: { id: ID },
  adminModelDiscover: { id: ID },
  adminModelSave: { id: ID, providerId: ID, model: 'gpt-4o', name: 'GPT-4o' },
  adminModelDelete: { id: ID },
  adminModelSetDefault: { id: ID },
  adminAgentReviewList: { current: 1 },
  adminAgentApprove: { versionId: ID },
  adminAgentReject: { versionId: ID, reason: 'Not yet.' },
};

/** Every string leaf of a sample, by its dot path. */
function stringPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value === 'string') return [path];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...path, key]));
}

function withNul(input: Input, path: string[]): Input {
  const copy = structuredClone(input);
  let node = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path.at(-1)!;
  node[last] = `${String(node[last]).slice(0, 2)}\u0000${String(node[last]).slice(2)}`;
  return copy;
}

let h: Awaited<ReturnType<typeof openHarness>>;
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  h = await openHarness();
  t = h.makeApp();
  // An admin of an organisation may call every endpoint, so each one reads its input.
  headers = (await h.loggedIn(t, { role: 'admin', companyId: 'kraken' })).headers;
});
afterAll(() => h.close());

const send = (endpoint: Endpoint, input: Input, query = '') => {
  if (endpoint.method === 'GET' || endpoint.input === 'query') {
    const qs = new URLSearchParams(input as Record<string, string>).toString();
    return t.raw(`${endpoint.path}?${qs}${query}`, { method: endpoint.method, headers });
  }
  return t.raw(`${endpoint.path}${query ? `?${query.slice(1)}` : ''}`, {
    method: endpoint.method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  });
};

const table = Object.entries(endpoints) as [EndpointName, Endpoint][];

describe('a NUL character', () => {
  const cases = table.flatMap(([name, endpoint]) =>
    samples[name] ? stringPaths(samples[name]).map((path) => [name, path.join('.'), endpoint, path] as const) : [],
  );

  it('is tried in at least one string field of every endpoint that reads input', () => {
    const reading = table.filter(([name, endpoint]) => 'request' in endpoint && name !== 'upload').map(([name]) => name);
    expect(reading.filter((name) => !samples[name])).toEqual([]);
    expect(cases.length).toBeGreaterThan(50);
  });

  it.each(cases)('in %s %s answers 400 naming the field', async (name, field, endpoint, path) => {
    const response = await send(endpoint, withNul(samples[name]!, path));
    const body = (await response.json()) as { msg: string };
    expect(response.status, body.msg).toBe(400);
    expect(body.msg).toContain(`${field}: must not contain the NUL character`);
  });

  it.each(table.map(([name, endpoint]) => [name, endpoint] as const))('in the query of %s answers 400 naming the parameter', async (_name, endpoint) => {
    const response = await send(endpoint, {}, '&note=a%00b');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { msg: string }).msg).toContain('note: must not contain the NUL character');
  });

  it('in a path answers 400, and in an uploaded file name is removed', async () => {
    const file = await t.raw('/api/media/file/abc%00def', { headers });
    expect(file.status).toBe(400);
    expect(((await file.json()) as { msg: string }).msg).toContain('the path: must not contain the NUL character');

    const form = new FormData();
    form.set('file', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'pi\u0000c.png'));
    const upload = await t.raw(endpoints.upload.path, { method: 'POST', headers, body: form });
    expect(upload.status).toBe(200);
    expect(((await upload.json()) as { data: { name: string } }).data.name).toBe('pic.png');
  });
});

describe("a provider's name", () => {
  it('with a NUL or bidi controls signs in as a nickname without them (WeChat, here its simulator)', async () => {
    const consent = await t.raw('/api/wechat-simulator/authorize', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
      body: new URLSearchParams({ redirect_uri: 'http://localhost/login', state: 's1', name: 'Li\u0000 \u202EnaL' }).toString(),
    });
    expect(consent.status).toBe(303);
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const login = await t.get('/api/system/auth/wx-login', { code });
    expect(login.status, t.logs.filter((l) => l.startsWith('error')).join('\n').slice(0, 1500)).toBe(200);
    expect(login.body.data.userInfo.nickname).toBe('Li naL');
  });
});
