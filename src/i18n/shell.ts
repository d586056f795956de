/**
 * The translations the first page needs: the shell (header, menus, toasts, errors) and the home
 * page. They load at start; every other page loads the rest of the language with its own code.
 * An entry is a top-level section or one `section.key`.
 */
export const SHELL_KEYS = [
  'app',
  'nav',
  'home',
  'errors',
  'toast',
  'userMenu',
  'preferences',
  'attachments',
  'wechatLogin',
  'chat.placeholder',
  'chat.placeholderTouch',
  'chat.send',
  'chat.stop',
  'chat.tooLong',
  'chat.length',
] as const;

type Bundle = Record<string, unknown>;

/** The shell's part of a locale bundle. */
export const pickShell = (bundle: Bundle): Bundle => {
  const shell: Record<string, Record<string, unknown> | unknown> = {};
  for (const entry of SHELL_KEYS) {
    const [section, key] = entry.split('.') as [string, string | undefined];
    if (!(section in bundle)) continue;
    if (key === undefined) {
      shell[section] = bundle[section];
    } else {
      const from = bundle[section] as Bundle;
      if (key in from) shell[section] = { ...(shell[section] as Bundle | undefined), [key]: from[key] };
    }
  }
  return shell;
};
