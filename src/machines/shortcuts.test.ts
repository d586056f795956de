import { describe, expect, it } from 'vitest';
import { lastAnswerText, matchShortcut, platformOf, shortcutList, type KeyPress } from './shortcuts';

const press = (overrides: Partial<KeyPress>): KeyPress => ({
  key: '',
  code: '',
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  isComposing: false,
  keyCode: 0,
  inTextField: false,
  ...overrides,
});

describe('keyboard shortcuts', () => {
  it('answers each command with Ctrl on Windows and Linux and ⌘ on Apple devices', () => {
    expect(matchShortcut(press({ key: 'O', code: 'KeyO', ctrlKey: true, shiftKey: true }), 'other')).toBe('newChat');
    expect(matchShortcut(press({ key: 'o', code: 'KeyO', metaKey: true, shiftKey: true }), 'apple')).toBe('newChat');
    expect(matchShortcut(press({ key: 'O', code: 'KeyO', metaKey: true, shiftKey: true }), 'other')).toBeNull();
    expect(matchShortcut(press({ key: 'o', code: 'KeyO', ctrlKey: true, shiftKey: true }), 'apple')).toBeNull();
    expect(matchShortcut(press({ key: 'k', code: 'KeyK', ctrlKey: true }), 'other')).toBe('searchChats');
    expect(matchShortcut(press({ key: ':', code: 'Semicolon', metaKey: true, shiftKey: true }), 'apple')).toBe('copyLastAnswer');
    expect(matchShortcut(press({ key: 'S', code: 'KeyS', ctrlKey: true, shiftKey: true }), 'other')).toBe('toggleSidebar');
    expect(matchShortcut(press({ key: 'Escape', shiftKey: true }), 'other')).toBe('focusComposer');
    expect(matchShortcut(press({ key: 'Escape' }), 'other')).toBe('stopAnswer');
    expect(matchShortcut(press({ key: '?', code: 'Slash', shiftKey: true }), 'other')).toBe('showHelp');
  });

  it('follows the key a layout writes, not where it sits, only for letters bound by their place', () => {
    // An AZERTY "?" is Shift with the comma key.
    expect(matchShortcut(press({ key: '?', code: 'Comma', shiftKey: true }), 'other')).toBe('showHelp');
  });

  it('does nothing while an input method is composing (Chinese, Japanese), whatever the key', () => {
    expect(matchShortcut(press({ key: 'k', code: 'KeyK', ctrlKey: true, isComposing: true }), 'other')).toBeNull();
    expect(matchShortcut(press({ key: 'Escape', keyCode: 229 }), 'other')).toBeNull();
    expect(matchShortcut(press({ key: 'Process', code: 'KeyO', ctrlKey: true, shiftKey: true, keyCode: 229 }), 'other')).toBeNull();
  });

  it('leaves a key that types to the text field it is typed in, and still answers the ones that cannot type', () => {
    expect(matchShortcut(press({ key: '?', code: 'Slash', shiftKey: true, inTextField: true }), 'other')).toBeNull();
    expect(matchShortcut(press({ key: 'k', code: 'KeyK', ctrlKey: true, inTextField: true }), 'other')).toBe('searchChats');
    expect(matchShortcut(press({ key: 'Escape', inTextField: true }), 'other')).toBe('stopAnswer');
  });

  it('ignores plain letters, Alt combinations and the browser’s own keys', () => {
    expect(matchShortcut(press({ key: 'k', code: 'KeyK' }), 'other')).toBeNull();
    expect(matchShortcut(press({ key: 'k', code: 'KeyK', ctrlKey: true, altKey: true }), 'other')).toBeNull();
    expect(matchShortcut(press({ key: 'o', code: 'KeyO', ctrlKey: true }), 'other')).toBeNull();
    expect(matchShortcut(press({ key: 'K', code: 'KeyK', ctrlKey: true, shiftKey: true }), 'other')).toBeNull();
  });

  it('writes the keys for the reader’s platform', () => {
    expect(shortcutList('apple').find((entry) => entry.command === 'newChat')?.keys).toEqual(['⌘', '⇧', 'O']);
    expect(shortcutList('other').find((entry) => entry.command === 'newChat')?.keys).toEqual(['Ctrl', 'Shift', 'O']);
    expect(shortcutList('other').map((entry) => entry.command)).toHaveLength(7);
  });

  it('lists every shortcut, in the help dialog’s order, with exactly its keys', () => {
    expect(shortcutList('other')).toEqual([
      { command: 'newChat', keys: ['Ctrl', 'Shift', 'O'] },
      { command: 'focusComposer', keys: ['Shift', 'Esc'] },
      { command: 'searchChats', keys: ['Ctrl', 'K'] },
      { command: 'stopAnswer', keys: ['Esc'] },
      { command: 'copyLastAnswer', keys: ['Ctrl', 'Shift', ';'] },
      { command: 'toggleSidebar', keys: ['Ctrl', 'Shift', 'S'] },
      { command: 'showHelp', keys: ['?'] },
    ]);
    expect(shortcutList('apple').map((entry) => entry.keys)).toEqual([['⌘', '⇧', 'O'], ['⇧', 'Esc'], ['⌘', 'K'], ['Esc'], ['⌘', '⇧', ';'], ['⌘', '⇧', 'S'], ['?']]);
  });

  it('needs the platform’s own modifier alone: no modifier, or both, is not a shortcut that needs one', () => {
    for (const platform of ['apple', 'other'] as const) {
      expect(matchShortcut(press({ key: 'O', code: 'KeyO', shiftKey: true }), platform)).toBeNull();
      expect(matchShortcut(press({ key: 'k', code: 'KeyK', ctrlKey: true, metaKey: true }), platform)).toBeNull();
    }
  });

  it('takes no modifier for the bare keys: Ctrl or ⌘ with Escape or ? is left to the browser', () => {
    for (const platform of ['apple', 'other'] as const) {
      expect(matchShortcut(press({ key: 'Escape', ctrlKey: true }), platform)).toBeNull();
      expect(matchShortcut(press({ key: 'Escape', metaKey: true }), platform)).toBeNull();
      expect(matchShortcut(press({ key: '?', code: 'Slash', shiftKey: true, metaKey: true }), platform)).toBeNull();
      expect(matchShortcut(press({ key: '?', code: 'Slash', shiftKey: true, ctrlKey: true }), platform)).toBeNull();
    }
  });

  it('knows Apple devices from their user agent', () => {
    expect(platformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)')).toBe('apple');
    expect(platformOf('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)')).toBe('apple');
    expect(platformOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('other');
    expect(platformOf('Mozilla/5.0 (X11; Linux x86_64)', 'MacIntel')).toBe('apple');
  });

  it('copies the newest answer that has text', () => {
    expect(lastAnswerText([{ role: 'assistant', content: 'first' }, { role: 'user', content: 'q' }, { role: 'assistant', content: ' ' }])).toBe('first');
    expect(lastAnswerText([{ role: 'user', content: 'q' }])).toBeNull();
  });
});
