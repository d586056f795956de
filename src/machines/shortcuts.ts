/**
 * The app's keyboard shortcuts: which key press means which command, on which platform, and how
 * each is written for the reader (⌘ on Apple devices, Ctrl elsewhere). Pure, so every rule is
 * tested without a page.
 */
export type ShortcutCommand = 'newChat' | 'focusComposer' | 'searchChats' | 'stopAnswer' | 'copyLastAnswer' | 'toggleSidebar' | 'showHelp';

export type Platform = 'apple' | 'other';

export type KeyPress = {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  isComposing: boolean;
  keyCode: number;
  /** The focus is in a field where this key would type (input, textarea, contenteditable). */
  inTextField: boolean;
};

type Binding = { command: ShortcutCommand; mod: boolean; shift: boolean; key: string; match: (press: KeyPress) => boolean };

const letter = (code: string) => (press: KeyPress) => press.code === code;

/** In the order the help dialog lists them. */
const BINDINGS: Binding[] = [
  { command: 'newChat', mod: true, shift: true, key: 'O', match: letter('KeyO') },
  { command: 'focusComposer', mod: false, shift: true, key: 'Esc', match: (press) => press.key === 'Escape' },
  { command: 'searchChats', mod: true, shift: false, key: 'K', match: letter('KeyK') },
  { command: 'stopAnswer', mod: false, shift: false, key: 'Esc', match: (press) => press.key === 'Escape' },
  { command: 'copyLastAnswer', mod: true, shift: true, key: ';', match: letter('Semicolon') },
  { command: 'toggleSidebar', mod: true, shift: true, key: 'S', match: letter('KeyS') },
  { command: 'showHelp', mod: false, shift: false, key: '?', match: (press) => press.key === '?' },
];

/** Keys that type a character: never a shortcut while the focus is in a text field. */
const TYPES_IN_FIELD = new Set<ShortcutCommand>(['showHelp']);

export const platformOf = (userAgent: string, platform = ''): Platform => (/Mac|iPhone|iPad|iPod/i.test(`${platform} ${userAgent}`) ? 'apple' : 'other');

/** The command a key press stands for, or null: never while an input method is composing. */
export const matchShortcut = (press: KeyPress, platform: Platform): ShortcutCommand | null => {
  if (press.isComposing || press.keyCode === 229 || press.altKey) return null;
  const mod = platform === 'apple' ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  const bare = !press.ctrlKey && !press.metaKey;
  for (const binding of BINDINGS) {
    if (binding.mod ? !mod : !bare) continue;
    // `?` is Shift with `/` on most layouts: its shift is part of the character.
    if (binding.command !== 'showHelp' && binding.shift !== press.shiftKey) continue;
    if (!binding.match(press)) continue;
    if (press.inTextField && TYPES_IN_FIELD.has(binding.command)) return null;
    return binding.command;
  }
  return null;
};

/** Each shortcut as the keys to press, written for the platform. */
export const shortcutList = (platform: Platform): Array<{ command: ShortcutCommand; keys: string[] }> =>
  BINDINGS.map(({ command, mod, shift, key }) => ({
    command,
    keys: [...(mod ? [platform === 'apple' ? '⌘' : 'Ctrl'] : []), ...(shift ? [platform === 'apple' ? '⇧' : 'Shift'] : []), key],
  }));

/** The newest answer with something in it, to copy. */
export const lastAnswerText = (messages: ReadonlyArray<{ role: string; content: string }>): string | null =>
  messages.findLast((message) => message.role === 'assistant' && message.content.trim() !== '')?.content ?? null;
