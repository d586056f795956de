// @vitest-environment jsdom
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID } from '../../src/contract/agents';
import type { ChatEvent } from '../../src/contract/chat';
import { getAgentDetail, listPublishedAgents } from '../../src/services/api/agents';
import { listApplications } from '../../src/services/api/applications';
import { loginWithPassword, logout } from '../../src/services/api/auth';
import {
  createConversation,
  deleteConversation,
  getConversation,
  listConversations,
  listMessages,
  updateConversation,
} from '../../src/services/api/conversations';
import { getUserInfo, updateUser } from '../../src/services/api/users';
import { streamChat } from '../../src/services/chat-stream';
import { clearToken, setToken } from '../../src/services/cookies';
import { ApiError, configureHttp } from '../../src/services/http';
import { startServer, type RunningServer } from '../../server/start';

/**
 * The SPA's own service functions against the real reference server: if either side drifts from
 * the contract, a call here fails (the client validates every answer against the contract).
 */
describe('SPA services against the reference server', () => {
  let server: RunningServer;
  let dataDir: string;
  const demo = { username: 'contract@kraken.local', password: 'contract-Password-1' };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kraken-contract-'));
    server = await startServer({ port: 0, dataDir, spaDir: null, env: {}, config: { offlineTokenDelayMs: 0 }, demo, log: () => undefined });
    configureHttp({ baseURL: server.url, currentPath: () => '/' });
  }, 60_000);

  afterAll(async () => {
    clearToken();
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists and reads published agents, and lists applications, as a visitor', async () => {
    const page = await listPublishedAgents({ current: 1, pageSize: 5 });
    expect(page.current).toBe(1);
    expect(page.pageSize).toBe(5);
    expect(page.list.length).toBeGreaterThan(0);
    expect(page.list.every((agent) => agent.published && !agent.isDraft)).toBe(true);
    const agent = await getAgentDetail(DEFAULT_AGENT_ID);
    expect(agent.agentId).toBe(DEFAULT_AGENT_ID);
    const applications = await listApplications();
    expect(applications.list.every((application) => !application.isDraft)).toBe(true);
  });

  it('refuses a wrong password with the server message', async () => {
    await expect(loginWithPassword({ username: demo.username, password: 'wrong-password' }, { silent: true })).rejects.toBeInstanceOf(ApiError);
  });

  it('logs in, reads and updates the user, chats, manages the conversation, and logs out', async () => {
    const { token, userInfo } = await loginWithPassword(demo);
    expect(userInfo.username).toBe(demo.username);
    setToken(token);

    const me = await getUserInfo();
    expect(me.id).toBe(userInfo.id);
    const renamed = await updateUser({ nickname: 'Contract Tester' });
    expect(renamed.nickname).toBe('Contract Tester');

    const conversation = await createConversation({ sourceId: DEFAULT_AGENT_ID, source: 'agent' });
    const events: ChatEvent[] = [];
    await streamChat(
      { conversationId: conversation.conversationId, agentId: DEFAULT_AGENT_ID, text: 'Hello from the contract test' },
      { signal: new AbortController().signal, onEvent: (event) => events.push(event) },
    );
    expect(events[0]?.type).toBe('start');
    expect(events.at(-1)?.type).toBe('end');
    const answer = events.flatMap((event) => (event.type === 'delta' ? [event.text] : [])).join('');
    expect(answer).toContain('LLM_BASE_URL');

    const messages = await listMessages(conversation.conversationId);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(messages[0]?.content).toBe('Hello from the contract test');
    expect(messages[1]).toMatchObject({ status: 'complete', content: answer });

    const updated = await updateConversation({ conversationId: conversation.conversationId, title: 'Renamed', pinned: true });
    expect(updated).toMatchObject({ title: 'Renamed', pinned: true });
    expect((await getConversation(conversation.conversationId)).title).toBe('Renamed');
    const list = await listConversations({ source: 'agent' });
    expect(list.list[0]?.conversationId).toBe(conversation.conversationId);

    await deleteConversation(conversation.conversationId);
    await expect(getConversation(conversation.conversationId, { silent: true })).rejects.toBeInstanceOf(ApiError);

    await logout();
    const refused = await getUserInfo({ silent: true }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(401);
    clearToken();
  });
});
