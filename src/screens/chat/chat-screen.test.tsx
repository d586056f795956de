import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import type { UserInfo } from '../../contract/users';
import { db, queueAnswer, queueCutAnswer, seedAgent, seedConversation, seedUser, userOwner, visitorOwner } from '../../../tests/msw/db';
import { recordRequests, server } from '../../../tests/msw/server';
import { chatNetworkErrorHandler, chatRefusedHandler, chatStreamHandler, gate } from '../../../tests/msw/sse';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { getVisitorId } from '../../services/visitor';
import ChatScreen from './chat-screen';

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

const openChat = (url = '/chat', signedInAs?: UserInfo) =>
  renderWithRuntime(routes, { url, signedInAs });

const box = () => screen.getByRole('textbox', { name: /Ask anything/ });
const answer = () => screen.getByTestId('answer');

describe('the chat screen', () => {
  it('sends with Enter, moves to the new conversation and streams the answer in', async () => {
    queueAnswer('Bread ', 'and ', 'butter.');
    const posts = recordRequests(endpoints.chat.path);
    const creations = recordRequests(endpoints.conversationCreate.path);
    const view = await openChat();
    expect(screen.getByText('How can I help you today?')).toBeInTheDocument();

    await view.user.type(box(), 'What sells best?{Enter}');
    // Named after its question, as such: a title the model writes later may replace it.
    await expect.poll(() => creations.length).toBe(1);
    expect(JSON.parse(await creations[0]!.text)).toMatchObject({ title: 'What sells best?', titleBy: 'question' });

    expect(await screen.findByTestId('question')).toHaveTextContent('What sells best?');
    await expect.poll(() => answer().textContent).toBe('Bread and butter.');
    await expect.poll(() => screen.getByTestId('answer').closest('li')?.dataset.status).toBe('complete');
    expect(box()).toHaveValue('');
    expect(view.url()).toMatch(/^\/chat\/conv-\d+$/);
    expect(posts).toHaveLength(1);
    // the server writes in the person's language when it writes at all (the offline answer)
    expect(posts[0]!.headers.get('accept-language')).toBe('en-US');

    // the conversation is the visitor's, with both messages stored
    const conversationId = view.url().split('/').at(-1)!;
    expect(db.conversations.get(conversationId)?.owner).toBe(visitorOwner(getVisitorId()));
    expect(db.messages.get(conversationId)?.map((message) => message.content)).toEqual(['What sells best?', 'Bread and butter.']);
    // and it shows up in the history
    const history = screen.getByRole('navigation', { name: 'Chat history' });
    expect(await within(history).findByRole('link', { name: 'What sells best?' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows when a question just sent and its answer were stored, without a reload', async () => {
    queueAnswer('Rye.');
    const view = await openChat();
    await view.user.type(box(), 'Which flour?{Enter}');
    await expect.poll(() => screen.getByTestId('answer').closest('li')?.dataset.status).toBe('complete');
    const conversationId = view.url().split('/').at(-1)!;
    const [question, reply] = db.messages.get(conversationId)!;
    const timeIn = (testId: string) => screen.getByTestId(testId).closest('li')?.querySelector('time');
    // the times the server stored, as a reload would show them, in the reader's language
    expect(timeIn('question')).toHaveAttribute('datetime', question!.createdAt);
    expect(timeIn('answer')).toHaveAttribute('datetime', reply!.createdAt);
    expect(timeIn('answer')?.textContent).toBe(new Date(reply!.createdAt).toLocaleTimeString('en-US', { timeStyle: 'short' }));
  });

  it('offers the agent’s starter questions in a new chat, in the reader’s language, and sends one at a click', async () => {
    seedAgent({
      agentId: 'sql',
      name: 'SQL Helper',
      starters: ['Explain LEFT JOIN', 'Index this query', 'Sum orders by month'],
      translations: { 'en-US': { name: 'SQL Helper', intro: 'SQL.', starters: ['Explain a LEFT JOIN to me', 'Which index helps here?', 'Sum orders by month'] } },
    });
    queueAnswer('A LEFT JOIN keeps every row on the left.');
    const posts = recordRequests(endpoints.chat.path);
    const view = await openChat('/chat?agent=sql');
    const starters = await screen.findByRole('region', { name: 'Try asking' });
    expect(within(starters).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Explain a LEFT JOIN to me',
      'Which index helps here?',
      'Sum orders by month',
    ]);

    await view.user.click(within(starters).getByRole('button', { name: 'Explain a LEFT JOIN to me' }));

    expect(await screen.findByTestId('question')).toHaveTextContent('Explain a LEFT JOIN to me');
    await expect.poll(() => answer().textContent).toBe('A LEFT JOIN keeps every row on the left.');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(await posts[0]!.text)).toMatchObject({ agentId: 'sql', text: 'Explain a LEFT JOIN to me' });
    expect(screen.queryByRole('region', { name: 'Try asking' })).toBeNull();
  });

  it('hides the starter questions while something is typed, so a click never replaces it', async () => {
    seedAgent({ agentId: 'sql', name: 'SQL Helper', starters: ['Explain LEFT JOIN', 'Index this query', 'Sum orders by month'] });
    const view = await openChat('/chat?agent=sql');
    await screen.findByRole('region', { name: 'Try asking' });
    await view.user.type(box(), 'My own question');
    expect(screen.queryByRole('region', { name: 'Try asking' })).toBeNull();
    await view.user.clear(box());
    expect(await screen.findByRole('region', { name: 'Try asking' })).toBeInTheDocument();
  });

  it('shows the answer while it is still streaming, and the stop button', async () => {
    const hold = gate();
    server.use(
      chatStreamHandler([
        { type: 'start', conversationId: 'conv-x', userMessageId: 'u', replyMessageId: 'r' },
        { type: 'delta', messageId: 'r', text: 'Thinking out loud' },
        { until: hold.promise },
        { type: 'end', messageIds: ['u', 'r'] },
      ]),
    );
    const view = await openChat();

    await view.user.type(box(), 'Go{Enter}');

    await expect.poll(() => screen.queryByTestId('answer')?.textContent).toBe('Thinking out loud');
    expect(screen.getByRole('button', { name: 'Stop generating' })).toBeInTheDocument();
    hold.open();
    await expect.poll(() => screen.queryByRole('button', { name: 'Send' })).not.toBeNull();
  });

  it('keeps a refused message in the box, says why in the reader’s words (not the server’s English), and sends it again', async () => {
    server.use(chatRefusedHandler(404, 'Attached file not found among your uploads: f1'));
    const view = await openChat();

    await view.user.type(box(), 'Please answer{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('This could not be found. It may have been deleted, or the link may be wrong.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('Attached file');
    expect(box()).toHaveValue('Please answer');
    expect(screen.queryByTestId('question')).toBeNull();

    server.resetHandlers();
    await view.user.type(box(), '{Enter}');
    await expect.poll(() => screen.queryByTestId('answer')?.textContent).toBe('Hello, how can I help?');
    expect(screen.getByTestId('question')).toHaveTextContent('Please answer');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says in the interface language that the server could not be reached, keeping the message', async () => {
    server.use(chatNetworkErrorHandler());
    const view = await openChat();

    await view.user.type(box(), 'Anyone there?{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reach the server. Your message was not sent; try again.');
    expect(box()).toHaveValue('Anyone there?');
  });

  it('marks an answer cut short as incomplete, keeps it, and retries it', async () => {
    const retries = recordRequests(endpoints.chat.path);
    queueCutAnswer('The first ', 'half');
    const view = await openChat();
    await view.user.type(box(), 'Tell me everything{Enter}');

    expect(await screen.findByText('The answer is incomplete')).toBeInTheDocument();
    expect(answer()).toHaveTextContent('The first half');

    queueAnswer('The whole answer.');
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));

    await expect.poll(() => answer().textContent).toBe('The whole answer.');
    expect(screen.queryByText('The answer is incomplete')).toBeNull();
    expect(retries).toHaveLength(2);
    const conversationId = view.url().split('/').at(-1)!;
    const [question] = db.messages.get(conversationId)!;
    const retry = JSON.parse(await retries[1]!.text) as Record<string, unknown>;
    expect(retry).toEqual({ conversationId, agentId: 'SpecialNoAgentFallback', retryMessageId: question!.messageId });
    expect(db.messages.get(conversationId)!.map((message) => message.content)).toEqual(['Tell me everything', 'The whole answer.']);
  });

  it('opens a conversation whose answer was cut short (the server stopped mid-answer) with that text and a retry', async () => {
    const { user } = seedUser();
    const conversation = seedConversation({
      owner: userOwner(user.id),
      messages: [
        { role: 'user', content: 'Tell me everything' },
        { role: 'assistant', content: 'The first half, saved as it streamed', status: 'incomplete' },
      ],
    });
    const posts = recordRequests(endpoints.chat.path);
    const view = await openChat(`/chat/${conversation.conversationId}`, user);
    expect(await screen.findByText('The answer is incomplete')).toBeInTheDocument();
    expect(answer()).toHaveTextContent('The first half, saved as it streamed');
    // One way to ask again: Retry, not also a new answer beside it.
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'New answer' })).toBeNull();

    queueAnswer('The whole answer.');
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    await expect.poll(() => answer().textContent).toBe('The whole answer.');
    expect(posts).toHaveLength(1);
    const [question] = db.messages.get(conversation.conversationId)!;
    expect(JSON.parse(await posts[0]!.text)).toMatchObject({ retryMessageId: question!.messageId });
  });

  it('offers the agents market once on a wide screen, in the history beside the chat', async () => {
    await openChat();
    await screen.findByTestId('new-chat');
    const market = screen.getAllByRole('link', { name: 'Browse the agents market' });
    expect(market).toHaveLength(1);
    expect(within(screen.getByRole('navigation', { name: 'Chat history' })).getByRole('link', { name: 'Browse the agents market' })).toBe(market[0]);
  });

  it('opens a stored conversation from the address, with its history', async () => {
    const { user } = seedUser();
    const conversation = seedConversation({
      owner: userOwner(user.id),
      title: 'Croissants',
      messages: [
        { role: 'user', content: 'How long to proof croissants?' },
        { role: 'assistant', content: 'About two hours.' },
      ],
    });

    await openChat(`/chat/${conversation.conversationId}`, user);

    expect(await screen.findByTestId('question')).toHaveTextContent('How long to proof croissants?');
    expect(screen.getByTestId('answer')).toHaveTextContent('About two hours.');
  });

  it('opens a long conversation on its latest 40 messages and shows earlier ones on request', async () => {
    const { user } = seedUser();
    const conversation = seedConversation({
      owner: userOwner(user.id),
      title: 'Long',
      messages: Array.from({ length: 100 }, (_, index) => ({ role: index % 2 ? 'assistant' : 'user', content: `Message ${index}` }) as const),
    });
    const view = await openChat(`/chat/${conversation.conversationId}`, user);

    await expect.poll(() => document.querySelectorAll('li[data-role]').length).toBe(40);
    expect(document.querySelector('li[data-role]:last-child')).toHaveTextContent('Message 99');
    await view.user.click(screen.getByRole('button', { name: 'Show earlier messages' }));
    expect(document.querySelectorAll('li[data-role]')).toHaveLength(80);
    await view.user.click(screen.getByRole('button', { name: 'Show earlier messages' }));
    expect(document.querySelectorAll('li[data-role]')).toHaveLength(100);
    expect(screen.queryByRole('button', { name: 'Show earlier messages' })).toBeNull();
    expect(document.querySelector('li[data-role]')).toHaveTextContent('Message 0');
  });

  it('copies a message and says so', async () => {
    const { user } = seedUser();
    const conversation = seedConversation({
      owner: userOwner(user.id),
      messages: [
        { role: 'user', content: 'Question to copy' },
        { role: 'assistant', content: 'Answer to copy' },
      ],
    });
    const view = await openChat(`/chat/${conversation.conversationId}`, user);
    await screen.findByTestId('question');
    const [copyQuestion, copyAnswer] = screen.getAllByRole('button', { name: 'Copy message' });
    // user-event stands in for the clipboard
    await view.user.click(copyAnswer!);
    expect(await navigator.clipboard.readText()).toBe('Answer to copy');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await view.user.click(copyQuestion!);
    expect(await navigator.clipboard.readText()).toBe('Question to copy');
  });

  it('says when a conversation cannot be loaded', async () => {
    await openChat('/chat/conv-that-is-not-yours');
    expect(await screen.findByText('The conversation could not be loaded')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});
