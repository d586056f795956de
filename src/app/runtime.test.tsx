import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { UserMenu } from '../components/user-menu';
import type { UserInfo } from '../contract/users';
import ChatScreen from '../screens/chat/chat-screen';
import HomeScreen from '../screens/home/home-screen';
import { getConversation } from '../services/api/conversations';
import { getVisitorId } from '../services/visitor';
import { CHAT_DRAFTS_KEY, readPreference } from '../services/storage';
import { VISITOR_USER_ID } from '../machines/preferences.machine';
import { db, issueToken, seedConversation, seedUser, userOwner, visitorOwner } from '../../tests/msw/db';
import { renderWithRuntime, type Screen } from '../../tests/spa/harness';

/**
 * One browser, several people: what one leaves behind (a conversation on screen, an unsent
 * draft, what the browser saved for them) is never shown to, or saved for, the next.
 */
const app = (
  <>
    <UserMenu />
    <Switch>
      <Route path="/" component={HomeScreen} />
      <Route path="/chat" component={ChatScreen} />
      <Route path="/chat/*" component={ChatScreen} />
    </Switch>
  </>
);

const chatBox = () => screen.getByRole('textbox', { name: /Ask anything/ });
const homeBox = () => screen.getByRole('textbox', { name: 'Ask the assistant' });

const adasConversation = (ada: UserInfo) =>
  seedConversation({
    owner: userOwner(ada.id),
    title: 'Private',
    messages: [
      { role: 'user', content: 'Draft my resignation letter' },
      { role: 'assistant', content: 'Dear manager, I am leaving' },
    ],
  });

/** Ada on her conversation, with `typed` in the box. */
const adaTyping = async (ada: UserInfo, typed: string) => {
  const { conversationId } = adasConversation(ada);
  const view = await renderWithRuntime(app, { url: `/chat/${conversationId}`, signedInAs: ada });
  expect(await screen.findByTestId('question')).toHaveTextContent('Draft my resignation letter');
  await view.user.type(chatBox(), typed);
  return { view, conversationId };
};

/** Her session ends on the server; the next call finds out. */
const sessionRunsOut = async (view: Screen, conversationId: string) => {
  db.sessions.clear();
  await getConversation(conversationId).catch(() => undefined);
  await expect.poll(() => view.runtime.app.getSnapshot().context.user).toBeNull();
};

const logOut = async (view: Screen, name: string) => {
  await view.user.click(screen.getByRole('button', { name: `User menu: ${name}` }));
  await view.user.click(screen.getByRole('menuitem', { name: 'Log out' }));
};

/** What the login page does once the server accepted someone. */
const signIn = (view: Screen, user: UserInfo) => view.runtime.app.send({ type: 'session.signedIn', token: issueToken(user.id), user });

describe('a shared browser', () => {
  it('logging out on a conversation goes home and leaves nothing of it, on screen or in the browser', async () => {
    const { user: ada } = seedUser({ nickname: 'Ada' });
    const { view, conversationId } = await adaTyping(ada, 'Please keep this between us');
    expect(JSON.stringify(localStorage)).toContain('Please keep this between us');

    await logOut(view, 'Ada');

    await expect.poll(view.url).toBe('/');
    expect(homeBox()).toHaveValue('');
    expect(screen.queryByText('Draft my resignation letter')).toBeNull();
    expect(view.runtime.peekChat()?.getSnapshot().context).toMatchObject({ conversationId: null, messages: [], draft: '' });
    // nothing of Ada's is left for the next person to read in DevTools
    expect(JSON.stringify(localStorage)).not.toContain('Please keep this between us');
    expect(JSON.stringify(localStorage)).not.toContain(conversationId);
  });

  it('a session that runs out keeps the conversation and the box for the same person; another account signing in gets neither', async () => {
    const { user: ada } = seedUser({ nickname: 'Ada' });
    const { user: grace } = seedUser({ nickname: 'Grace' });
    const { view, conversationId } = await adaTyping(ada, 'Please keep this between us');

    await sessionRunsOut(view, conversationId);

    // Most likely Ada herself, about to sign in again: nothing she was doing is taken from her.
    expect(screen.getByText('Draft my resignation letter')).toBeInTheDocument();
    expect(chatBox()).toHaveValue('Please keep this between us');
    expect(readPreference(CHAT_DRAFTS_KEY, ada.id)).toEqual({ [conversationId]: expect.objectContaining({ text: 'Please keep this between us' }) });

    signIn(view, grace);
    await screen.findByRole('button', { name: 'User menu: Grace' });
    await expect.poll(() => screen.queryByText('Draft my resignation letter')).toBeNull();
    expect(screen.queryByText('Dear manager, I am leaving')).toBeNull();
    expect(chatBox()).toHaveValue('');
    // a new chat, under a new chat's address: a reload cannot ask for Ada's conversation
    expect(view.url()).toBe('/chat');
    await view.user.type(chatBox(), 'Hello');
    expect(chatBox()).toHaveValue('Hello');
    expect(JSON.stringify(readPreference(CHAT_DRAFTS_KEY, grace.id))).not.toContain('between us');
  });

  it('the same account signing in again after its session ran out goes on where it was', async () => {
    const { user: ada } = seedUser({ nickname: 'Ada' });
    const { view, conversationId } = await adaTyping(ada, 'Where was I');

    await sessionRunsOut(view, conversationId);
    signIn(view, ada);
    await screen.findByRole('button', { name: 'User menu: Ada' });

    expect(screen.getByText('Draft my resignation letter')).toBeInTheDocument();
    expect(chatBox()).toHaveValue('Where was I');
    expect(view.url()).toBe(`/chat/${conversationId}`);
  });

  it("the home page's draft is the next person's, never the one before", async () => {
    const { user: ada } = seedUser({ nickname: 'Ada' });
    const { user: grace } = seedUser({ nickname: 'Grace' });
    const view = await renderWithRuntime(app, { url: '/', signedInAs: ada });
    await view.user.type(homeBox(), 'Ask about my divorce');

    await logOut(view, 'Ada');
    await expect.poll(() => homeBox()).toHaveValue('');

    signIn(view, grace);
    await screen.findByRole('button', { name: 'User menu: Grace' });
    expect(homeBox()).toHaveValue('');
    await view.user.type(homeBox(), 'Hi');
    expect(JSON.stringify(readPreference(CHAT_DRAFTS_KEY, grace.id))).not.toContain('divorce');
  });

  it('a visitor who signs in goes on with the conversation they were having, and what they typed', async () => {
    const { user: ada } = seedUser({ nickname: 'Ada' });
    const { conversationId } = seedConversation({
      owner: visitorOwner(getVisitorId()),
      messages: [
        { role: 'user', content: 'Which flour for rye?' },
        { role: 'assistant', content: 'Rye flour.' },
      ],
    });
    const view = await renderWithRuntime(app, { url: `/chat/${conversationId}` });
    expect(await screen.findByTestId('question')).toHaveTextContent('Which flour for rye?');
    await view.user.type(chatBox(), 'And the water?');

    // the server hands the account what the visitor started (adoptVisitor)
    db.conversations.get(conversationId)!.owner = userOwner(ada.id);
    signIn(view, ada);
    await screen.findByRole('button', { name: 'User menu: Ada' });

    expect(view.url()).toBe(`/chat/${conversationId}`);
    expect(screen.getByTestId('question')).toHaveTextContent('Which flour for rye?');
    expect(chatBox()).toHaveValue('And the water?');
  });

  it("a visitor's unsent text goes with them through a login that leaves the page (Google, WeChat), and to no one after", async () => {
    const { user: ada } = seedUser({ nickname: 'Ada' });
    const asVisitor = await renderWithRuntime(app, { url: '/' });
    await asVisitor.user.type(homeBox(), 'Plan my trip to Kyoto');
    asVisitor.unmount();
    asVisitor.runtime.stop();

    // Back from the provider's page in the same tab, signed in: the page starts afresh.
    await renderWithRuntime(app, { url: '/', signedInAs: ada });
    await screen.findByRole('button', { name: 'User menu: Ada' });
    await expect.poll(() => homeBox()).toHaveValue('Plan my trip to Kyoto');
    expect(JSON.stringify(readPreference(CHAT_DRAFTS_KEY, ada.id))).toContain('Kyoto');
    // Moved, not copied: the next person to log in at this browser does not get it.
    expect(JSON.stringify(readPreference(CHAT_DRAFTS_KEY, VISITOR_USER_ID) ?? {})).not.toContain('Kyoto');
  });

  it("a visitor's text typed in another tab is not taken into an account signing in here", async () => {
    const { user: ada } = seedUser({ nickname: 'Ada' });
    const elsewhere = await renderWithRuntime(app, { url: '/' });
    await elsewhere.user.type(homeBox(), 'Someone else wrote this');
    elsewhere.unmount();
    elsewhere.runtime.stop();
    sessionStorage.clear(); // another tab: its own session storage

    await renderWithRuntime(app, { url: '/', signedInAs: ada });
    await screen.findByRole('button', { name: 'User menu: Ada' });
    expect(homeBox()).toHaveValue('');
    expect(JSON.stringify(readPreference(CHAT_DRAFTS_KEY, ada.id) ?? {})).not.toContain('Someone else');
  });

  it('someone else signing in over a session empties the chat of the one before', async () => {
    const { user: ada } = seedUser({ nickname: 'Ada' });
    const { user: grace } = seedUser({ nickname: 'Grace' });
    const { view } = await adaTyping(ada, 'Please keep this between us');

    signIn(view, grace);
    await screen.findByRole('button', { name: 'User menu: Grace' });

    expect(screen.queryByText('Draft my resignation letter')).toBeNull();
    expect(chatBox()).toHaveValue('');
    navigate('/');
    expect(await screen.findByRole('textbox', { name: 'Ask the assistant' })).toHaveValue('');
  });
});
