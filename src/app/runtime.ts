import { createActor, fromCallback, fromPromise, fromTransition } from 'xstate';
import { changeLocale, i18n, initI18n } from '../i18n';
import { matchLocale } from '../i18n/locale';
import { appMachine, type Presence } from '../machines/app.machine';
import { colorSchemeWatcher, preferencesMachine, VISITOR_USER_ID, type StoredPreferences } from '../machines/preferences.machine';
import type { ToastInput } from '../machines/toast.machine';
import { clearToken, getToken, setToken } from '../services/cookies';
import { configureHttp } from '../services/http-hooks';
import { resetVisitorId } from '../services/visitor';
import { GOOGLE_RETURN_PATH, isConversationPath, isPersonalPath, SCAN_APPROVAL_PATH } from '../services/redirect';
import { createScreenEvents } from '../services/screen-events';
import type { createWechatActors } from './wechat-runtime';
import type { RuntimeOptions } from './runtime-options';
import { detectDevice } from '../services/env';
import { forgetPersonalPreferences, PREFERENCE_KEYS, readOfflineKeeper, readPreference, writePreference } from '../services/storage';
import { chatDrafts, visitorTyped } from './chat-versions-actors';
import type { ChatActor, createChatActor } from './chat-runtime';
import { DEFAULT_AGENT_ID } from '../contract/constants';
import { adoptDrafts, draftIn, keepDrafts, newChatScope, writeDraft, type DraftBook, type HandedDrafts } from '../machines/draft-book';

/**
 * Services arrive with their first use: a visitor's home page makes no call, so it downloads
 * neither the HTTP client nor the stream transport.
 */
const usersApi = () => import('../services/api/users');
const authApi = () => import('../services/api/auth');
const offlineLibrary = () => import('../services/offline-library');
export type { Navigate, RuntimeOptions } from './runtime-options';

/** The theme on the page: the `dark` class drives the colour variables, colorScheme the browser's own parts. */
const applyTheme = (dark: boolean): void => {
  const root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
};

/**
 * One person's saved preferences. A signed-in person without a theme of their own gets the one a
 * visitor chose in this browser, also when they arrive by a full page load (Google, WeChat).
 */
const readStoredPreferences = (userId: string): StoredPreferences => {
  const stored: StoredPreferences = Object.fromEntries(PREFERENCE_KEYS.map((key) => [key, readPreference(key, userId)]));
  if (stored.theme == null && userId !== VISITOR_USER_ID) stored.theme = readPreference('theme', VISITOR_USER_ID);
  return stored;
};

/**
 * Creates the app's long-lived actors and gives each machine its real side effects. Everything
 * a machine does to the outside world is provided here, once, so tests can provide others.
 */
export const createRuntime = ({ navigate, inspect, wechat, leavePage = (url) => location.assign(url), chatClock }: RuntimeOptions) => {
  const screenEvents = createScreenEvents();

  const app = createActor(
    appMachine.provide({
      actors: {
        prepare: fromPromise(async () => {
          await Promise.all([
            initI18n(undefined, { shellOnly: true }),
            wechatNeededAtStart() ? import('./wechat-runtime').then(({ createWechatActors }) => attachWechat(createWechatActors)) : null,
          ]);
        }),
        fetchUser: fromPromise(async () => (await usersApi()).getUserInfo({ silent: true })),
        readLibrary: fromPromise(async () => (await offlineLibrary()).readLastAccountsKept()),
        networkReturns: fromCallback(({ sendBack }) => {
          const online = () => sendBack({ type: 'retry' });
          window.addEventListener('online', online);
          return () => window.removeEventListener('online', online);
        }),
        revokeSession: fromPromise(async () => {
          try {
            await (await authApi()).logout({ silent: true });
          } finally {
            resetVisitorId();
          }
        }),
      },
      actions: {
        storeToken: (_, { token }) => setToken(token),
        clearToken: () => clearToken(),
        // On a shared browser, signing out takes away what the person wrote and opened, and their page.
        signedOut: (_, { userId }) => {
          forgetPersonalPreferences(userId);
          if (isPersonalPath(location.pathname)) navigate('/', { replace: true });
        },
      },
      guards: { hasToken: () => Boolean(getToken()) },
    }),
    { inspect, systemId: 'app' },
  );

  /**
   * Whose preferences and drafts are in use: the person the app machine says is here (its
   * `presence`; a visitor's are kept as VISITOR_USER_ID's), or null before it has settled who.
   */
  const personHere = (): string | null => {
    const presence = app.getSnapshot().context.presence;
    return presence ? (presence.account ?? VISITOR_USER_ID) : null;
  };
  /**
   * The chat actor is created on first use (the chat page, or the first question asked from
   * home), so the home page carries no chat machine; until then the home page keeps its own
   * draft, in the same book as the chat's drafts (a new chat with the default agent).
   */
  let chat: ChatActor | null = null;
  /** Hands the chat a person's stored drafts, which it does not write back (see `keepDrafts`). */
  let handDrafts: (event: HandedDrafts) => void = () => undefined;
  const homeScope = newChatScope(DEFAULT_AGENT_ID);
  // `loaded`: the same person's saved draft, behind anything they typed already; `replaced`: another
  // person's, as the one before left nothing of theirs.
  const homeDraft = createActor(
    fromTransition((draft: string, event: { type: 'change' | 'loaded' | 'replaced'; text: string }) =>
      event.type === 'loaded' ? draft || event.text : event.text, ''),
  );
  const persistDrafts = (drafts: DraftBook) => {
    const person = personHere();
    if (person === null) return;
    chatDrafts.write(person, drafts);
    if (person === VISITOR_USER_ID) visitorTyped.mark();
  };
  const attachChat = (create: typeof createChatActor): ChatActor => {
    if (chat) return chat;
    const created = create({ navigate, screenEvents, inspect, personHere, ...(chatClock ? { clock: chatClock } : {}) });
    chat = created;
    // Only what changed is passed on: an answer's text arriving changes neither.
    handDrafts = keepDrafts(created, (drafts) => {
      persistDrafts(drafts);
      homeDraft.send({ type: 'change', text: draftIn(drafts, homeScope) });
    }).hand;
    created.subscribe(({ context }) => {
      if (!context.conversationId) return;
      const known = preferences.getSnapshot().context;
      if (context.agentId !== known.lastAgentId) preferences.send({ type: 'agent.used', agentId: context.agentId });
      if (context.conversationId !== known.lastChatId) preferences.send({ type: 'chat.opened', chatId: context.conversationId });
    });
    created.start();
    const person = personHere();
    if (person !== null) handDrafts({ type: 'drafts.loaded', drafts: chatDrafts.read(person) });
    return created;
  };
  const loadChat = (): Promise<ChatActor> => import('./chat-runtime').then(({ createChatActor }) => attachChat(createChatActor));

  /** Text typed on the home page: kept in the drafts book, and in the chat's once it exists. */
  const changeHomeDraft = (text: string): void => {
    // The chat's code starts downloading with the first keystroke, ready when the question goes.
    if (!chat) void import('./chat-runtime');
    homeDraft.send({ type: 'change', text });
    const person = personHere();
    if (person === null) return;
    const drafts = writeDraft(chatDrafts.read(person), homeScope, text);
    persistDrafts(drafts);
    handDrafts({ type: 'drafts.loaded', drafts });
  };

  /** The question asked on the home page goes to a new chat with the default agent. */
  const askFromHome = async (): Promise<void> => {
    const text = homeDraft.getSnapshot().context;
    const actor = await loadChat();
    actor.send({ type: 'conversation.new', agentId: DEFAULT_AGENT_ID });
    actor.send({ type: 'draft.change', text });
    actor.send({ type: 'send' });
    homeDraft.send({ type: 'change', text: '' });
    navigate('/chat');
  };

  const preferences = createActor(
    preferencesMachine.provide({
      actors: {
        colorScheme: colorSchemeWatcher(typeof window.matchMedia === 'function' ? (query) => window.matchMedia(query) : undefined),
      },
      actions: {
        applyTheme: (_, { dark }) => applyTheme(dark),
        persist: (_, { key, userId, value }) => writePreference(key, userId, value),
        switchLocale: (_, { locale }) => void changeLocale(locale),
        navigate: (_, { to }) => navigate(to, { replace: true }),
      },
    }),
    { inspect, systemId: 'preferences', input: {} },
  );

  // Preferences and drafts follow whoever the app machine says is here (see `nextPresence`): each
  // presence it settles is passed on once (the app's snapshot is already the new one when it is).
  let passedOn: Presence | null = null;
  app.subscribe(({ context: { presence } }) => {
    if (presence === passedOn || presence === null) return;
    passedOn = presence;
    const { account, samePerson } = presence;
    // The conversations kept for reading offline are the signed-in person's only: a visitor here
    // (after a sign-out, a session that ran out or was revoked) or another account empties them.
    const keeper = readOfflineKeeper();
    if (keeper !== null && keeper !== account) void offlineLibrary().then((library) => library.forgetKeptExcept(account), () => undefined);
    const userId = account ?? VISITOR_USER_ID;
    preferences.send({ type: 'user.changed', userId, stored: readStoredPreferences(userId) });
    let drafts = chatDrafts.read(userId);
    // A visitor who logs in in this tab (a redirect to Google or WeChat included) keeps what they
    // typed: the visitor's drafts move to the account's book (the browser keeps one person's book,
    // so writing the account's replaces the visitor's).
    if (account !== null && samePerson && visitorTyped.take()) {
      drafts = adoptDrafts(drafts, chatDrafts.read(VISITOR_USER_ID));
      chatDrafts.write(userId, drafts);
    }
    homeDraft.send({ type: samePerson ? 'loaded' : 'replaced', text: draftIn(drafts, homeScope) });
    handDrafts({ type: samePerson ? 'drafts.loaded' : 'session.changed', drafts });
    // The chat on screen is a new one now: its address no longer names the conversation that was.
    if (!samePerson && isConversationPath(location.pathname)) navigate('/chat', { replace: true });
  });
  const onLanguageChanged = (language: string) => {
    const locale = matchLocale(language);
    if (locale) preferences.send({ type: 'locale.changed', locale });
  };
  i18n.on('languageChanged', onLanguageChanged);
  // An answer whose connection was lost is read again as soon as the browser is back online (and by
  // itself after a wait, see the chat machine's `detached`).
  const onOnline = () => chat?.send({ type: 'connection.restored' });

  const toast = (input: ToastInput): void => {
    app.system.get('toasts')?.send({ type: 'toast.add', toast: input });
  };
  const dismissToast = (id: string): void => {
    app.system.get('toasts')?.send({ type: 'toast.dismiss', id });
  };

  /**
   * The WeChat and scan-login actors come with their code, when first needed: at start in WeChat's
   * browser or with a WeChat `code` or a `scanid` in the address, else when the login page opens.
   */
  type WechatActors = ReturnType<typeof createWechatActors>;
  let wechatActors: WechatActors | null = null;
  const attachWechat = (create: typeof createWechatActors): WechatActors => {
    if (!wechatActors) {
      wechatActors = create({ app, navigate, toast, inspect, ...wechat });
      wechatActors.wechatLogin.start();
    }
    return wechatActors;
  };
  const wechatNeededAtStart = (): boolean =>
    (wechat?.device ?? detectDevice(navigator.userAgent, window.innerWidth)).wechat ||
    // a scan link opens the approval page through the WeChat login state (signed in first, in WeChat)
    (/[?&]scanid=/.test(location.search) && location.pathname !== SCAN_APPROVAL_PATH) ||
    // Google's code comes back to /login/google, which is not WeChat's business
    (/[?&]code=/.test(location.search) && location.pathname !== GOOGLE_RETURN_PATH);

  configureHttp({
    currentPath: () => location.pathname,
    language: () => i18n.language,
    // The words for a refusal come with the first refusal: the first page has no need of them.
    onRequestError: (error) =>
      error.unreachable
        ? toast({ title: i18n.t('errors.unreachable'), variant: 'destructive' })
        : void import('../i18n/refusal').then(({ refusalKey }) =>
            toast({ title: i18n.t('errors.requestException'), description: i18n.t(refusalKey(error)), variant: 'destructive' }),
          ),
    unreachableMessage: () => i18n.t('errors.unreachable'),
    // No one is signed in any more: the operations area's guard, which watches the app, sends an
    // operator to login with the way back (operations-actors.ts).
    onUnauthorized: () => app.send({ type: 'session.expired' }),
    // A refusal for the person's role: their account is read again, so what the app offers
    // (the header's Operations and Admin, the operations door) follows the role they have now.
    onForbidden: () => app.send({ type: 'session.refresh' }),
  });

  return {
    app,
    /** The chat actor, once a screen has attached it (`useChatActor`). */
    get chat(): ChatActor {
      if (!chat) throw new Error('the chat actor is created by the first screen that needs it (useChatActor)');
      return chat;
    },
    attachChat,
    /** The chat actor if a screen has created it, else null (a shortcut never creates it). */
    peekChat: (): ChatActor | null => chat,
    loadChat,
    homeDraft,
    changeHomeDraft,
    askFromHome,
    preferences,
    screenEvents,
    toast,
    dismissToast,
    attachWechat,
    leavePage,
    /** The inspector the app's actors report to (none unless `?inspect`); screens' actors use it too. */
    inspect,
    start() {
      preferences.start();
      app.start();
      homeDraft.start();
      window.addEventListener('online', onOnline);
    },
    stop() {
      window.removeEventListener('online', onOnline);
      chat?.stop();
      homeDraft.stop();
      app.stop();
      wechatActors?.wechatLogin.stop();
      preferences.stop();
      i18n.off('languageChanged', onLanguageChanged);
    },
  };
};

export type Runtime = ReturnType<typeof createRuntime>;
