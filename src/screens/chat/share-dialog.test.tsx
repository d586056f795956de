import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import { db, seedConversation, seedUser, userOwner, visitorOwner } from '../../../tests/msw/db';
import { failBody } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { holdRequests } from '../../../tests/spa/models/held-calls';
import { getVisitorId } from '../../services/visitor';
import ChatScreen from './chat-screen';

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

const MESSAGES = [
  { role: 'user' as const, content: 'Plan a picnic' },
  { role: 'assistant' as const, content: 'Bring bread.' },
];

describe('sharing a conversation from the chat', () => {
  it('makes a link without the owner’s name unless chosen, shows it to copy, and revokes it', async () => {
    const { user } = seedUser({ nickname: 'Ada' });
    const conversation = seedConversation({ owner: userOwner(user.id), title: 'Picnic', messages: MESSAGES });
    const creates = recordRequests(endpoints.shareCreate.path);
    const view = await renderWithRuntime(routes, { url: `/chat/${conversation.conversationId}`, signedInAs: user });
    await view.user.click(await screen.findByRole('button', { name: 'Share or export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share or export this chat' });
    const showName = await within(dialog).findByRole('checkbox', { name: 'Show my name' });
    expect(showName).not.toBeChecked();

    await view.user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const address = await within(dialog).findByRole('textbox', { name: 'Link address' });
    expect((address as HTMLInputElement).value).toMatch(/\/share\/\S{43}$/);
    expect(JSON.parse(await creates[0]!.text)).toEqual({ conversationId: conversation.conversationId, showOwnerName: false });
    expect(within(dialog).getByTestId('share-link')).toHaveTextContent('without your name');

    await view.user.click(showName);
    await view.user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await expect.poll(() => within(dialog).queryAllByTestId('share-link').length).toBe(2);
    expect(JSON.parse(await creates[1]!.text)).toMatchObject({ showOwnerName: true });

    await view.user.click(within(dialog).getAllByRole('button', { name: 'Revoke link' })[0]!);
    await expect.poll(() => within(dialog).queryAllByTestId('share-link').length).toBe(1);
    expect(db.shares.size).toBe(1);
  });

  it('offers no second request while a link is being made, and offers them all again once it is', async () => {
    const { user } = seedUser({ nickname: 'Ada' });
    const conversation = seedConversation({ owner: userOwner(user.id), title: 'Picnic', messages: MESSAGES });
    const view = await renderWithRuntime(routes, { url: `/chat/${conversation.conversationId}`, signedInAs: user });
    await view.user.click(await screen.findByRole('button', { name: 'Share or export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share or export this chat' });
    await view.user.click(await within(dialog).findByRole('button', { name: 'Create link' }));
    await expect.poll(() => within(dialog).queryAllByTestId('share-link').length).toBe(1);

    const { answer } = holdRequests({ create: endpoints.shareCreate });
    await view.user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    for (const name of ['Create link', 'Export as Markdown', 'Export as JSON', 'Revoke link']) {
      expect(within(dialog).getByRole('button', { name })).toBeDisabled();
    }
    await answer('create', undefined as unknown as Response);
    await expect.poll(() => within(dialog).queryAllByTestId('share-link').length).toBe(2);
    for (const name of ['Create link', 'Export as Markdown', 'Export as JSON']) {
      expect(within(dialog).getByRole('button', { name })).toBeEnabled();
    }
    for (const revoke of within(dialog).getAllByRole('button', { name: 'Revoke link' })) expect(revoke).toBeEnabled();
  });

  it('says when a link is refused because too many were made lately, and makes one once allowed again', async () => {
    const { user } = seedUser({ nickname: 'Ada' });
    const conversation = seedConversation({ owner: userOwner(user.id), title: 'Picnic', messages: MESSAGES });
    server.use(
      http.post(
        endpoints.shareCreate.path,
        () => HttpResponse.json(failBody('You have reached the limit of 20 new share links a minute for a signed-in user. Please wait 60 seconds and try again.'), { status: 429, headers: { 'Retry-After': '60' } }),
        { once: true },
      ),
    );
    const view = await renderWithRuntime(routes, { url: `/chat/${conversation.conversationId}`, signedInAs: user });
    await view.user.click(await screen.findByRole('button', { name: 'Share or export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share or export this chat' });
    await view.user.click(await within(dialog).findByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('You’ve made the most share links allowed for now. Please try again later.')).toBeInTheDocument();
    expect(within(dialog).queryAllByTestId('share-link')).toHaveLength(0);

    await view.user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await expect.poll(() => within(dialog).queryAllByTestId('share-link').length).toBe(1);
    expect(within(dialog).queryByText('You’ve made the most share links allowed for now. Please try again later.')).toBeNull();
  });

  it('lets a visitor export but tells them sharing needs an account', async () => {
    const conversation = seedConversation({ owner: visitorOwner(getVisitorId()), title: 'Picnic', messages: MESSAGES });
    const lists = recordRequests(endpoints.shareList.path);
    const view = await renderWithRuntime(routes, { url: `/chat/${conversation.conversationId}` });
    await view.user.click(await screen.findByRole('button', { name: 'Share or export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share or export this chat' });
    expect(within(dialog).getByText('Log in to share chats by link and revoke them any time.', { exact: false })).toBeInTheDocument();
    // The way to log in is right there, and it comes back to this chat.
    expect(within(dialog).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', `/login?redirect_url=${encodeURIComponent(`/chat/${conversation.conversationId}`)}`);
    expect(within(dialog).queryByRole('button', { name: 'Create link' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Export as Markdown' })).toBeEnabled();
    expect(lists).toHaveLength(0);
  });
});
