import { act, screen, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import type { FileRef } from '../../contract/media';
import type { UserInfo } from '../../contract/users';
import { db, HOUSE_MODEL, queueAnswer, seedChoosingAgent, seedConversation, seedModel, seedUser, SEEING_MODEL, userOwner } from '../../../tests/msw/db';
import { fail } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import ChatScreen from './chat-screen';

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

const openChat = (url: string, signedInAs?: UserInfo) => renderWithRuntime(routes, { url, signedInAs });

const box = () => screen.getByRole('textbox', { name: /Ask anything/ });
const picker = () => screen.findByTestId('model-picker');
const choices = () => within(screen.getByRole('radiogroup', { name: 'Choose the model that answers' }));
const bodies = async (requests: { text: string | Promise<string> }[]) => Promise.all(requests.map(async (request) => JSON.parse(await request.text) as Record<string, unknown>));
const picture: FileRef = { fileId: 'f-1', name: 'pear.png', url: '/api/media/file/f-1', kind: 'image', mimeType: 'image/png', size: 120 };

/** Picks a model in the picker as a person does: open it, click the model's row. */
const choose = async (view: Awaited<ReturnType<typeof openChat>>, name: string) => {
  await view.user.click(await picker());
  await view.user.click(choices().getByRole('radio', { name: new RegExp(`^${name}`) }));
};

describe('choosing the model in the chat', () => {
  it('offers the person’s models, the agent’s own first and marked, and sends the one chosen with the question', async () => {
    seedChoosingAgent();
    seedModel({ id: 'model-long', name: 'Long thinker' });
    queueAnswer('Rye, ', 'mostly.');
    const posts = recordRequests(endpoints.chat.path);
    const view = await openChat('/chat?agent=agent-choosing', seedUser().user);

    // The agent's own model answers until another is chosen.
    expect(await picker()).toHaveAccessibleName('Model: Seeing model. Choose another model');
    await view.user.click(await picker());
    const rows = choices().getAllByRole('radio');
    expect(rows.map((row) => row.closest('label')?.textContent)).toEqual(['Seeing modelAgent’s model', 'House model', 'Long thinker']);
    expect(choices().getByRole('radio', { name: /^Seeing model/ })).toBeChecked();
    await view.user.click(choices().getByRole('radio', { name: /^House model/ }));
    expect(screen.queryByRole('radiogroup')).toBeNull();
    expect(await picker()).toHaveAccessibleName('Model: House model. Choose another model');
    expect(await picker()).toHaveFocus();

    await view.user.type(box(), 'Which flour?{Enter}');
    await expect.poll(() => screen.queryByTestId('answer')?.closest('li')?.dataset.status).toBe('complete');
    const [sent] = await bodies(posts);
    expect(sent).toMatchObject({ agentId: 'agent-choosing', text: 'Which flour?', modelId: HOUSE_MODEL.id });
    // The answer says which model wrote it, and so does what the server stored.
    expect(screen.getByTestId('answer-model')).toHaveTextContent('House model');
    expect(screen.getByTestId('answer-model')).toHaveAttribute('title', 'Written by House model');
    const conversationId = view.url().split('/').at(-1)!;
    expect(db.messages.get(conversationId)?.at(-1)?.model).toEqual({ id: HOUSE_MODEL.id, name: HOUSE_MODEL.name });
    // The choice went with the conversation the new chat became.
    expect(await picker()).toHaveAccessibleName('Model: House model. Choose another model');
  });

  it('keeps the model chosen for each conversation across a reload, and starts a new chat with the agent’s own', async () => {
    seedChoosingAgent();
    const { user } = seedUser();
    const conversation = seedConversation({ owner: userOwner(user.id), sourceId: 'agent-choosing', messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }] });
    const view = await openChat(`/chat/${conversation.conversationId}`, user);
    await screen.findByTestId('answer');
    await choose(view, 'House model');
    view.unmount();
    view.runtime.stop();

    const again = await openChat(`/chat/${conversation.conversationId}`, user);
    await screen.findByTestId('answer');
    await expect.poll(async () => (await picker()).getAttribute('aria-label')).toBe('Model: House model. Choose another model');
    const posts = recordRequests(endpoints.chat.path);
    await again.user.type(box(), 'And rye?{Enter}');
    await expect.poll(() => posts.length).toBe(1);
    expect((await bodies(posts))[0]).toMatchObject({ conversationId: conversation.conversationId, modelId: HOUSE_MODEL.id });

    await again.user.click(screen.getByRole('link', { name: 'New chat' }));
    await expect.poll(() => again.url()).toBe('/chat');
    await expect.poll(async () => (await picker()).getAttribute('aria-label')).toBe('Model: Seeing model. Choose another model');
  });

  it('forgets the person’s choices when they sign out, and someone else here chooses for themselves', async () => {
    seedChoosingAgent();
    const { user } = seedUser();
    const view = await openChat('/chat?agent=agent-choosing', user);
    await choose(view, 'House model');
    expect(localStorage.getItem('ai-chat-ops:chatModels')).toContain(HOUSE_MODEL.id);

    view.runtime.app.send({ type: 'session.signOut' });
    await expect.poll(() => view.runtime.app.getSnapshot().context.user).toBeNull();
    expect(localStorage.getItem('ai-chat-ops:chatModels')).toBeNull();
    view.unmount();
    view.runtime.stop();

    await openChat('/chat?agent=agent-choosing', seedUser().user);
    await expect.poll(async () => (await picker()).getAttribute('aria-label')).toBe('Model: Seeing model. Choose another model');
  });

  it('sends the chosen model with a new answer too, and none once the agent’s own is chosen again', async () => {
    seedChoosingAgent();
    const { user } = seedUser();
    const conversation = seedConversation({ owner: userOwner(user.id), sourceId: 'agent-choosing', messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }] });
    const posts = recordRequests(endpoints.chat.path);
    const view = await openChat(`/chat/${conversation.conversationId}`, user);
    await screen.findByTestId('answer');
    await choose(view, 'House model');
    await view.user.click(screen.getByRole('button', { name: 'New answer' }));
    await expect.poll(() => posts.length).toBe(1);
    await expect.poll(() => screen.queryByTestId('answer-model')?.getAttribute('title')).toBe('Written by House model');

    await choose(view, 'Seeing model');
    await view.user.click(screen.getByRole('button', { name: 'New answer' }));
    await expect.poll(() => posts.length).toBe(2);
    await expect.poll(() => screen.queryByTestId('answer-model')?.getAttribute('title')).toBe('Written by Seeing model');
    const [regenerated, again] = await bodies(posts);
    expect(regenerated).toMatchObject({ regenerateMessageId: expect.any(String), modelId: HOUSE_MODEL.id });
    expect(again).not.toHaveProperty('modelId');
  });

  it('shows no picker and names no model where the agent does not let people choose, whatever was chosen before', async () => {
    const { user } = seedUser();
    const conversation = seedConversation({ owner: userOwner(user.id), messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }] });
    // A choice kept from a time the agent allowed it.
    localStorage.setItem('ai-chat-ops:chatModels', JSON.stringify({ userId: user.id, value: { [conversation.conversationId]: { modelId: SEEING_MODEL.id, at: 1 } } }));
    const posts = recordRequests(endpoints.chat.path);
    const view = await openChat(`/chat/${conversation.conversationId}`, user);
    await screen.findByText('General assistant');
    await view.user.type(box(), 'Rye?{Enter}');
    await expect.poll(() => posts.length).toBe(1);
    expect(await bodies(posts)).toEqual([expect.not.objectContaining({ modelId: expect.anything() })]);
    expect(screen.queryByTestId('model-picker')).toBeNull();
  });

  it('warns, with an image attached, that a model chosen will not see it', async () => {
    seedChoosingAgent();
    const view = await openChat('/chat?agent=agent-choosing');
    await picker();
    act(() => view.runtime.chat.send({ type: 'attachments.change', files: [picture] }));
    // The agent's own model sees images: nothing to say.
    expect(screen.queryByTestId('images-unseen')).toBeNull();
    await choose(view, 'House model');
    expect(await screen.findByTestId('images-unseen')).toHaveTextContent('House model cannot see images: it will only get the file name.');
    await choose(view, 'Seeing model');
    expect(screen.queryByTestId('images-unseen')).toBeNull();
  });

  it('forgets a model the person may no longer use when the server refuses it, and the question goes again with the agent’s own', async () => {
    seedChoosingAgent();
    const retired = seedModel({ id: 'model-retired', name: 'Retired model' });
    const posts = recordRequests(endpoints.chat.path);
    const view = await openChat('/chat?agent=agent-choosing');
    await choose(view, 'Retired model');
    db.models.splice(db.models.indexOf(retired), 1);

    await view.user.type(box(), 'Still there?{Enter}');
    expect(await screen.findByTestId('model-refused')).toHaveTextContent('The model you chose is no longer available, so the agent’s own model will answer.');
    await expect.poll(() => box()).toHaveValue('Still there?');
    expect(await picker()).toHaveAccessibleName('Model: Seeing model. Choose another model');
    await view.user.click(await picker());
    expect(choices().queryByRole('radio', { name: /Retired/ })).toBeNull();
    await view.user.keyboard('{Escape}');

    await view.user.click(screen.getByRole('button', { name: 'Send' }));
    await expect.poll(() => screen.queryByTestId('answer')?.closest('li')?.dataset.status).toBe('complete');
    const [refused, sent] = await bodies(posts);
    expect(refused).toMatchObject({ modelId: 'model-retired' });
    expect(sent).not.toHaveProperty('modelId');
    expect(screen.queryByTestId('model-refused')).toBeNull();
    expect(screen.getByTestId('answer-model')).toHaveTextContent('Seeing model');
  });

  it('hides the picker once the server says the agent no longer lets people choose', async () => {
    const agent = seedChoosingAgent();
    const view = await openChat('/chat?agent=agent-choosing');
    await choose(view, 'House model');
    agent.allowModelChoice = false;
    await view.user.type(box(), 'Which one?{Enter}');
    expect(await screen.findByTestId('model-refused')).toHaveTextContent('This agent no longer lets you choose the model, so its own model will answer.');
    expect(screen.queryByTestId('model-picker')).toBeNull();
  });

  it('says when the models could not be loaded, and tries again', async () => {
    seedChoosingAgent();
    server.use(http.get(endpoints.modelList.path, () => fail(500, 'boom'), { once: true }));
    const view = await openChat('/chat?agent=agent-choosing');
    expect(await screen.findByText('The models to choose from could not be loaded.')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await picker()).toHaveAccessibleName('Model: Seeing model. Choose another model');
  });
});

describe('which model wrote each answer', () => {
  it('names it as the model list does, else as it was named, else by its id', async () => {
    const { user } = seedUser();
    const conversation = seedConversation({
      owner: userOwner(user.id),
      messages: [
        { role: 'user', content: 'One' },
        { role: 'assistant', content: 'First' },
        { role: 'user', content: 'Two' },
        { role: 'assistant', content: 'Second' },
        { role: 'user', content: 'Three' },
        { role: 'assistant', content: 'Third' },
      ],
    });
    const [, first, , second, , third] = db.messages.get(conversation.conversationId)!;
    first!.model = { id: HOUSE_MODEL.id, name: 'House model, as it was called' };
    second!.model = { id: 'model-gone', name: 'Gone model' };
    third!.model = { id: 'model-nameless', name: '' };
    await openChat(`/chat/${conversation.conversationId}`, user);
    await expect.poll(() => screen.queryAllByTestId('answer-model').map((name) => name.getAttribute('title'))).toEqual([
      'Written by House model',
      'Written by Gone model',
      'Written by model-nameless',
    ]);
    expect(screen.getAllByTestId('answer-model')[0]).toHaveTextContent(/House model$/);
  });
});
