import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import type { UserInfo } from '../../contract/users';
import { queueAnswer, seedConversation, seedUser, userOwner } from '../../../tests/msw/db';
import { recordRequests, server } from '../../../tests/msw/server';
import { chatStreamHandler, gate } from '../../../tests/msw/sse';
import { renderWithRuntime } from '../../../tests/spa/harness';
import ChatScreen from './chat-screen';

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

const openChat = (url: string, signedInAs: UserInfo) => renderWithRuntime(routes, { url, signedInAs });
const box = () => screen.getByRole('textbox', { name: /Ask anything/ });
const questionItem = () => screen.getByTestId('question').closest('li')!;
const answerItem = () => screen.getByTestId('answer').closest('li')!;

const breadConversation = (userId: string, title = 'Bread') =>
  seedConversation({
    owner: userOwner(userId),
    title,
    messages: [
      { role: 'user', content: 'Which flour?' },
      { role: 'assistant', content: 'Rye.' },
    ],
  });

describe('versions on the chat screen', () => {
  it('edits a sent question in place and sends it as a new version; the switcher goes back to the first', async () => {
    const { user } = seedUser();
    const conversation = breadConversation(user.id);
    const posts = recordRequests(endpoints.chat.path);
    const view = await openChat(`/chat/${conversation.conversationId}`, user);
    expect(await screen.findByTestId('question')).toHaveTextContent('Which flour?');
    expect(within(questionItem()).queryByRole('group', { name: 'Versions' })).toBeNull();

    await view.user.click(within(questionItem()).getByRole('button', { name: 'Edit' }));
    const editor = screen.getByRole('textbox', { name: 'Edit your question' });
    expect(editor).toHaveValue('Which flour?');
    await view.user.clear(editor);
    queueAnswer('Spelt, ', 'for rye bread.');
    await view.user.type(editor, 'Which flour for a soft loaf?');
    await view.user.click(screen.getByRole('button', { name: 'Send as a new version' }));

    await expect.poll(() => screen.getByTestId('answer').textContent).toBe('Spelt, for rye bread.');
    expect(screen.getByTestId('question')).toHaveTextContent('Which flour for a soft loaf?');
    expect(JSON.parse(await posts[0]!.text)).toMatchObject({ editMessageId: expect.any(String), text: 'Which flour for a soft loaf?' });
    const versions = within(questionItem()).getByRole('group', { name: 'Versions' });
    expect(versions).toHaveTextContent('2 / 2');
    expect(within(versions).getByRole('button', { name: 'Next version' })).toBeDisabled();

    await view.user.click(within(versions).getByRole('button', { name: 'Previous version' }));
    await expect.poll(() => screen.getByTestId('question').textContent).toBe('Which flour?');
    expect(screen.getByTestId('answer')).toHaveTextContent('Rye.');
    expect(within(questionItem()).getByRole('group', { name: 'Versions' })).toHaveTextContent('1 / 2');
    // The composer kept nothing of the edit.
    expect(box()).toHaveValue('');
  });

  it('Escape leaves an edit as it was', async () => {
    const { user } = seedUser();
    const conversation = breadConversation(user.id);
    const posts = recordRequests(endpoints.chat.path);
    const view = await openChat(`/chat/${conversation.conversationId}`, user);
    await screen.findByTestId('question');
    await view.user.click(within(questionItem()).getByRole('button', { name: 'Edit' }));
    await view.user.type(screen.getByRole('textbox', { name: 'Edit your question' }), ' and why?{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edit your question' })).toBeNull();
    expect(screen.getByTestId('question')).toHaveTextContent('Which flour?');
    expect(posts).toHaveLength(0);
  });

  it('asks for a new answer and moves between the answers with the keyboard', async () => {
    const { user } = seedUser();
    const conversation = breadConversation(user.id);
    const posts = recordRequests(endpoints.chat.path);
    const view = await openChat(`/chat/${conversation.conversationId}`, user);
    await screen.findByTestId('answer');
    queueAnswer('Wheat.');
    await view.user.click(within(answerItem()).getByRole('button', { name: 'New answer' }));
    await expect.poll(() => screen.getByTestId('answer').textContent).toBe('Wheat.');
    expect(JSON.parse(await posts[0]!.text)).toEqual({
      conversationId: conversation.conversationId,
      agentId: conversation.sourceId,
      regenerateMessageId: expect.any(String),
    });
    expect(within(answerItem()).getByRole('group', { name: 'Versions' })).toHaveTextContent('2 / 2');

    within(answerItem()).getByRole('button', { name: 'Previous version' }).focus();
    await view.user.keyboard('{Enter}');
    await expect.poll(() => screen.getByTestId('answer').textContent).toBe('Rye.');
    expect(within(answerItem()).getByRole('group', { name: 'Versions' })).toHaveTextContent('1 / 2');
    expect(posts).toHaveLength(1);
  });
});

describe('what the version buttons offer', () => {
  it('offers no edit and no new answer while an answer is written, and no edit sent without text', async () => {
    const { user } = seedUser();
    const conversation = breadConversation(user.id);
    const hold = gate();
    server.use(
      chatStreamHandler([
        { type: 'start', conversationId: conversation.conversationId, userMessageId: 'u-2', replyMessageId: 'r-2' },
        { type: 'delta', messageId: 'r-2', text: 'Half' },
        { until: hold.promise },
        { type: 'delta', messageId: 'r-2', text: ' a loaf.' },
        { type: 'end', messageIds: ['u-2', 'r-2'] },
      ]),
    );
    const view = await openChat(`/chat/${conversation.conversationId}`, user);
    const [question] = await screen.findAllByTestId('question');
    const firstQuestion = question!.closest('li')!;
    const firstAnswer = screen.getByTestId('answer').closest('li')!;
    await view.user.type(box(), 'How much?{Enter}');
    await expect.poll(() => screen.getAllByTestId('answer').at(-1)?.textContent).toBe('Half');
    expect(within(firstQuestion).getByRole('button', { name: 'Edit' })).toBeDisabled();
    expect(within(firstAnswer).getByRole('button', { name: 'New answer' })).toBeDisabled();

    hold.open();
    await expect.poll(() => screen.getAllByTestId('answer').at(-1)?.textContent).toBe('Half a loaf.');
    expect(within(firstAnswer).getByRole('button', { name: 'New answer' })).toBeEnabled();
    await view.user.click(within(firstQuestion).getByRole('button', { name: 'Edit' }));
    const send = screen.getByRole('button', { name: 'Send as a new version' });
    expect(send).toBeEnabled();
    await view.user.clear(screen.getByRole('textbox', { name: 'Edit your question' }));
    expect(send).toBeDisabled();
  });
});

describe('drafts on the chat screen', () => {
  it('keeps what was typed per conversation, and across a reload', async () => {
    const { user } = seedUser();
    const first = breadConversation(user.id, 'Bread');
    const second = breadConversation(user.id, 'Cakes');
    const view = await openChat(`/chat/${first.conversationId}`, user);
    await screen.findByTestId('question');
    await view.user.type(box(), 'Half a thought about bread');

    const history = screen.getByRole('navigation', { name: 'Chat history' });
    await view.user.click(await within(history).findByRole('link', { name: 'Cakes' }));
    await expect.poll(() => view.url()).toBe(`/chat/${second.conversationId}`);
    await expect.poll(() => box()).toHaveValue('');
    await view.user.type(box(), 'About cakes');

    await view.user.click(within(history).getByRole('link', { name: 'Bread' }));
    await expect.poll(() => box()).toHaveValue('Half a thought about bread');

    view.unmount();
    view.runtime.stop();
    const again = await openChat(`/chat/${second.conversationId}`, user);
    await screen.findByTestId('question');
    await expect.poll(() => box()).toHaveValue('About cakes');
    expect(again.url()).toBe(`/chat/${second.conversationId}`);
  });

  it("does not show one person's drafts to another on the same browser", async () => {
    const owner = seedUser().user;
    const view = await openChat('/chat', owner);
    await view.user.type(box(), 'Private words');
    view.unmount();
    view.runtime.stop();

    const other = await openChat('/chat', seedUser().user);
    expect(box()).toHaveValue('');
    other.unmount();
    other.runtime.stop();

    await openChat('/chat', owner);
    await expect.poll(() => box()).toHaveValue('Private words');
  });
});
