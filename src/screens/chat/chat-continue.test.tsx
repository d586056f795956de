import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import type { MessageStatus } from '../../contract/messages';
import { db, queueAnswer, seedConversation, seedUser, userOwner } from '../../../tests/msw/db';
import { recordRequests } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import ChatScreen from './chat-screen';

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

const answers = () => screen.getAllByTestId('answer');
const lastAnswerItem = () => answers().at(-1)!.closest('li')!;

/** A signed-in person's conversation whose answer was cut short with this text, opened on the chat screen. */
const openCutShort = async (content: string, status: MessageStatus = 'incomplete') => {
  const { user } = seedUser();
  const conversation = seedConversation({
    owner: userOwner(user.id),
    messages: [
      { role: 'user', content: 'Tell me everything' },
      { role: 'assistant', content, status },
    ],
  });
  const posts = recordRequests(endpoints.chat.path);
  const view = await renderWithRuntime(routes, { url: `/chat/${conversation.conversationId}`, signedInAs: user });
  await screen.findByText(status === 'failed' ? /^The answer failed/ : 'The answer is incomplete');
  const [question, answer] = db.messages.get(conversation.conversationId)!;
  return { view, posts, conversationId: conversation.conversationId, question: question!, answer: answer! };
};

describe('Continue on the chat screen', () => {
  it('writes on an answer cut short in the same answer: the request names it, and its text grows in place', async () => {
    const { view, posts, conversationId, answer } = await openCutShort('The first half');
    const item = lastAnswerItem();
    expect(within(item).getByRole('button', { name: 'Retry' })).toBeEnabled();
    const continueButton = within(item).getByRole('button', { name: 'Continue' });
    expect(continueButton).toHaveAttribute('title', 'Write on from where the answer stopped');

    queueAnswer(', and the second half.');
    await view.user.click(continueButton);

    await expect.poll(() => answers().at(-1)!.textContent).toBe('The first half, and the second half.');
    expect(answers()).toHaveLength(1);
    expect(screen.queryByText('The answer is incomplete')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    expect(posts).toHaveLength(1);
    expect(JSON.parse(await posts[0]!.text)).toEqual({ conversationId, agentId: 'SpecialNoAgentFallback', continueMessageId: answer.messageId });
    // one answer, stored with its text and the text added
    expect(db.messages.get(conversationId)!.map((message) => [message.messageId, message.content, message.status])).toEqual([
      [expect.any(String), 'Tell me everything', 'complete'],
      [answer.messageId, 'The first half, and the second half.', 'complete'],
    ]);
  });

  it('offers Retry only for an answer cut short before its first word: there is nothing to write on', async () => {
    await openCutShort('');
    expect(within(lastAnswerItem()).getByRole('button', { name: 'Retry' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('continues a failed answer too; refused (finished meanwhile elsewhere), the answer stays as it was', async () => {
    const { view, posts, answer } = await openCutShort('Half of it', 'failed');
    // another tab finished it meanwhile: the server refuses to continue it
    answer.status = 'complete';
    await view.user.click(within(lastAnswerItem()).getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('The answer failed: This answer is complete.')).toBeInTheDocument();
    expect(posts).toHaveLength(1);
    expect(answers()).toHaveLength(1);
    expect(answers()[0]).toHaveTextContent('Half of it');
    expect(within(lastAnswerItem()).getByRole('button', { name: 'Continue' })).toBeEnabled();
    expect(within(lastAnswerItem()).getByRole('button', { name: 'Retry' })).toBeEnabled();
  });
});
