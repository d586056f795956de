import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { renderWithRuntime } from '../../../tests/spa/harness';
import KeyboardShortcuts from '../../app/keyboard-shortcuts';
import ChatScreen from './chat-screen';

const page = (
  <>
    <Switch>
      <Route path="/chat" component={ChatScreen} />
      <Route path="/chat/*" component={ChatScreen} />
    </Switch>
    <KeyboardShortcuts />
  </>
);

const history = () => screen.queryByRole('navigation', { name: 'Chat history' });
const pressToggleShortcut = () => fireEvent.keyDown(document.body, { key: 'S', code: 'KeyS', ctrlKey: true, shiftKey: true });

describe('the chat history beside the chat on a wide screen', () => {
  it('hidden with Ctrl+Shift+S, comes back with the button in the chat bar', async () => {
    const view = await renderWithRuntime(page, { url: '/chat' });
    expect(history()).toBeInTheDocument();
    const hide = screen.getByRole('button', { name: 'Hide chat history' });
    expect(hide).toHaveAttribute('aria-expanded', 'true');
    expect(hide).toHaveAttribute('aria-controls', history()!.closest('aside')!.id);
    expect(hide).toHaveAttribute('aria-keyshortcuts', 'Control+Shift+S');

    pressToggleShortcut();
    expect(history()).toBeNull();
    const show = screen.getByRole('button', { name: 'Show chat history' });
    expect(show).toHaveAttribute('aria-expanded', 'false');

    await view.user.click(show);
    expect(history()).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hide chat history' })).toHaveFocus();

    // the button hides it too, and the shortcut still brings it back
    await view.user.click(screen.getByRole('button', { name: 'Hide chat history' }));
    expect(history()).toBeNull();
    pressToggleShortcut();
    expect(history()).toBeInTheDocument();
  });
});
