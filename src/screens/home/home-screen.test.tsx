import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { db, seedUser } from '../../../tests/msw/db';
import { renderWithRuntime } from '../../../tests/spa/harness';
import HomeScreen from './home-screen';

describe('the home screen', () => {
  it('shows a visitor the title, the slogan, the chat box, the login prompt and the footer', async () => {
    await renderWithRuntime(<HomeScreen />);

    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Talk to expert AI agents');
    expect(screen.getByRole('textbox', { name: 'Ask the assistant' })).toBeInTheDocument();
    expect(screen.getByText(/Log in to keep your conversations/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(screen.getByText(`© ${new Date().getFullYear()} Kraken AI. All rights reserved.`)).toBeInTheDocument();
  });

  it('leads to the agents market the slogan mentions', async () => {
    const view = await renderWithRuntime(<HomeScreen />);

    await view.user.click(screen.getByRole('link', { name: 'Browse the agents' }));
    expect(view.url()).toBe('/chat/agents');
  });

  it('hides the login prompt from someone signed in', async () => {
    const { user } = seedUser({ nickname: 'Ada' });
    const view = await renderWithRuntime(<HomeScreen />, { signedInAs: user });

    expect(view.runtime.app.getSnapshot().context.user?.nickname).toBe('Ada');
    expect(screen.getByRole('textbox', { name: 'Ask the assistant' })).toBeInTheDocument();
    expect(screen.queryByText(/Log in to keep your conversations/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
  });

  it('shows the prompt again when the session turns out to be over', async () => {
    const { user } = seedUser();
    const view = await renderWithRuntime(<HomeScreen />, { signedInAs: user });
    expect(screen.queryByText(/Log in to keep your conversations/)).toBeNull();

    db.sessions.clear();
    view.runtime.app.send({ type: 'session.refresh' });

    expect(await screen.findByText(/Log in to keep your conversations/)).toBeInTheDocument();
  });

  it('starts a conversation with the default agent on Enter and goes to the chat', async () => {
    const view = await renderWithRuntime(<HomeScreen />);

    await view.user.type(screen.getByRole('textbox', { name: 'Ask the assistant' }), 'Hello from home{Enter}');

    await expect.poll(view.url).toMatch(/^\/chat\/conv-\d+$/);
    const conversationId = view.url().split('/').at(-1)!;
    expect(db.conversations.get(conversationId)?.sourceId).toBe('SpecialNoAgentFallback');
    await expect.poll(() => db.messages.get(conversationId)?.[0]?.content).toBe('Hello from home');
  });

  it('keeps what was typed on the home page for the next visit, and empties it once the question goes', async () => {
    const first = await renderWithRuntime(<HomeScreen />);
    await first.user.type(screen.getByRole('textbox', { name: 'Ask the assistant' }), 'Half a thought');
    first.unmount();
    first.runtime.stop();

    const second = await renderWithRuntime(<HomeScreen />);
    const box = screen.getByRole('textbox', { name: 'Ask the assistant' });
    expect(box).toHaveValue('Half a thought');
    await second.user.type(box, ' finished{Enter}');
    await expect.poll(second.url).toMatch(/^\/chat\/conv-\d+$/);
    const conversationId = second.url().split('/').at(-1)!;
    await expect.poll(() => db.messages.get(conversationId)?.[0]?.content).toBe('Half a thought finished');
    expect(box).toHaveValue('');
  });
});
