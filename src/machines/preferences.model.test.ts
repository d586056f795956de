import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, type Actor, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import type { Agent } from '../contract/agents';
import type { Locale } from '../i18n/locale';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { playCheckingEveryStep } from '../../tests/spa/models/play-path';
import {
  isDark,
  preferencesMachine,
  THEMES,
  VISITOR_USER_ID,
  type FirstPage,
  type PreferenceKey,
  type PreferencesEvent,
  type StoredPreferences,
  type Theme,
} from './preferences.machine';

/**
 * The person's preferences on paths generated from the machine that ships: who is here (Ada, who
 * saved "system", "last chat" and her last chat and agent; or a visitor whose storage holds values
 * the product does not know), the theme chosen and the device's colour scheme followed while it is
 * "system", the first page and where the page load lands, the language, and the last agent and
 * chat remembered. Each path is played on the production machine as an actor whose effects
 * (painting the theme, saving, switching language, navigating, watching the device) are recorded,
 * and each state is checked against rules written from the product, not read from the machine.
 */
type Snapshot = SnapshotFrom<typeof preferencesMachine>;

const ADA = 'ada';
const WRITER = { id: '7', agentId: 'writer', name: 'Writer' } as Agent;
const CODER = { id: '8', agentId: 'coder', name: 'Coder' } as Agent;
/** What this browser holds for each person: Ada's own choices; for visitors, nothing the product knows. */
const STORED: Record<string, StoredPreferences> = {
  [ADA]: { theme: 'system', firstPage: 'last', lastChatId: 'c-ada', lastAgentId: 'writer', lastAgentInfo: WRITER },
  [VISITOR_USER_ID]: { theme: 'sepia', firstPage: 'random', lastChatId: '', lastAgentId: 42, lastAgentInfo: 'writer' },
};
const FIRST_PAGE_OTHER: Record<FirstPage, FirstPage> = { new: 'last', last: 'new' };

const userChanged = (userId: string): ModelEvent => ({ type: 'user.changed', userId, stored: STORED[userId] });

/**
 * What the world can do in each place: until the session check has said who is here, only the
 * session, i18next and the chat (whose reports the rules ignore) speak, since the pages, the
 * preferences menu among them, are shown only after it; then people choose, one change at a time.
 */
const eventsIn = (state: Snapshot): ModelEvent[] => {
  const { userId, theme, firstPage, landed } = state.context;
  if (userId === null) {
    return [userChanged(ADA), userChanged(VISITOR_USER_ID), { type: 'locale.changed', locale: 'en-US' }, { type: 'chat.opened', chatId: 'c-1' }, { type: 'agent.used', agentId: 'coder' }];
  }
  return [
    userChanged(userId === ADA ? VISITOR_USER_ID : ADA),
    ...THEMES.filter((other) => other !== theme).map((other): ModelEvent => ({ type: 'theme.choose', theme: other })),
    { type: 'colorScheme.changed', dark: true },
    { type: 'colorScheme.changed', dark: false },
    { type: 'firstPage.choose', firstPage: FIRST_PAGE_OTHER[firstPage] },
    { type: 'locale.choose', locale: 'fr-FR' },
    { type: 'locale.changed', locale: 'de-DE' },
    { type: 'agent.used', agentId: 'writer' },
    { type: 'agent.used', agentId: 'coder', agentInfo: CODER },
    { type: 'chat.opened', chatId: 'c-ada' },
    { type: 'chat.opened', chatId: 'c-2' },
    // only the page a load lands on can send the person on: the home page opened later must not
    { type: 'page.shown', path: '/' },
    ...(landed ? [] : [{ type: 'page.shown', path: '/download' }]),
  ];
};

const serializeState = (state: Snapshot) => {
  const { userId, firstPage, lastChatId, landed } = state.context;
  return `${JSON.stringify(state.value)} ${userId ?? '-'} first:${firstPage} ${lastChatId ? 'has a last chat' : 'no last chat'}${landed ? ' landed' : ''}`;
};
const { model, paths, transitionCount, reachedStates } = productionPaths(preferencesMachine, { events: eventsIn, input: {}, serializeState });
const reachedPlaces = Object.keys(model.getAdjacencyMap()).length;

/** "user.changed ada, theme.choose dark, page.shown /": a path's events with what they carry. */
const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      const { type, ...fields } = event;
      const detail = Object.entries(fields).find(([key]) => key !== 'stored' && key !== 'agentInfo')?.[1];
      return detail === undefined ? type : `${type} ${String(detail)}`;
    })
    .join(', ');

type Saved = { key: PreferenceKey; userId: string; value: unknown };
type World = {
  actor: Actor<typeof preferencesMachine>;
  /** What the product must hold, from what happened. */
  userId: string | null;
  theme: Theme;
  firstPage: FirstPage;
  lastChatId: string | null;
  lastAgentId: string | null;
  lastAgentInfo: Agent | null;
  landed: boolean;
  locale: Locale | null;
  /** Whether the device is dark now. */
  deviceDark: boolean;
  /** What the machine did: each theme painted (dark or not), saved, navigated to, languages switched to. */
  painted: boolean[];
  saved: Saved[];
  navigated: string[];
  switched: Locale[];
  /** What it must have done. */
  paints: number;
  saves: Saved[];
  navigations: string[];
  switches: Locale[];
  /** The device watcher's report channel while one runs. */
  watchers: ((event: PreferencesEvent) => void)[];
  /** Where the page was before the last event, and what that event was. */
  before: string;
  last: string;
};

/** Where the page must be after what last happened, from the product's rules ("as before": no change of theme). */
const EXPECTED_AFTER: Record<string, string> = {
  'page load': 'waitingForUser',
  // Ada saved "system": the device decides
  'Ada is here': 'system',
  // nothing stored that the product knows: at page load the default, the device's
  'a visitor is here first': 'system',
  // ...and after someone else: the theme on the screen stays, and becomes the newcomer's
  'a visitor takes over, keeping the theme': 'as before',
  'chose light': 'light',
  'chose dark': 'dark',
  'chose system': 'system',
  // only heard while the theme is "system", which it stays
  'device turned dark': 'system',
  'device turned light': 'system',
  'chose the first page': 'as before',
  'chose a language': 'as before',
  'language switched': 'as before',
  'agent used': 'as before',
  'chat opened': 'as before',
  'page shown': 'as before',
};

/**
 * The rules for loading one person's stored values: anything unknown is the product's default,
 * but a theme: without one of their own, the newcomer keeps the theme on the screen, saved as theirs.
 */
const load = (world: World, userId: string) => {
  const stored = STORED[userId]!;
  const known = (THEMES as readonly unknown[]).includes(stored.theme);
  if (known) world.theme = stored.theme as Theme;
  else if (world.userId === null) world.theme = 'system';
  else world.saves.push({ key: 'theme', userId, value: world.theme });
  world.userId = userId;
  world.firstPage = stored.firstPage === 'last' ? 'last' : 'new';
  world.lastChatId = typeof stored.lastChatId === 'string' && stored.lastChatId ? stored.lastChatId : null;
  world.lastAgentId = typeof stored.lastAgentId === 'string' && stored.lastAgentId ? stored.lastAgentId : null;
  world.lastAgentInfo = typeof stored.lastAgentInfo === 'object' ? (stored.lastAgentInfo as Agent) : null;
};

const pageIsDark = (world: World) => world.theme === 'dark' || (world.theme === 'system' && world.deviceDark);

const checkWorld = (world: World, state: string) => {
  const expected = EXPECTED_AFTER[world.last];
  expect(expected, `no rule for ${world.last}`).toBeDefined();
  expect(expected === 'as before' ? world.before : expected, `after ${world.last}`).toBe(state);
  world.before = state;
  const snapshot = world.actor.getSnapshot();
  expect(snapshot.matches(state as never), `the preferences are ${JSON.stringify(snapshot.value)}`).toBe(true);
  expect(snapshot.context).toMatchObject({
    userId: world.userId,
    theme: world.theme,
    firstPage: world.firstPage,
    lastChatId: world.lastChatId,
    lastAgentId: world.lastAgentId,
    lastAgentInfo: world.lastAgentInfo,
    landed: world.landed,
    locale: world.locale,
  });
  expect(world.saved).toEqual(world.saves);
  expect(world.navigated).toEqual(world.navigations);
  expect(world.switched).toEqual(world.switches);
  expect(world.painted, 'a theme painted at each change of theme, user or device').toHaveLength(world.paints);
  // the device is watched exactly while it decides
  expect(world.watchers).toHaveLength(state === 'system' ? 1 : 0);
};

/** Once the person is known, the page shows their theme. */
const checkPainted = (world: World) => {
  expect(world.painted.at(-1), `the page after ${world.last}`).toBe(pageIsDark(world));
  expect(isDark(world.actor.getSnapshot())).toBe(pageIsDark(world));
};

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    waitingForUser: () => {
      checkWorld(world(), 'waitingForUser');
      // the theme painted before the first paint stays until the person is known
      expect(world().painted).toEqual([]);
      expect(world().saved).toEqual([]);
    },
    light: () => {
      checkWorld(world(), 'light');
      checkPainted(world());
    },
    dark: () => {
      checkWorld(world(), 'dark');
      checkPainted(world());
    },
    system: () => {
      checkWorld(world(), 'system');
      checkPainted(world());
    },
  },
  events: {
    'user.changed': ({ event }) => {
      const w = world();
      const { userId } = event as ModelEvent & { userId: string };
      w.last = userId === ADA ? 'Ada is here' : w.userId === null ? 'a visitor is here first' : 'a visitor takes over, keeping the theme';
      load(w, userId);
      w.paints += 1;
      w.actor.send(event as PreferencesEvent);
    },
    'theme.choose': ({ event }) => {
      const w = world();
      const { theme } = event as ModelEvent & { theme: Theme };
      w.last = `chose ${theme}`;
      w.theme = theme;
      w.paints += 1;
      w.saves.push({ key: 'theme', userId: w.userId ?? VISITOR_USER_ID, value: theme });
      w.actor.send(event as PreferencesEvent);
    },
    'colorScheme.changed': ({ event }) => {
      const w = world();
      const { dark } = event as ModelEvent & { dark: boolean };
      w.last = `device turned ${dark ? 'dark' : 'light'}`;
      w.deviceDark = dark;
      if (w.theme === 'system') w.paints += 1;
      // the device reports through the watcher the machine runs; none runs when nothing listens
      expect(w.watchers, 'nobody watches the device').toHaveLength(1);
      w.watchers[0]!(event as PreferencesEvent);
    },
    'firstPage.choose': ({ event }) => {
      const w = world();
      const { firstPage } = event as ModelEvent & { firstPage: FirstPage };
      w.last = 'chose the first page';
      w.firstPage = firstPage;
      w.saves.push({ key: 'firstPage', userId: w.userId ?? VISITOR_USER_ID, value: firstPage });
      w.actor.send(event as PreferencesEvent);
    },
    'locale.choose': ({ event }) => {
      const w = world();
      const { locale } = event as ModelEvent & { locale: Locale };
      w.last = 'chose a language';
      // shown as chosen at once, and handed to the app to save and switch
      w.locale = locale;
      w.switches.push(locale);
      w.actor.send(event as PreferencesEvent);
    },
    'locale.changed': ({ event }) => {
      const w = world();
      w.last = 'language switched';
      w.locale = (event as ModelEvent & { locale: Locale }).locale;
      w.actor.send(event as PreferencesEvent);
    },
    'agent.used': ({ event }) => {
      const w = world();
      const { agentId, agentInfo } = event as ModelEvent & { agentId: string; agentInfo?: Agent };
      w.last = 'agent used';
      // remembered for a known person when it is another agent or comes with its details; the
      // details of the same agent are kept when it is used again without them
      if (w.userId !== null && (agentId !== w.lastAgentId || agentInfo)) {
        w.lastAgentInfo = agentInfo ?? (agentId === w.lastAgentId ? w.lastAgentInfo : null);
        w.lastAgentId = agentId;
        w.saves.push({ key: 'lastAgentId', userId: w.userId, value: agentId }, { key: 'lastAgentInfo', userId: w.userId, value: w.lastAgentInfo });
      }
      w.actor.send(event as PreferencesEvent);
    },
    'chat.opened': ({ event }) => {
      const w = world();
      const { chatId } = event as ModelEvent & { chatId: string };
      w.last = 'chat opened';
      if (w.userId !== null && chatId !== w.lastChatId) {
        w.lastChatId = chatId;
        w.saves.push({ key: 'lastChatId', userId: w.userId, value: chatId });
      }
      w.actor.send(event as PreferencesEvent);
    },
    'page.shown': ({ event }) => {
      const w = world();
      const { path } = event as ModelEvent & { path: string };
      w.last = 'page shown';
      // a returning person who chose "last chat" and whose page load lands on the home page is taken to it
      if (!w.landed && ['/', '/home'].includes(path) && w.firstPage === 'last' && w.lastChatId) w.navigations.push(`/chat/${w.lastChatId}`);
      w.landed = true;
      w.actor.send(event as PreferencesEvent);
    },
  },
});

describe('preferences, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state a page can show and takes every transition', () => {
    // "resolving" only decides, at once, which theme applies: no page ever rests there
    const declared = Object.keys(preferencesMachine.root.states).filter((state) => state !== 'resolving');
    expect([...reachedStates].map((value) => JSON.parse(value) as string).sort()).toEqual(declared.sort());
    // places told apart by theme, person, first page, whether a last chat is known and whether the
    // page load has landed; from each, every change the world can make that the machine takes
    expect(reachedPlaces).toBe(37);
    expect(transitionCount).toBe(405);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    const w: World = {
      userId: null,
      theme: 'system',
      firstPage: 'new',
      lastChatId: null,
      lastAgentId: null,
      lastAgentInfo: null,
      landed: false,
      locale: null,
      deviceDark: false,
      painted: [],
      saved: [],
      navigated: [],
      switched: [],
      paints: 0,
      saves: [],
      navigations: [],
      switches: [],
      watchers: [],
      before: 'waitingForUser',
      last: 'page load',
    } as Omit<World, 'actor'> as World;
    w.actor = createActor(
      preferencesMachine.provide({
        actors: {
          colorScheme: fromCallback<PreferencesEvent>(({ sendBack }) => {
            w.watchers.push(sendBack);
            return () => w.watchers.splice(w.watchers.indexOf(sendBack), 1);
          }),
        },
        actions: {
          applyTheme: (_, { dark }) => w.painted.push(dark),
          persist: (_, saved) => w.saved.push(saved),
          switchLocale: (_, { locale }) => w.switched.push(locale),
          navigate: (_, { to }) => w.navigated.push(to),
        },
      }),
      { input: {} },
    );
    world = w;
    w.actor.start();
    await playCheckingEveryStep(path, testParams);
    w.actor.stop();
  });
});
