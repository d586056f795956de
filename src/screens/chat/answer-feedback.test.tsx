import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { DEFAULT_AGENT_ID } from '../../contract/agents';
import { endpoints } from '../../contract/endpoints';
import type { FileRef } from '../../contract/media';
import { db, seedAgent, seedConversation, seedUser, userOwner } from '../../../tests/msw/db';
import { recordRequests, server } from '../../../tests/msw/server';
import { http, HttpResponse } from 'msw';
import { chatStreamHandler } from '../../../tests/msw/sse';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { holdRequests } from '../../../tests/spa/models/held-calls';
import ChatScreen from './chat-screen';

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

const answered = () => {
  const { user } = seedUser();
  const conversation = seedConversation({
    owner: userOwner(user.id),
    messages: [
      { role: 'user', content: 'Is it ripe?' },
      { role: 'assistant', content: 'Yes, it is ripe.' },
    ],
  });
  const stored = db.messages.get(conversation.conversationId)!;
  stored[1]!.usage = { promptTokens: 12_345, completionTokens: 67 };
  return { user, conversation, answer: stored[1]! };
};

const picture: FileRef = { fileId: 'f-1', name: 'pear.png', url: '/api/media/file/f-1', kind: 'image', mimeType: 'image/png', size: 120 };

describe('rating answers', () => {
  it('rates an answer with a thumb, shows it pressed, and takes it back when pressed again', async () => {
    const { user, conversation, answer } = answered();
    const posts = recordRequests(endpoints.messageFeedback.path);
    const view = await renderWithRuntime(routes, { url: `/chat/${conversation.conversationId}`, signedInAs: user });
    const reply = (await screen.findByTestId('answer')).closest('li')!;
    const up = within(reply).getByRole('button', { name: 'Good answer' });
    expect(up).toHaveAttribute('aria-pressed', 'false');
    // questions are not rated
    expect(within(screen.getByTestId('question').closest('li')!).queryByRole('button', { name: 'Good answer' })).toBeNull();

    await view.user.click(up);
    await expect.poll(() => up.getAttribute('aria-pressed')).toBe('true');
    expect(answer.feedback).toEqual({ rating: 'up' });
    expect(JSON.parse(await posts[0]!.text)).toEqual({ conversationId: conversation.conversationId, messageId: answer.messageId, rating: 'up' });

    await view.user.click(up);
    await expect.poll(() => up.getAttribute('aria-pressed')).toBe('false');
    expect(answer.feedback).toBeUndefined();
  });

  it('takes no second rating while one is being saved, nor any change to a comment being sent', async () => {
    const { user, conversation } = answered();
    const { answer } = holdRequests({ feedback: endpoints.messageFeedback });
    const view = await renderWithRuntime(routes, { url: `/chat/${conversation.conversationId}`, signedInAs: user });
    const reply = (await screen.findByTestId('answer')).closest('li')!;
    await view.user.click(within(reply).getByRole('button', { name: 'Good answer' }));
    for (const name of ['Good answer', 'Bad answer', 'Comment']) expect(within(reply).getByRole('button', { name })).toBeDisabled();
    await answer('feedback', undefined as unknown as Response);
    await expect.poll(() => within(reply).getByRole('button', { name: 'Comment' }).hasAttribute('disabled')).toBe(false);

    await view.user.click(within(reply).getByRole('button', { name: 'Comment' }));
    const dialog = screen.getByRole('dialog', { name: 'Tell us about this answer' });
    await view.user.type(within(dialog).getByLabelText('Comment (optional)'), 'Sweet');
    await view.user.click(within(dialog).getByRole('button', { name: 'Send' }));
    for (const name of ['Good answer', 'Bad answer', 'Cancel', 'Send']) expect(within(dialog).getByRole('button', { name })).toBeDisabled();
    expect(within(dialog).getByLabelText('Comment (optional)')).toHaveAttribute('readonly');
    await answer('feedback', undefined as unknown as Response);
    await expect.poll(() => screen.queryByRole('dialog', { name: 'Tell us about this answer' })).toBeNull();
  });

  it('keeps the comment typed when it cannot be saved, and says so', async () => {
    const { user, conversation } = answered();
    server.use(http.post(endpoints.messageFeedback.path, () => HttpResponse.json({ code: 500, msg: 'down', data: null, success: false }, { status: 500 })));
    const view = await renderWithRuntime(routes, { url: `/chat/${conversation.conversationId}`, signedInAs: user });
    const reply = (await screen.findByTestId('answer')).closest('li')!;
    await view.user.click(within(reply).getByRole('button', { name: 'Comment' }));
    const dialog = screen.getByRole('dialog', { name: 'Tell us about this answer' });
    await view.user.type(within(dialog).getByLabelText('Comment (optional)'), 'Not ripe at all');
    await view.user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your rating could not be saved. Try again.');
    expect(within(dialog).getByLabelText('Comment (optional)')).toHaveValue('Not ripe at all');
    expect(within(reply).getByRole('button', { name: 'Bad answer' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows the tokens an answer cost as soon as its stream ends', async () => {
    server.use(
      chatStreamHandler([
        { type: 'start', conversationId: 'conv-u', userMessageId: 'u', replyMessageId: 'r' },
        { type: 'delta', messageId: 'r', text: 'Counted.' },
        { type: 'end', messageIds: ['u', 'r'], usage: { promptTokens: 900, completionTokens: 3 } },
      ]),
    );
    const view = await renderWithRuntime(routes, { url: '/chat' });
    await view.user.type(screen.getByRole('textbox', { name: /Ask anything/ }), 'Count{Enter}');
    expect(await screen.findByTestId('token-usage')).toHaveTextContent('900 tokens in · 3 tokens out');
  });

  it('shows the tokens an answer cost, in the reader’s number format', async () => {
    const { user, conversation } = answered();
    await renderWithRuntime(routes, { url: `/chat/${conversation.conversationId}`, signedInAs: user });
    expect(await screen.findByTestId('token-usage')).toHaveTextContent('12,345 tokens in · 67 tokens out');
  });
});

describe('images and agents that cannot see them', () => {
  it('says before sending that this agent will only get the image’s name', async () => {
    const view = await renderWithRuntime(routes, { url: '/chat' });
    expect(screen.queryByTestId('images-unseen')).toBeNull();
    act(() => view.runtime.chat.send({ type: 'attachments.change', files: [picture] }));
    expect(await screen.findByTestId('images-unseen')).toHaveTextContent('This agent cannot see images: it will only get the file name.');
  });

  it('says nothing for an agent that sees images', async () => {
    db.agents.splice(0, db.agents.length);
    seedAgent({ agentId: DEFAULT_AGENT_ID, name: 'Seeing assistant', vision: true });
    const view = await renderWithRuntime(routes, { url: '/chat' });
    act(() => view.runtime.chat.send({ type: 'attachments.change', files: [picture] }));
    await screen.findByText('Seeing assistant');
    expect(screen.queryByTestId('images-unseen')).toBeNull();
  });
});
