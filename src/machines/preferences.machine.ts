import { assertEvent, assign, fromCallback, setup, type SnapshotFrom } from 'xstate';
import type { Agent } from '../contract/agents';
import type { Locale } from '../i18n/locale';

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];
/** Until a person chooses, the page follows the device. */
export const DEFAULT_THEME: Theme = 'system';

/** The home page's addresses: where the first-page preference applies. */
const HOME_PATHS = ['/', '/home'];

export const FIRST_PAGES = ['new', 'last'] as const;
export type FirstPage = (typeof FIRST_PAGES)[number];
export const DEFAULT_FIRST_PAGE: FirstPage = 'new';

/** Whose preferences these are: the signed-in user's id, or this one for every visitor. */
export const VISITOR_USER_ID = 'visitor';

/** What per-user storage gave back for one user: anything it holds may be missing or stale. */
export type StoredPreferences = {
  theme?: unknown;
  firstPage?: unknown;
  lastAgentId?: unknown;
  lastAgentInfo?: unknown;
  lastChatId?: unknown;
};

export type PreferenceKey = keyof StoredPreferences;

export type PreferencesContext = {
  /** Null until the session check has said who is here: nothing is applied or saved before. */
  userId: string | null;
  theme: Theme;
  /** The device's colour scheme, as last reported; it decides only while the theme is "system". */
  systemDark: boolean;
  firstPage: FirstPage;
  lastAgentId: string | null;
  lastAgentInfo: Agent | null;
  lastChatId: string | null;
  /** Whether a page has been shown yet in this page load: only the landing page can send on. */
  landed: boolean;
  /** The interface language: the one chosen at once, then whatever i18next reports. Null until known. */
  locale: Locale | null;
};

export type PreferencesInput = { userId?: string; stored?: StoredPreferences; systemDark?: boolean };

export type PreferencesEvent =
  | { type: 'user.changed'; userId: string; stored: StoredPreferences }
  | { type: 'theme.choose'; theme: Theme }
  | { type: 'colorScheme.changed'; dark: boolean }
  | { type: 'firstPage.choose'; firstPage: FirstPage }
  | { type: 'locale.choose'; locale: Locale }
  /** i18next switched language (after a choice, or at start). */
  | { type: 'locale.changed'; locale: Locale }
  | { type: 'agent.used'; agentId: string; agentInfo?: Agent | null }
  | { type: 'chat.opened'; chatId: string }
  /** Every page the person sees; the first one of a page load is where they landed. */
  | { type: 'page.shown'; path: string };

const oneOf = <T extends string>(allowed: readonly T[], value: unknown, fallback: T): T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

const agentOrNull = (value: unknown): Agent | null =>
  value && typeof value === 'object' && typeof (value as Agent).agentId === 'string' ? (value as Agent) : null;

/** One user's stored values, each checked; anything unknown becomes the product's default. */
const fromStorage = (userId: string | null, stored: StoredPreferences = {}) => ({
  userId,
  theme: oneOf(THEMES, stored.theme, DEFAULT_THEME),
  firstPage: oneOf(FIRST_PAGES, stored.firstPage, DEFAULT_FIRST_PAGE),
  lastAgentId: textOrNull(stored.lastAgentId),
  lastAgentInfo: agentOrNull(stored.lastAgentInfo),
  lastChatId: textOrNull(stored.lastChatId),
});

/** Saves one preference for the present user, with the value the transition just assigned. */
const save = (key: PreferenceKey) =>
  ({
    type: 'persist',
    params: ({ context }: { context: PreferencesContext }) => ({ key, userId: context.userId ?? VISITOR_USER_ID, value: context[key] }),
  }) as const;

/**
 * Reports the device's colour scheme now and whenever it changes, for as long as the theme is
 * "system". Given the page's `matchMedia` where the app starts, a fake one in tests.
 */
export const colorSchemeWatcher = (matchMedia: ((query: string) => MediaQueryList) | undefined) =>
  fromCallback<PreferencesEvent>(({ sendBack }) => {
    if (!matchMedia) return undefined;
    const query = matchMedia('(prefers-color-scheme: dark)');
    const report = () => sendBack({ type: 'colorScheme.changed', dark: query.matches });
    report();
    query.addEventListener('change', report);
    return () => query.removeEventListener('change', report);
  });

/**
 * The person's preferences: theme (light, dark, or the device's, followed live), the first page
 * (a new chat or the last one), the last agent and the last chat. Each is saved per user and
 * loaded again whenever the user changes (sign in, sign out); someone without a saved theme keeps
 * the one on the screen, so a visitor's Dark survives signing in and out. The language is switched
 * through here too. Applying the theme, saving, switching language and navigating are provided
 * where the app starts.
 */
export const preferencesMachine = setup({
  types: {
    context: {} as PreferencesContext,
    events: {} as PreferencesEvent,
    input: {} as PreferencesInput,
  },
  actors: {
    colorScheme: colorSchemeWatcher(undefined),
  },
  actions: {
    applyTheme: (_, _params: { dark: boolean }) => undefined,
    persist: (_, _params: { key: PreferenceKey; userId: string; value: unknown }) => undefined,
    switchLocale: (_, _params: { locale: Locale }) => undefined,
    navigate: (_, _params: { to: string }) => undefined,
    loadUser: assign(({ event }) => {
      assertEvent(event, 'user.changed');
      return fromStorage(event.userId, event.stored);
    }),
    /** The newcomer has no theme of their own: the one on the screen stays, and becomes theirs. */
    loadUserKeepingTheme: assign(({ context, event }) => {
      assertEvent(event, 'user.changed');
      return { ...fromStorage(event.userId, event.stored), theme: context.theme };
    }),
    setTheme: assign(({ event }) => {
      assertEvent(event, 'theme.choose');
      return { theme: event.theme };
    }),
    setSystemDark: assign(({ event }) => {
      assertEvent(event, 'colorScheme.changed');
      return { systemDark: event.dark };
    }),
    setFirstPage: assign(({ event }) => {
      assertEvent(event, 'firstPage.choose');
      return { firstPage: event.firstPage };
    }),
    setLastAgent: assign(({ context, event }) => {
      assertEvent(event, 'agent.used');
      const sameAgent = context.lastAgentId === event.agentId;
      return { lastAgentId: event.agentId, lastAgentInfo: event.agentInfo ?? (sameAgent ? context.lastAgentInfo : null) };
    }),
    setLastChat: assign(({ event }) => {
      assertEvent(event, 'chat.opened');
      return { lastChatId: event.chatId };
    }),
    markLanded: assign({ landed: true }),
    setLocale: assign(({ event }) => {
      assertEvent(event, ['locale.choose', 'locale.changed']);
      return { locale: event.locale };
    }),
  },
  guards: {
    userKnown: ({ context }) => context.userId !== null,
    /** Someone takes over from the person before (a sign-in, a sign-out) without a theme saved. */
    arrivesWithoutTheme: ({ context, event }) =>
      context.userId !== null && event.type === 'user.changed' && !(THEMES as readonly unknown[]).includes(event.stored.theme),
    choseSystem: ({ context }) => context.theme === 'system',
    choseDark: ({ context }) => context.theme === 'dark',
    /** A returning user who chose "last chat" and opened the home page lands in that chat instead. */
    resumesLastChat: ({ context, event }) =>
      !context.landed &&
      event.type === 'page.shown' &&
      HOME_PATHS.includes(event.path) &&
      context.firstPage === 'last' &&
      context.lastChatId !== null,
    isNewAgent: ({ context, event }) =>
      context.userId !== null && event.type === 'agent.used' && (event.agentId !== context.lastAgentId || event.agentInfo != null),
    isNewChat: ({ context, event }) => context.userId !== null && event.type === 'chat.opened' && event.chatId !== context.lastChatId,
  },
}).createMachine({
  id: 'preferences',
  context: ({ input }) => ({
    ...fromStorage(input.userId ?? null, input.stored),
    systemDark: input.systemDark ?? false,
    landed: false,
    locale: null,
  }),
  initial: 'waitingForUser',
  on: {
    'user.changed': [
      { guard: 'arrivesWithoutTheme', target: '.resolving', reenter: true, actions: ['loadUserKeepingTheme', save('theme')] },
      { target: '.resolving', reenter: true, actions: 'loadUser' },
    ],
    'theme.choose': {
      target: '.resolving',
      reenter: true,
      actions: ['setTheme', save('theme')],
    },
    'firstPage.choose': {
      actions: [
        'setFirstPage',
        save('firstPage'),
      ],
    },
    'locale.choose': {
      actions: ['setLocale', { type: 'switchLocale', params: ({ event }) => ({ locale: event.locale }) }],
    },
    'locale.changed': { actions: 'setLocale' },
    'agent.used': {
      guard: 'isNewAgent',
      actions: [
        'setLastAgent',
        save('lastAgentId'),
        save('lastAgentInfo'),
      ],
    },
    'chat.opened': {
      guard: 'isNewChat',
      actions: ['setLastChat', save('lastChatId')],
    },
    'page.shown': [
      {
        guard: 'resumesLastChat',
        actions: ['markLanded', { type: 'navigate', params: ({ context }) => ({ to: `/chat/${encodeURIComponent(context.lastChatId ?? '')}` }) }],
      },
      { actions: 'markLanded' },
    ],
  },
  states: {
    /** Until the user is known the theme applied before the first paint (boot.js) stays. */
    waitingForUser: {
      always: { guard: 'userKnown', target: 'resolving' },
    },
    resolving: {
      always: [{ guard: 'choseSystem', target: 'system' }, { guard: 'choseDark', target: 'dark' }, { target: 'light' }],
    },
    light: { entry: { type: 'applyTheme', params: { dark: false } } },
    dark: { entry: { type: 'applyTheme', params: { dark: true } } },
    system: {
      entry: { type: 'applyTheme', params: ({ context }) => ({ dark: context.systemDark }) },
      invoke: { src: 'colorScheme' },
      on: {
        'colorScheme.changed': {
          actions: ['setSystemDark', { type: 'applyTheme', params: ({ event }) => ({ dark: event.dark }) }],
        },
      },
    },
  },
});

export type PreferencesSnapshot = SnapshotFrom<typeof preferencesMachine>;

/** Whether the page is dark now, whatever the choice was. */
export const isDark = (state: PreferencesSnapshot): boolean =>
  state.matches('dark') || (state.matches('system') && state.context.systemDark);
