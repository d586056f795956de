import 'fake-indexeddb/auto';
import { screen } from '@testing-library/react';
import type { SnapshotFrom } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { UserMenu } from '../components/user-menu';
import type { UserInfo } from '../contract/users';
import type { chatMachine, ChatMessage } from '../machines/chat.machine';
import ChatScreen from '../screens/chat/chat-screen';
import { getConversation } from '../services/api/conversations';
import { setToken } from '../services/cookies';
import { forgetKeptExcept, keepConversation, readKept } from '../services/offline-library';
import { readOfflineKeeper } from '../services/storage';
import { db, issueToken, queueAnswer, seedAgent, seedConversation, seedUser, userOwner, visitorOwner } from '../../tests/msw/db';
import { renderWithRuntime, type Screen } from '../../tests/spa/harness';
import { getVisitorId } from '../services/visitor';
import { keptFromChat } from './offline-keeping';

/**
 * What a signed-in person reads is kept on this device for reading offline, and only theirs: a
 * visitor's reading is not kept, and the library is emptied as soon as nobody, or somebody else,
 * is signed in here (a logout, a session found expired or revoked, another account).
 */
const chat = (
  <>
    <UserMenu />
    <Switch>
      <Route path="/chat" component={ChatScreen} />
      <Route path="/chat/*" component={ChatScreen} />
    </Switch>
  </>
);

afterEach(async () => {
  await forgetKeptExcept(null);
});

const bakersConversation = (owner: string) => {
  const baker = seedAgent({ name: 'Baker' });
  return seedConversation({
    owner,
    title: 'Rye starter',
    sourceId: baker.agentId,
    messages: [
      { role: 'user', content: 'How often do I feed it?' },
      { role: 'assistant', content: 'Every day, and **fold** it twice.' },
    ],
  });
};

const keptOf = async (user: UserInfo) => (await readKept(String(user.id))).map(({ readAt: _readAt, ...kept }) => kept);

/** Ada, signed in, with one conversation kept on this device, and the app started. */
const adaWithKeptConversation = async () => {
  const { user: ada } = seedUser({ nickname: 'Ada' });
  await keepConversation(String(ada.id), { conversationId: 'c1', title: 'Kept', agentName: 'Baker', updatedAt: '2026-11-20T10:00:00.000Z', messages: [] });
  const view = await renderWithRuntime(chat, { url: '/chat', signedInAs: ada });
  expect(await readKept(String(ada.id))).toHaveLength(1);
  return { ada, view };
};

const emptied = async (ada: UserInfo) => {
  await expect.poll(() => readKept(String(ada.id))).toEqual([]);
  expect(readOfflineKeeper()).toBeNull();
};

const logOut = async (view: Screen) => {
  await view.user.click(screen.getByRole('button', { name: 'User menu: Ada' }));
  await view.user.click(screen.getByRole('menuitem', { name: 'Log out' }));
};

describe('conversations kept for reading offline', () => {
  it('keeps a conversation a signed-in person opens, with its title, agent and messages, and again after each exchange', async () => {
    const { user: ada } = seedUser();
    const { conversationId } = bakersConversation(userOwner(ada.id));
    const view = await renderWithRuntime(chat, { url: `/chat/${conversationId}`, signedInAs: ada });
    expect(await screen.findByTestId('question')).toHaveTextContent('How often do I feed it?');

    await expect.poll(() => keptOf(ada)).toEqual([
      expect.objectContaining({
        conversationId,
        title: 'Rye starter',
        agentName: 'Baker',
        earlierLeftOut: false,
        messages: [
          { role: 'user', content: 'How often do I feed it?', status: 'complete', sentAt: expect.any(String) },
          { role: 'assistant', content: 'Every day, and **fold** it twice.', status: 'complete', sentAt: expect.any(String) },
        ],
      }),
    ]);
    expect(readOfflineKeeper()).toBe(String(ada.id));

    queueAnswer('Twice ', 'in summer.');
    await view.user.type(screen.getByRole('textbox', { name: /Ask anything/ }), 'And in summer?{Enter}');
    await expect.poll(async () => (await keptOf(ada))[0]?.messages.map((message) => message.content)).toEqual([
      'How often do I feed it?',
      'Every day, and **fold** it twice.',
      'And in summer?',
      'Twice in summer.',
    ]);
  });

  it("keeps nothing of a visitor's reading", async () => {
    const { conversationId } = bakersConversation(visitorOwner(getVisitorId()));
    await renderWithRuntime(chat, { url: `/chat/${conversationId}` });
    expect(await screen.findByTestId('question')).toHaveTextContent('How often do I feed it?');
    expect(readOfflineKeeper()).toBeNull();
  });

  it('is emptied when the person logs out', async () => {
    const { ada, view } = await adaWithKeptConversation();
    await logOut(view);
    await emptied(ada);
  });

  it('is emptied when the session is found expired or revoked', async () => {
    const { ada, view } = await adaWithKeptConversation();
    db.sessions.clear();
    await getConversation('c1').catch(() => undefined);
    await expect.poll(() => view.runtime.app.getSnapshot().context.user).toBeNull();
    await emptied(ada);
  });

  it('is emptied of the one before when another account signs in here', async () => {
    const { ada, view } = await adaWithKeptConversation();
    const { user: grace } = seedUser({ nickname: 'Grace' });
    view.runtime.app.send({ type: 'session.signedIn', token: issueToken(grace.id), user: grace });
    await expect.poll(() => readKept(String(ada.id))).toEqual([]);
    expect(readOfflineKeeper()).toBe(String(grace.id));
  });

  it('is emptied when a start finds the stored session refused', async () => {
    const { user: ada } = seedUser();
    await keepConversation(String(ada.id), { conversationId: 'c1', title: 'Kept', agentName: 'Baker', updatedAt: '2026-11-20T10:00:00.000Z', messages: [] });
    const token = issueToken(ada.id);
    db.sessions.delete(token);
    setToken(token);
    const view = await renderWithRuntime(chat, { url: '/chat' });
    expect(view.runtime.app.getSnapshot().matches({ loaded: 'visitor' })).toBe(true);
    await emptied(ada);
  });
});

describe('what of a chat is kept', () => {
  const message = (role: ChatMessage['role'], content: string, status: ChatMessage['status']): ChatMessage => ({
    key: content,
    serverId: content,
    role,
    content,
    status,
    files: [],
    error: null,
    siblingIds: [],
    sentAt: '2026-11-20T10:00:00.000Z',
  });
  /** The part of a chat's snapshot the keeping reads. */
  const snapshot = (settled: boolean, messages: ChatMessage[], conversationId: string | null = 'c1') =>
    ({ hasTag: (tag: string) => settled && tag === 'settled', context: { conversationId, messages } }) as unknown as SnapshotFrom<typeof chatMachine>;
  const about = { title: 'Rye starter', updatedAt: '2026-11-21T08:00:00.000Z' };

  it('nothing while an answer is being written: its text would be a moment’s', () => {
    expect(keptFromChat(snapshot(false, [message('user', 'Why?', 'complete'), message('assistant', 'Becau', 'streaming')]), about, 'Baker')).toBeNull();
  });

  it('nothing of a new chat not yet stored, nor of an empty one', () => {
    expect(keptFromChat(snapshot(true, [message('user', 'Why?', 'complete')], null), about, 'Baker')).toBeNull();
    expect(keptFromChat(snapshot(true, []), about, 'Baker')).toBeNull();
  });

  it('an answer cut short or failed as the chat shows it, marked so; the later of its last change and its last message', () => {
    const kept = keptFromChat(
      snapshot(true, [message('user', 'Why?', 'complete'), message('assistant', 'Because', 'incomplete'), message('user', 'And?', 'complete'), message('assistant', '', 'failed')]),
      about,
      'Baker',
    );
    expect(kept).toEqual({
      conversationId: 'c1',
      title: 'Rye starter',
      agentName: 'Baker',
      updatedAt: '2026-11-21T08:00:00.000Z',
      messages: [
        { role: 'user', content: 'Why?', status: 'complete', sentAt: '2026-11-20T10:00:00.000Z' },
        { role: 'assistant', content: 'Because', status: 'incomplete', sentAt: '2026-11-20T10:00:00.000Z' },
        { role: 'user', content: 'And?', status: 'complete', sentAt: '2026-11-20T10:00:00.000Z' },
        { role: 'assistant', content: '', status: 'failed', sentAt: '2026-11-20T10:00:00.000Z' },
      ],
    });
  });

  it('the model that wrote each answer, by the name the chat had for it', () => {
    const answer = { ...message('assistant', 'Because', 'complete'), model: { id: 'model-house', name: 'House model' } };
    const nameless = { ...message('assistant', 'Then', 'complete'), model: { id: 'model-gone', name: '' } };
    const kept = keptFromChat(snapshot(true, [message('user', 'Why?', 'complete'), answer, message('user', 'And?', 'complete'), nameless]), about, 'Baker');
    expect(kept?.messages.map((kept) => kept.model)).toEqual([undefined, 'House model', undefined, 'model-gone']);
  });
});
