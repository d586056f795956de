const PREFIX = 'ai-chat-ops:';

export const PREFERENCE_KEYS = ['lastAgentId', 'lastAgentInfo', 'lastChatId', 'firstPage', 'theme'] as const;
/** Kept like the preferences, per user, but read by the chat rather than the preferences machine. */
export const CHAT_DRAFTS_KEY = 'chatDrafts';
/** The model chosen per conversation (machines/model-choice.machine.ts), kept like the drafts. */
export const CHAT_MODELS_KEY = 'chatModels';
/**
 * Whose conversations this browser keeps for reading offline (services/offline-library.ts writes
 * it): read without opening IndexedDB, so a browser that keeps none never opens it.
 */
export const OFFLINE_KEEPER_KEY = 'offlineKeeper';
export type PreferenceKey = (typeof PREFERENCE_KEYS)[number] | typeof CHAT_DRAFTS_KEY | typeof CHAT_MODELS_KEY | typeof OFFLINE_KEEPER_KEY;

/**
 * What a person wrote or opened, as opposed to how they like the page (theme, first page): removed
 * when they sign out, so the next person at a shared browser cannot read it.
 */
const PERSONAL_KEYS = [CHAT_DRAFTS_KEY, CHAT_MODELS_KEY, 'lastChatId', 'lastAgentId', 'lastAgentInfo'] as const satisfies readonly PreferenceKey[];

type Stored<T> = { userId: string; value: T };

/** A stored value with whose it is; nothing when unset or unreadable. */
const readStored = <T>(key: PreferenceKey): Stored<T> | null => {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw ? (JSON.parse(raw) as Stored<T> | null) : null;
  } catch {
    return null;
  }
};

/**
 * Per-user preferences in localStorage. Each value is saved with the id of the user it belongs to
 * and read back only for that user, so a shared browser never shows one person another's choices.
 * Visitors use the id "visitor".
 */
export const readPreference = <T>(key: PreferenceKey, userId: string): T | null => {
  const stored = readStored<T>(key);
  return stored && stored.userId === userId ? stored.value : null;
};

export const writePreference = <T>(key: PreferenceKey, userId: string, value: T): void => {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify({ userId, value } satisfies Stored<T>));
  } catch {
    // Storage can be full or disabled (private mode); preferences are a convenience, not data.
  }
};

export const removePreference = (key: PreferenceKey): void => {
  try {
    localStorage.removeItem(PREFIX + key);
  } catch {
    // see writePreference
  }
};

/** The account whose conversations this browser keeps for reading offline, or null. */
export const readOfflineKeeper = (): string | null => readStored(OFFLINE_KEEPER_KEY)?.userId ?? null;

/** Removes what this user wrote or opened; a value saved for someone else (a visitor) stays. */
export const forgetPersonalPreferences = (userId: string): void => {
  for (const key of PERSONAL_KEYS) if (readStored(key)?.userId === userId) removePreference(key);
};
