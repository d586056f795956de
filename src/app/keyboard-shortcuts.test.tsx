import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRuntime } from '../../tests/spa/harness';
import KeyboardShortcuts from './keyboard-shortcuts';

const Page = () => (
  <>
    <textarea aria-label="Message" data-composer="" />
    <KeyboardShortcuts />
  </>
);

describe('keyboard shortcuts on the page', () => {
  it('opens the list with ?, written for this platform, and closes it with Escape', async () => {
    await renderWithRuntime(<Page />);
    fireEvent.keyDown(document.body, { key: '?', code: 'Slash', shiftKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog).toHaveTextContent('New chat');
    expect(dialog).toHaveTextContent('CtrlShiftO');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lets ? type in a text field and does nothing while an input method composes', async () => {
    await renderWithRuntime(<Page />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.keyDown(box, { key: '?', code: 'Slash', shiftKey: true });
    fireEvent.keyDown(document.body, { key: '?', code: 'Slash', shiftKey: true, isComposing: true });
    fireEvent.keyDown(document.body, { key: 'Process', code: 'KeyO', ctrlKey: true, shiftKey: true, keyCode: 229 });
    await Promise.resolve();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('starts a new chat with Ctrl+Shift+O and focuses the composer with Shift+Escape', async () => {
    const view = await renderWithRuntime(<Page />, { url: '/account' });
    fireEvent.keyDown(document.body, { key: 'O', code: 'KeyO', ctrlKey: true, shiftKey: true });
    expect(view.url()).toBe('/chat');
    document.body.focus();
    fireEvent.keyDown(document.body, { key: 'Escape', shiftKey: true });
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
  });
});
