import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { Agent } from '../contract/agents';
import { PREFERENCE_KEYS, readPreference, writePreference } from '../services/storage';
import { colorSchemeWatcher, isDark, preferencesMachine, VISITOR_USER_ID, type StoredPreferences } from './preferences.machine';

const readStored = (userId: string): StoredPreferences =>
  Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, readPreference(key, userId)]));

/** A device whose colour scheme a test can flip, as `matchMedia` reports it. */
const fakeDevice = (dark = false) => {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  } as unknown as MediaQueryList;
  return {
    matchMedia: vi.fn(() => query),
    listening: () => listeners.size,
    setDark(value: boolean) {
      dark = value;
      for (const listener of listeners) listener();
    },
  };
};

/** The machine as the runtime starts it: real per-user storage, a page whose theme is observed. */
const startPreferences = ({ device = fakeDevice() } = {}) => {
  const applied: boolean[] = [];
  const navigate = vi.fn();
  const switchLocale = vi.fn();
  const actor = createActor(
    preferencesMachine.provide({
      actors: { colorScheme: colorSchemeWatcher(device.matchMedia) },
      actions: {
        applyTheme: (_, { dark }) => applied.push(dark),
        persist: (_, { key, userId, value }) => writePreference(key, userId, value),
        navigate: (_, { to }) => navigate(to),
        switchLocale: (_, { locale }) => switchLocale(locale),
      },
    }),
    { input: {} },
  ).start();
  const signIn = (userId: string) => actor.send({ type: 'user.changed', userId, stored: readStored(userId) });
  return { actor, applied, navigate, switchLocale, device, signIn, pageDark: () => applied.at(-1) };
};

const agent = { id: '7', agentId: 'writer', name: 'Writer' } as Agent;

describe('the theme', () => {
  it('follows the device by default, and nothing is applied before the user is known (boot.js painted already)', () => {
    const { actor, applied, signIn } = startPreferences({ device: fakeDevice(true) });
    expect(actor.getSnapshot().value).toBe('waitingForUser');
    expect(applied).toEqual([]);
    signIn(VISITOR_USER_ID);
    expect(actor.getSnapshot().context.theme).toBe('system');
    expect(applied.at(-1)).toBe(true);
  });

  it('carries a visitor’s choice into an account that has none, and keeps it at logout', () => {
    const { actor, signIn, pageDark } = startPreferences();
    signIn(VISITOR_USER_ID);
    actor.send({ type: 'theme.choose', theme: 'dark' });

    signIn('ada');
    expect(actor.getSnapshot().context.theme).toBe('dark');
    expect(pageDark()).toBe(true);
    expect(readPreference('theme', 'ada')).toBe('dark');

    signIn(VISITOR_USER_ID);
    expect(actor.getSnapshot().context.theme).toBe('dark');
    expect(pageDark()).toBe(true);
    expect(readPreference('theme', VISITOR_USER_ID)).toBe('dark');
  });

  it('lets an account’s own saved theme win over the visitor’s', () => {
    const { actor, signIn, pageDark } = startPreferences();
    signIn(VISITOR_USER_ID);
    actor.send({ type: 'theme.choose', theme: 'dark' });
    actor.send({ type: 'user.changed', userId: 'grace', stored: { theme: 'light' } });
    expect(actor.getSnapshot().context.theme).toBe('light');
    expect(pageDark()).toBe(false);
  });

  it('applies and saves dark for the present user', () => {
    const { actor, signIn, pageDark } = startPreferences();
    signIn('u1');
    actor.send({ type: 'theme.choose', theme: 'dark' });
    expect(pageDark()).toBe(true);
    expect(isDark(actor.getSnapshot())).toBe(true);
    expect(readPreference('theme', 'u1')).toBe('dark');
    expect(JSON.parse(localStorage.getItem('ai-chat-ops:theme')!)).toEqual({ userId: 'u1', value: 'dark' });
  });

  it('follows the device live while "system" is chosen, and stops listening when it is not', () => {
    const device = fakeDevice(false);
    const { actor, signIn, pageDark } = startPreferences({ device });
    signIn('u1');
    actor.send({ type: 'theme.choose', theme: 'system' });
    expect(pageDark()).toBe(false);
    expect(device.listening()).toBe(1);

    device.setDark(true);
    expect(pageDark()).toBe(true);
    expect(isDark(actor.getSnapshot())).toBe(true);
    device.setDark(false);
    expect(pageDark()).toBe(false);

    actor.send({ type: 'theme.choose', theme: 'light' });
    expect(device.listening()).toBe(0);
    device.setDark(true);
    expect(pageDark()).toBe(false);
  });

  it('starts dark at once for a saved "system" choice on a dark device', () => {
    writePreference('theme', 'u1', 'system');
    const { signIn, pageDark } = startPreferences({ device: fakeDevice(true) });
    signIn('u1');
    expect(pageDark()).toBe(true);
  });

  it('treats a stored value it does not know as the default', () => {
    writePreference('theme', 'u1', 'sepia');
    writePreference('firstPage', 'u1', 'random');
    const { actor, signIn } = startPreferences();
    signIn('u1');
    expect(actor.getSnapshot().context).toMatchObject({ theme: 'system', firstPage: 'new' });
  });
});

describe('per-user storage', () => {
  it('reads back only the choices of the user who made them', () => {
    const { actor, signIn, pageDark } = startPreferences();
    signIn('ada');
    actor.send({ type: 'theme.choose', theme: 'dark' });
    actor.send({ type: 'firstPage.choose', firstPage: 'last' });
    actor.send({ type: 'chat.opened', chatId: 'conv-ada' });
    actor.send({ type: 'agent.used', agentId: 'writer', agentInfo: agent });

    // Ada signs out: the visitor sees none of her choices but the theme on the screen.
    signIn(VISITOR_USER_ID);
    expect(actor.getSnapshot().context).toMatchObject({
      userId: VISITOR_USER_ID,
      theme: 'dark',
      firstPage: 'new',
      lastChatId: null,
      lastAgentId: null,
      lastAgentInfo: null,
    });
    expect(pageDark()).toBe(true);

    // Grace signs in on the same browser: none of Ada's either.
    signIn('grace');
    expect(actor.getSnapshot().context).toMatchObject({ userId: 'grace', theme: 'dark', lastChatId: null });

    // Ada again (nobody saved since): everything of hers is back.
    signIn('ada');
    expect(actor.getSnapshot().context).toMatchObject({
      theme: 'dark',
      firstPage: 'last',
      lastChatId: 'conv-ada',
      lastAgentId: 'writer',
      lastAgentInfo: agent,
    });
    expect(pageDark()).toBe(true);
  });

  it('saves under the product prefix with the user id', () => {
    const { actor, signIn } = startPreferences();
    signIn(VISITOR_USER_ID);
    actor.send({ type: 'chat.opened', chatId: 'conv-1' });
    expect(JSON.parse(localStorage.getItem('ai-chat-ops:lastChatId')!)).toEqual({ userId: 'visitor', value: 'conv-1' });
  });

  it('saves nothing while the user is not yet known', () => {
    const { actor } = startPreferences();
    actor.send({ type: 'chat.opened', chatId: 'conv-1' });
    actor.send({ type: 'agent.used', agentId: 'writer' });
    expect(localStorage.length).toBe(0);
  });

  it('keeps the last agent’s details while the same agent is used again without them', () => {
    const { actor, signIn } = startPreferences();
    signIn('u1');
    actor.send({ type: 'agent.used', agentId: 'writer', agentInfo: agent });
    actor.send({ type: 'agent.used', agentId: 'writer' });
    expect(actor.getSnapshot().context.lastAgentInfo).toEqual(agent);
    actor.send({ type: 'agent.used', agentId: 'coder' });
    expect(actor.getSnapshot().context).toMatchObject({ lastAgentId: 'coder', lastAgentInfo: null });
    expect(readPreference('lastAgentId', 'u1')).toBe('coder');
  });
});

describe('the first page', () => {
  const returning = (firstPage: 'new' | 'last', lastChatId: string | null = 'conv-9') => {
    writePreference('firstPage', 'u1', firstPage);
    if (lastChatId) writePreference('lastChatId', 'u1', lastChatId);
    const started = startPreferences();
    started.signIn('u1');
    return started;
  };

  it('takes a user who chose "last chat" from the home page to that chat', () => {
    const { actor, navigate } = returning('last');
    actor.send({ type: 'page.shown', path: '/' });
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/chat/conv-9');
  });

  it('does so only where the page load lands, not when the home page is opened later', () => {
    const { actor, navigate } = returning('last');
    actor.send({ type: 'page.shown', path: '/download' });
    actor.send({ type: 'page.shown', path: '/' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('does so only once, whatever else is shown', () => {
    const { actor, navigate } = returning('last');
    actor.send({ type: 'page.shown', path: '/home' });
    actor.send({ type: 'page.shown', path: '/chat/conv-9' });
    actor.send({ type: 'page.shown', path: '/' });
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('leaves the home page (a new chat) for "new", and for "last" without a last chat', () => {
    const first = returning('new');
    first.actor.send({ type: 'page.shown', path: '/' });
    expect(first.navigate).not.toHaveBeenCalled();
    localStorage.clear();
    const second = returning('last', null);
    second.actor.send({ type: 'page.shown', path: '/' });
    expect(second.navigate).not.toHaveBeenCalled();
  });
});

describe('the language', () => {
  it('hands the chosen language to the app to save and switch', () => {
    const { actor, switchLocale } = startPreferences();
    actor.send({ type: 'locale.choose', locale: 'ja' });
    expect(switchLocale).toHaveBeenCalledExactlyOnceWith('ja');
    // The menu shows the choice at once, before the bundle has arrived.
    expect(actor.getSnapshot().context.locale).toBe('ja');
  });

  it('follows whatever language i18next reports', () => {
    const { actor } = startPreferences();
    expect(actor.getSnapshot().context.locale).toBeNull();
    actor.send({ type: 'locale.changed', locale: 'de-DE' });
    expect(actor.getSnapshot().context.locale).toBe('de-DE');
  });
});
