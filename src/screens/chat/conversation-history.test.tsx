import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import { db, seedAgent, seedConversation, visitorOwner } from '../../../tests/msw/db';
import { fail } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { gate } from '../../../tests/msw/sse';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { getVisitorId } from '../../services/visitor';
import ChatScreen from './chat-screen';

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

const openChat = (url = '/chat') => renderWithRuntime(routes, { url });
const nav = () => screen.getByRole('navigation', { name: 'Chat history' });
const titles = () => within(nav()).queryAllByTestId('history-title').map((element) => element.textContent);

/** A conversation of this browser's visitor, last updated at the given time. */
const seedChat = (title: string, updatedAt?: string, extra: { pinned?: boolean } = {}) => {
  const conversation = seedConversation({ owner: visitorOwner(getVisitorId()), title, ...extra });
  if (updatedAt) db.conversations.get(conversation.conversationId)!.updatedAt = new Date(updatedAt).toISOString();
  return conversation;
};

// jsdom has no pointer capture; the toast's swipe handling asks for it when its Undo is clicked.
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => undefined;

afterEach(() => {
  vi.useRealTimers();
});

describe('the chat history', () => {
  it('says it is loading, then that there are no chats yet', async () => {
    const hold = gate();
    server.use(
      http.post(endpoints.conversationList.path, async () => {
        await hold.promise;
        return undefined;
      }),
    );
    await openChat();
    expect(await within(nav()).findByText('Loading chats…')).toBeInTheDocument();
    hold.open();
    expect(await within(nav()).findByText('No conversations yet')).toBeInTheDocument();
  });

  it('says the chats could not be loaded and reloads them', async () => {
    seedChat('Croissants');
    server.use(http.post(endpoints.conversationList.path, () => fail(500, 'down'), { once: true }));
    const view = await openChat();
    expect(await within(nav()).findByRole('alert')).toHaveTextContent('Your chats could not be loaded');
    await view.user.click(within(nav()).getByRole('button', { name: 'Reload' }));
    expect(await within(nav()).findByRole('link', { name: 'Croissants' })).toBeInTheDocument();
  });

  it('groups chats pinned first, then Today, Yesterday, Previous 7 days, Earlier, with relative times', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-03-10T15:00:00'));
    seedChat('Last month', '2025-02-08T10:00:00');
    seedChat('Three days ago', '2025-03-07T09:00:00');
    seedChat('Yesterday evening', '2025-03-09T20:00:00');
    seedChat('This morning', '2025-03-10T09:00:00');
    seedChat('Pinned plan', '2025-01-02T09:00:00', { pinned: true });
    await openChat();

    await within(nav()).findByRole('link', { name: 'This morning' });
    const headings = within(nav()).getAllByRole('heading', { level: 3 }).map((element) => element.textContent);
    expect(headings).toEqual(['Pinned', 'Today', 'Yesterday', 'Previous 7 days', 'Earlier']);
    expect(titles()).toEqual(['Pinned plan', 'This morning', 'Yesterday evening', 'Three days ago', 'Last month']);
    const timeOf = (title: string) => within(nav()).getByRole('link', { name: title }).querySelector('time')?.textContent;
    expect(timeOf('This morning')).toBe('6 hours ago');
    expect(timeOf('Yesterday evening')).toBe('19 hours ago');
    expect(timeOf('Three days ago')).toBe('3 days ago');
    expect(timeOf('Last month')).toBe('last month');
    expect(within(nav()).getByRole('link', { name: 'This morning' })).toHaveAccessibleDescription('6 hours ago');
  });

  it('renames a chat inline: Enter saves, Escape keeps the old name', async () => {
    const chat = seedChat('Old name');
    const view = await openChat();
    await view.user.click(await within(nav()).findByRole('button', { name: 'Rename “Old name”' }));
    const field = within(nav()).getByRole('textbox', { name: 'New name for “Old name”' });
    expect(field).toHaveFocus();
    await view.user.clear(field);
    await view.user.type(field, 'Typed then abandoned{Escape}');
    expect(within(nav()).getByRole('link', { name: 'Old name' })).toBeInTheDocument();

    await view.user.click(within(nav()).getByRole('button', { name: 'Rename “Old name”' }));
    const again = within(nav()).getByRole('textbox', { name: 'New name for “Old name”' });
    await view.user.clear(again);
    await view.user.type(again, 'Bakery launch{Enter}');
    expect(within(nav()).getByRole('link', { name: 'Bakery launch' })).toBeInTheDocument();
    await expect.poll(() => db.conversations.get(chat.conversationId)?.title).toBe('Bakery launch');
  });

  it('puts the old name back and says so when the server refuses a rename', async () => {
    seedChat('Keep me');
    server.use(http.post(endpoints.conversationUpdate.path, () => fail(500, 'Database is read-only')));
    const view = await openChat();
    await view.user.click(await within(nav()).findByRole('button', { name: 'Rename “Keep me”' }));
    const field = within(nav()).getByRole('textbox', { name: 'New name for “Keep me”' });
    await view.user.clear(field);
    await view.user.type(field, 'Lost{Enter}');
    expect(await screen.findByText('Your change could not be saved')).toBeInTheDocument();
    expect(screen.getByText('Database is read-only')).toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Keep me' })).toBeInTheDocument();
  });

  it('pins a chat to the top and unpins it', async () => {
    seedChat('Older', '2025-01-01T00:00:00');
    const chat = seedChat('Newer');
    const view = await openChat();
    await within(nav()).findByRole('link', { name: 'Older' });
    expect(titles()).toEqual(['Newer', 'Older']);

    await view.user.click(within(nav()).getByRole('button', { name: 'Pin “Older”' }));
    expect(titles()).toEqual(['Older', 'Newer']);
    expect(within(nav()).getByRole('heading', { name: 'Pinned' })).toBeInTheDocument();

    await view.user.click(within(nav()).getByRole('button', { name: 'Unpin “Older”' }));
    expect(within(nav()).queryByRole('heading', { name: 'Pinned' })).toBeNull();
    await expect.poll(() => [...db.conversations.values()].map((item) => item.pinned)).toEqual([false, false]);
    expect(chat.pinned).toBe(false);
  });

  it('hides a deleted chat at once, brings it back with Undo, and deletes it on the server only after the undo window', async () => {
    const chat = seedChat('Delete me');
    seedChat('Stay');
    const deletes = recordRequests(endpoints.conversationDelete.path);
    const view = await openChat();

    await view.user.click(await within(nav()).findByRole('button', { name: 'Delete “Delete me”' }));
    expect(within(nav()).queryByRole('link', { name: 'Delete me' })).toBeNull();
    expect(await screen.findByText('Chat deleted')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(within(nav()).getByRole('link', { name: 'Delete me' })).toBeInTheDocument();
    expect(titles()).toEqual(['Stay', 'Delete me']);

    await view.user.click(within(nav()).getByRole('button', { name: 'Delete “Delete me”' }));
    expect(within(nav()).queryByRole('link', { name: 'Delete me' })).toBeNull();
    expect(deletes).toHaveLength(0);
    expect(db.conversations.has(chat.conversationId)).toBe(true);
    await expect.poll(() => db.conversations.has(chat.conversationId), { timeout: 8000, interval: 200 }).toBe(false);
    expect(deletes).toHaveLength(1);
  }, 15_000);

  it('never shows a deleted chat again after the page is reloaded or closed within the undo window', async () => {
    const chat = seedChat('Delete me');
    seedChat('Stay');
    const deletes = recordRequests(endpoints.conversationDelete.path);
    // The deletion sent as the page goes may reach the server after the next page's first list.
    const lateDelete = gate();
    server.use(
      http.post(endpoints.conversationDelete.path, async () => {
        if (deletes.length === 1) await lateDelete.promise;
        return undefined;
      }),
    );
    const before = await openChat();
    await before.user.click(await within(nav()).findByRole('button', { name: 'Delete “Delete me”' }));
    expect(await screen.findByText('Chat deleted')).toBeInTheDocument();

    // A reload: the page is hidden for good, and a new one starts in the same tab.
    window.dispatchEvent(new Event('pagehide'));
    await expect.poll(() => deletes.length).toBe(1);
    before.unmount();
    before.runtime.stop();
    await openChat();
    await expect.poll(() => titles()).toEqual(['Stay']);
    expect(db.conversations.has(chat.conversationId)).toBe(false);
    lateDelete.open();
  });

  it('leaves the open chat when it is deleted', async () => {
    const chat = seedChat('Open one');
    const view = await openChat(`/chat/${chat.conversationId}`);
    await view.user.click(await within(nav()).findByRole('button', { name: 'Delete “Open one”' }));
    await expect.poll(() => view.url()).toBe('/chat');
  });

  it('searches on the server once the typing pauses', async () => {
    seedChat('Sourdough starter');
    seedChat('Tax return');
    const requests = recordRequests(endpoints.conversationList.path);
    const view = await openChat();
    await within(nav()).findByRole('link', { name: 'Tax return' });

    await view.user.type(within(nav()).getByRole('searchbox', { name: 'Search chats' }), 'dough');
    await expect.poll(() => titles()).toEqual(['Sourdough starter']);
    expect(requests).toHaveLength(2);
    expect(JSON.parse(await requests[1]!.text)).toMatchObject({ keyword: 'dough' });

    await view.user.type(within(nav()).getByRole('searchbox', { name: 'Search chats' }), 'zzz');
    expect(await within(nav()).findByText('No chats match “doughzzz”')).toBeInTheDocument();
  });

  it('finds words inside messages and shows where they are', async () => {
    seedConversation({
      owner: visitorOwner(getVisitorId()),
      title: 'Weekend baking',
      messages: [
        { role: 'user', content: 'How long should rye proof overnight?' },
        { role: 'assistant', content: 'About twelve hours in the fridge.' },
      ],
    });
    seedChat('Tax return');
    const view = await openChat();
    await within(nav()).findByRole('link', { name: 'Tax return' });

    await view.user.type(within(nav()).getByRole('searchbox', { name: 'Search chats' }), 'rye');
    await expect.poll(() => titles()).toEqual(['Weekend baking']);
    const row = within(nav()).getByRole('link', { name: 'Weekend baking' });
    expect(row).toHaveAccessibleDescription('How long should rye proof overnight?');
    expect(within(row).getByTestId('history-match')).toHaveTextContent('How long should rye proof overnight?');
    expect(within(row).getByTestId('history-match').querySelector('mark')).toHaveTextContent(/^rye$/);
  });

  it('refreshes when another screen says the list changed, and on window focus at most every 5 s', async () => {
    const view = await openChat();
    expect(await within(nav()).findByText('No conversations yet')).toBeInTheDocument();
    seedChat('Made elsewhere');
    view.runtime.screenEvents.emit('updateChatList');
    expect(await within(nav()).findByRole('link', { name: 'Made elsewhere' })).toBeInTheDocument();

    const requests = recordRequests(endpoints.conversationList.path);
    window.dispatchEvent(new Event('focus'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toHaveLength(0);
  });

  it('shows the selected agent in the header, from a ?agent= link', async () => {
    seedAgent({ agentId: 'poet', name: 'Poet', intro: 'Writes short poems.' });
    const view = await openChat('/chat?agent=poet');
    expect(await screen.findByTestId('chat-agent-name')).toHaveTextContent('Poet');
    expect(screen.getByText('Writes short poems.')).toBeInTheDocument();
    expect(view.runtime.chat.getSnapshot().context.agentId).toBe('poet');
  });

  it('says when the agent’s details cannot be fetched', async () => {
    await openChat('/chat?agent=nobody');
    expect(await screen.findByText('Agent details unavailable')).toBeInTheDocument();
  });
});
