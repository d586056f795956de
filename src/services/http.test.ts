import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { TOKEN_COOKIE } from '../contract/auth';
import { endpoints } from '../contract/endpoints';
import { issueToken, seedUser } from '../../tests/msw/db';
import { recordRequests, server } from '../../tests/msw/server';
import { listPublishedAgents } from './api/agents';
import { getUserInfo } from './api/users';
import { setToken } from './cookies';
import { ApiError, call, configureHttp } from './http';

const userInfoPath = endpoints.userInfo.path;

/** Hooks that record what the client announced, as the app would show it. */
const watchHooks = (currentPath: string) => {
  const onRequestError = vi.fn<(error: ApiError) => void>();
  const onUnauthorized = vi.fn<(error: ApiError) => void>();
  configureHttp({ onRequestError, onUnauthorized, currentPath: () => currentPath });
  return { onRequestError, onUnauthorized };
};

const serverFailsWith500 = () =>
  server.use(
    http.post(endpoints.agentPublishedList.path, () =>
      HttpResponse.json({ code: 1, msg: 'The database is resting', data: null, success: false }, { status: 500 }),
    ),
  );

describe('the HTTP client', () => {
  it('sends the token from the ai-chat-ops-token cookie as a bearer header', async () => {
    const { user } = seedUser({ nickname: 'Ada' });
    const token = issueToken(user.id);
    document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/`;
    const seen = recordRequests(userInfoPath);

    const info = await getUserInfo();

    expect(info.nickname).toBe('Ada');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get('authorization')).toBe(`Bearer ${token}`);
  });

  it('sends no Authorization header without the cookie, but always the visitor id', async () => {
    const seen = recordRequests(endpoints.agentPublishedList.path);

    await listPublishedAgents();
    await listPublishedAgents();

    expect(seen).toHaveLength(2);
    expect(seen[0]!.headers.has('authorization')).toBe(false);
    const visitorId = seen[0]!.headers.get('x-visitor-id');
    expect(visitorId).toMatch(/^[0-9a-f-]{36}$/);
    // The same browser keeps the same visitor id: its conversations stay its own.
    expect(seen[1]!.headers.get('x-visitor-id')).toBe(visitorId);
  });

  it('unwraps the envelope to its data', async () => {
    const result = await listPublishedAgents({ pageSize: 5 });
    expect(result).toMatchObject({ current: 1, pageSize: 5, total: 1 });
    expect(result.list[0]?.agentId).toBe('SpecialNoAgentFallback');
    expect(result).not.toHaveProperty('code');
  });

  it('turns code 1 into an ApiError carrying the server msg, even with HTTP 200', async () => {
    server.use(http.post(endpoints.agentPublishedList.path, () => HttpResponse.json({ code: 1, msg: 'Agents are on strike', data: null })));
    const failure = listPublishedAgents();
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ message: 'Agents are on strike', description: 'Agents are on strike', code: 1 });
  });

  it('reads the success flag when an answer carries no code', async () => {
    server.use(
      http.post(endpoints.agentPublishedList.path, () =>
        HttpResponse.json({ success: true, msg: '', data: { list: [], total: 0, current: 1, pageSize: 10 } }),
      ),
    );
    await expect(listPublishedAgents()).resolves.toEqual({ list: [], total: 0, current: 1, pageSize: 10 });

    server.use(http.post(endpoints.agentPublishedList.path, () => HttpResponse.json({ success: false, msg: 'Not today', data: null })));
    await expect(listPublishedAgents()).rejects.toMatchObject({ message: 'Not today' });
  });

  it('rejects an answer that does not match the contract', async () => {
    server.use(
      http.post(endpoints.agentPublishedList.path, () =>
        HttpResponse.json({ code: 0, msg: 'ok', data: { list: [{ name: 42 }], total: 'many', current: 1, pageSize: 10 } }),
      ),
    );
    const failure = listPublishedAgents();
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toThrow(/Unexpected answer/);
  });

  it('announces a failed request with the server msg as the description on the chat page', async () => {
    const hooks = watchHooks('/chat');
    serverFailsWith500();

    await expect(listPublishedAgents()).rejects.toMatchObject({ status: 500, description: 'The database is resting' });

    expect(hooks.onRequestError).toHaveBeenCalledTimes(1);
    expect(hooks.onRequestError.mock.calls[0]![0].description).toBe('The database is resting');
  });

  it('uses the raw body as the description when the failure is not an envelope', async () => {
    const hooks = watchHooks('/chat/conv-1');
    server.use(http.post(endpoints.agentPublishedList.path, () => new HttpResponse('the disk is full', { status: 500 })));

    await expect(listPublishedAgents()).rejects.toMatchObject({ status: 500 });

    expect(hooks.onRequestError.mock.calls[0]![0].description).toBe('the disk is full');
  });

  it.each(['/', '/login', '/download'])('does not announce a failure on the quiet page %s', async (path) => {
    const hooks = watchHooks(path);
    serverFailsWith500();

    await expect(listPublishedAgents()).rejects.toBeInstanceOf(ApiError);

    expect(hooks.onRequestError).not.toHaveBeenCalled();
  });

  it('lets a caller opt out of the announcement with silent', async () => {
    const hooks = watchHooks('/chat');
    serverFailsWith500();

    await expect(listPublishedAgents({}, { silent: true })).rejects.toMatchObject({ description: 'The database is resting' });

    expect(hooks.onRequestError).not.toHaveBeenCalled();
  });

  it('reports a 401 as an ended session, even for a silent call', async () => {
    const hooks = watchHooks('/kraken-operation');
    setToken('token-that-the-server-forgot-long-ago');

    const failure = getUserInfo({ silent: true });

    await expect(failure).rejects.toMatchObject({ status: 401, unauthorized: true });
    expect(hooks.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(hooks.onUnauthorized.mock.calls[0]![0].status).toBe(401);
    expect(hooks.onRequestError).not.toHaveBeenCalled();
  });

  it('does not report an ended session for other failures', async () => {
    const hooks = watchHooks('/chat');
    serverFailsWith500();
    await expect(listPublishedAgents()).rejects.toBeInstanceOf(ApiError);
    expect(hooks.onUnauthorized).not.toHaveBeenCalled();
  });

  it('sends query input on the query string and body input as JSON', async () => {
    const seenQuery = recordRequests(endpoints.agentDetail.path);
    const seenBody = recordRequests(endpoints.agentPublishedList.path);

    await call('agentDetail', { agentId: 'SpecialNoAgentFallback' });
    await call('agentPublishedList', { keyword: 'General' });

    expect(new URLSearchParams(seenQuery[0]!.search).get('agentId')).toBe('SpecialNoAgentFallback');
    expect(JSON.parse(await seenBody[0]!.text)).toEqual({ keyword: 'General' });
  });

  it('says the server cannot be reached, in the app’s words, when no answer comes', async () => {
    const onRequestError = vi.fn<(error: ApiError) => void>();
    configureHttp({ onRequestError, currentPath: () => '/chat', unreachableMessage: () => 'Server nicht erreichbar.' });
    server.use(http.post(endpoints.agentPublishedList.path, () => HttpResponse.error()));

    const error = (await listPublishedAgents().then(
      () => null,
      (caught: unknown) => caught,
    )) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ unreachable: true, message: 'Server nicht erreichbar.', description: 'Server nicht erreichbar.' });
    expect(onRequestError).toHaveBeenCalledWith(error);
    expect(error.message).not.toMatch(/Failed to fetch|no response|\[POST\]/);
  });

  it('takes a gateway’s 502 without the server’s envelope as the server being down, but keeps a server’s own 503', async () => {
    configureHttp({ unreachableMessage: () => 'down' });
    server.use(http.post(endpoints.agentPublishedList.path, () => new HttpResponse('<html>Bad Gateway</html>', { status: 502 })));
    await expect(listPublishedAgents()).rejects.toMatchObject({ unreachable: true, status: 502, message: 'down' });
    server.use(
      http.post(endpoints.agentPublishedList.path, () => HttpResponse.json({ code: 1, msg: 'Busy, retry soon', data: null, success: false }, { status: 503 })),
    );
    await expect(listPublishedAgents()).rejects.toMatchObject({ unreachable: false, status: 503, message: 'Busy, retry soon' });
  });
});
