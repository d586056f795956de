import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { navigate } from 'wouter/use-browser-location';
import { App } from '../../app/app';
import { createRuntime } from '../../app/runtime';
import { endpoints } from '../../contract/endpoints';
import { setToken } from '../../services/cookies';
import { forgetKeptExcept, keepConversation, type ConversationToKeep } from '../../services/offline-library';
import { issueToken, seedConversation, seedUser, userOwner } from '../../../tests/msw/db';
import { server } from '../../../tests/msw/server';
import { switchToEnglish } from '../../../tests/spa/harness';

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await forgetKeptExcept(null);
  history.replaceState(null, '', '/');
});

/** Two conversations an account read on this device, Rye read last; the server has them too. */
const readEarlier = async (userId: string) => {
  const bread = seedConversation({ owner: userOwner(userId), title: 'Bread basics', messages: [{ role: 'user', content: 'Which flour?' }, { role: 'assistant', content: 'Strong white flour.' }] });
  const rye = seedConversation({ owner: userOwner(userId), title: 'Rye starter', messages: [{ role: 'user', content: 'How often do I feed it?' }, { role: 'assistant', content: 'Every day, and **fold** it twice.' }] });
  const kept = (conversationId: string, title: string, messages: ConversationToKeep['messages']): ConversationToKeep => ({
    conversationId,
    title,
    agentName: 'Baker',
    updatedAt: '2026-11-20T10:00:05.000Z',
    messages,
  });
  const now = Date.now();
  vi.spyOn(Date, 'now').mockReturnValue(now - 60_000);
  await keepConversation(userId, kept(bread.conversationId, 'Bread basics', [
    { role: 'user', content: 'Which flour?', status: 'complete', sentAt: '2026-11-20T09:00:00.000Z' },
    { role: 'assistant', content: 'Strong white flour.', status: 'complete', sentAt: '2026-11-20T09:00:05.000Z', model: 'House model' },
  ]));
  vi.spyOn(Date, 'now').mockReturnValue(now);
  await keepConversation(userId, kept(rye.conversationId, 'Rye starter', [
    { role: 'user', content: 'How often do I feed it?', status: 'complete', sentAt: '2026-11-20T10:00:00.000Z' },
    { role: 'assistant', content: 'Every day, and **fold** it twice.', status: 'complete', sentAt: '2026-11-20T10:00:05.000Z' },
    { role: 'user', content: 'And in winter?', status: 'complete', sentAt: '2026-11-20T10:01:00.000Z' },
    { role: 'assistant', content: 'Keep it somewhere', status: 'incomplete', sentAt: '2026-11-20T10:01:05.000Z' },
  ]));
  vi.restoreAllMocks();
  return { bread: bread.conversationId, rye: rye.conversationId };
};

/** The app as main.tsx starts it, for an account whose session check cannot reach the server. */
type Kept = Awaited<ReturnType<typeof readEarlier>>;
async function startWithoutServer({
  url = () => '/',
  offline = true,
  sessionCheck = () => HttpResponse.error(),
}: { url?: (conversations: Kept) => string; offline?: boolean; sessionCheck?: () => Response } = {}) {
  await switchToEnglish();
  const { user } = seedUser();
  const conversations = await readEarlier(String(user.id));
  history.replaceState(null, '', url(conversations));
  setToken(issueToken(user.id));
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(!offline);
  server.use(http.get(endpoints.userInfo.path, sessionCheck));
  const runtime = createRuntime({ navigate, leavePage: () => undefined });
  runtime.start();
  const view = render(<App runtime={runtime} />);
  // The page goes before the app's actors, as when a tab closes.
  const stop = () => {
    view.unmount();
    runtime.stop();
  };
  return { runtime, conversations, stop, person: userEvent.setup() };
}

const kept = () => screen.getByRole('navigation', { name: 'Kept on this device' });
const reading = () => screen.getByTestId('kept-conversation');

describe('starting without the network, with conversations kept on this device', () => {
  it('says it is offline and shows the kept conversations, read only, the one read last open; the app starts when the network is back', async () => {
    const { runtime, conversations, person, stop } = await startWithoutServer();
    expect(await screen.findByRole('heading', { level: 1, name: 'You are offline' })).toBeInTheDocument();
    expect(screen.getByText(/You can still read the conversations you opened lately/)).toBeInTheDocument();
    expect(screen.getByText('Read only: sending is unavailable while offline.')).toBeInTheDocument();
    expect(screen.queryByText('The app could not start')).toBeNull();

    const links = within(kept()).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([expect.stringMatching(/^Rye starterBaker · /), expect.stringMatching(/^Bread basicsBaker · /)]);
    expect(links[0]).toHaveAttribute('aria-current', 'page');

    // the one read last, as the chat shows it: its answer through the chat's markdown, an answer cut short marked so
    expect(within(reading()).getByRole('heading', { level: 2, name: 'Rye starter' })).toBeInTheDocument();
    expect(await within(reading()).findByText('fold', { selector: 'strong' })).toBeInTheDocument();
    expect(within(reading()).getByText('How often do I feed it?')).toBeInTheDocument();
    expect(within(reading()).getByText('The answer is incomplete')).toBeInTheDocument();
    // nothing can be sent
    expect(screen.queryByRole('textbox')).toBeNull();

    await person.click(within(kept()).getByRole('link', { name: /Bread basics/ }));
    expect(location.pathname).toBe(`/chat/${conversations.bread}`);
    expect(within(reading()).getByRole('heading', { level: 2, name: 'Bread basics' })).toBeInTheDocument();
    expect(await within(reading()).findByText('Strong white flour.')).toBeInTheDocument();
    // which model wrote it, as the chat named it
    expect(within(reading()).getByTestId('answer-model')).toHaveAttribute('title', 'Written by House model');

    // the network is back: the app starts as usual, on the conversation that was being read
    server.resetHandlers();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(runtime.app.getSnapshot().value).toEqual({ loaded: 'signedIn' }));
    expect(screen.queryByRole('heading', { name: 'You are offline' })).toBeNull();
    expect(runtime.app.getSnapshot().context.kept).toBeNull();
    expect(location.pathname).toBe(`/chat/${conversations.bread}`);
    stop();
  });

  it('opens the conversation the address names, as the chat would', async () => {
    const { stop } = await startWithoutServer({ url: ({ bread }) => `/chat/${bread}` });
    expect(await screen.findByRole('heading', { level: 2, name: 'Bread basics' })).toBeInTheDocument();
    expect(within(kept()).getByRole('link', { name: /Bread basics/ })).toHaveAttribute('aria-current', 'page');
    stop();
  });

  it('online, with the server out of reach, says the server cannot be reached', async () => {
    const { stop } = await startWithoutServer({ offline: false });
    expect(await screen.findByRole('heading', { level: 1, name: 'Kraken AI cannot be reached' })).toBeInTheDocument();
    expect(within(kept()).getAllByRole('link')).toHaveLength(2);
    stop();
  });

  it('a session check refused for another reason than the network says the start failed, and shows nothing kept', async () => {
    const { stop } = await startWithoutServer({ offline: false, sessionCheck: () => HttpResponse.json({ code: 500, msg: 'Database down', data: null }, { status: 500 }) });
    expect(await screen.findByRole('heading', { name: 'The app could not start' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Kept on this device' })).toBeNull();
    stop();
  });

  it('on a phone, shows the list, then a conversation with the way back to the list', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: true, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));
    const { person, stop } = await startWithoutServer({ url: () => '/chat' });
    expect(await screen.findByRole('heading', { level: 1, name: 'You are offline' })).toBeInTheDocument();
    expect(within(kept()).getAllByRole('link')).toHaveLength(2);
    expect(screen.queryByTestId('kept-conversation')).toBeNull();

    await person.click(within(kept()).getByRole('link', { name: /Rye starter/ }));
    expect(screen.queryByRole('navigation', { name: 'Kept on this device' })).toBeNull();
    expect(within(reading()).getByRole('heading', { level: 2, name: 'Rye starter' })).toBeInTheDocument();

    await person.click(screen.getByRole('link', { name: 'All kept conversations' }));
    expect(location.pathname).toBe('/chat');
    expect(within(kept()).getAllByRole('link')).toHaveLength(2);
    stop();
  });
});
