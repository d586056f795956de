import { OFFLINE_KEEPER_KEY, readOfflineKeeper, removePreference, writePreference } from './storage';

/**
 * The conversations a signed-in person read in this browser, kept in IndexedDB so that the
 * installed app, started without the network, can still show them. Every row carries its user's
 * id and is read back for that user only; the runtime empties the library as soon as nobody, or
 * somebody else, is signed in here (src/app/runtime.ts). Without IndexedDB (a browser that refuses
 * it) nothing is kept and nothing is found.
 */

export type KeptMessage = {
  role: 'user' | 'assistant';
  content: string;
  /** Only settled messages are kept: an answer complete, or cut short or failed as the chat showed it. */
  status: 'complete' | 'incomplete' | 'failed';
  /** When the server stored it (ISO 8601), as the chat showed it. */
  sentAt: string | null;
  /** An answer's model, named as the chat named it. */
  model?: string;
};

export type KeptConversation = {
  conversationId: string;
  title: string;
  /** Who answers, named as the chat named them when it was kept (empty when the page never knew). */
  agentName: string;
  /** The conversation's last change (ISO 8601). */
  updatedAt: string;
  /** When it was last opened or read here (ms since 1970): the newest come first, the oldest go first. */
  readAt: number;
  messages: KeptMessage[];
  /** The oldest messages did not fit the room one conversation has. */
  earlierLeftOut: boolean;
};

export type ConversationToKeep = Omit<KeptConversation, 'readAt' | 'earlierLeftOut'>;

export const KEPT_LIMITS = {
  /** Conversations kept per person: the ones read longest ago go first. */
  conversations: 20,
  /** All of one person's kept conversations together, in bytes of UTF-8. */
  totalBytes: 2 * 1024 * 1024,
  /** One conversation: a longer one keeps its newest messages. */
  conversationBytes: 512 * 1024,
} as const;

type Row = KeptConversation & { userId: string; bytes: number };

const DB_NAME = 'kraken-offline-library';
const STORE = 'conversations';
const BY_USER = 'byUser';

/** Notes whose conversations are kept (`readOfflineKeeper`), so that a start can tell without opening the database. */
const writeOfflineKeeper = (userId: string | null): void =>
  userId === null ? removePreference(OFFLINE_KEEPER_KEY) : writePreference(OFFLINE_KEEPER_KEY, userId, true);

const encoder = new TextEncoder();
const sizeOf = (value: unknown): number => encoder.encode(JSON.stringify(value)).length;

/** The newest messages that fit in `limit` bytes, and whether older ones were left out. */
export const newestThatFit = (messages: KeptMessage[], limit: number = KEPT_LIMITS.conversationBytes) => {
  let bytes = 0;
  let from = messages.length;
  while (from > 0) {
    const size = sizeOf(messages[from - 1]);
    if (bytes + size > limit) break;
    bytes += size;
    from -= 1;
  }
  return { messages: messages.slice(from), earlierLeftOut: from > 0, bytes };
};

/** The rows past the limits, newest read kept first. */
const overLimits = (rows: Row[]): Row[] => {
  let bytes = 0;
  return [...rows]
    .sort((a, b) => b.readAt - a.readAt)
    .filter((row, index) => {
      bytes += row.bytes;
      return index >= KEPT_LIMITS.conversations || bytes > KEPT_LIMITS.totalBytes;
    });
};

let opening: Promise<IDBDatabase> | null = null;
const open = (): Promise<IDBDatabase> => {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: ['userId', 'conversationId'] }).createIndex(BY_USER, 'userId');
    request.onsuccess = () => {
      const db = request.result;
      // Another tab (or a later version) wants the database: let it, and open again when needed.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB did not open'));
  });
  opening.catch(() => {
    opening = null;
  });
  return opening;
};

const answered = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });

/** Runs `work` in one transaction and settles once the transaction has committed. */
const transact = async <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => Promise<T>): Promise<T> => {
  const transaction = (await open()).transaction(STORE, mode);
  const committed = new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
  });
  const [value] = await Promise.all([work(transaction.objectStore(STORE)), committed]);
  return value;
};

/**
 * One operation at a time, in the order asked: a conversation kept just before a sign-out is
 * written before the sign-out empties the library, never after it.
 */
let queue: Promise<unknown> = Promise.resolve();
const inTurn = <T>(work: () => Promise<T>, without: T): Promise<T> => {
  if (typeof indexedDB === 'undefined') return Promise.resolve(without);
  const next = queue.then(work);
  queue = next.catch(() => undefined);
  return next;
};

/** Keeps (or refreshes) one conversation for this user, and drops the ones past the limits. */
export const keepConversation = (userId: string, conversation: ConversationToKeep): Promise<void> => {
  if (typeof indexedDB === 'undefined') return Promise.resolve();
  writeOfflineKeeper(userId);
  const fitted = newestThatFit(conversation.messages);
  const row: Row = {
    ...conversation,
    messages: fitted.messages,
    earlierLeftOut: fitted.earlierLeftOut,
    readAt: Date.now(),
    userId,
    bytes: fitted.bytes + sizeOf([conversation.title, conversation.agentName]),
  };
  return inTurn(
    () =>
      transact('readwrite', async (store) => {
        store.put(row);
        const rows = await answered(store.index(BY_USER).getAll(userId) as IDBRequest<Row[]>);
        for (const stale of overLimits(rows)) store.delete([userId, stale.conversationId]);
      }),
    undefined,
  );
};

/** This user's kept conversations, the one read last first. */
export const readKept = (userId: string): Promise<KeptConversation[]> =>
  inTurn(async () => {
    const rows = await transact('readonly', (store) => answered(store.index(BY_USER).getAll(userId) as IDBRequest<Row[]>));
    return rows
      .sort((a, b) => b.readAt - a.readAt)
      .map(({ userId: _user, bytes: _bytes, ...kept }) => kept);
  }, []);

/** The conversations kept for the account last signed in here, if any (at a start without the network). */
export const readLastAccountsKept = (): Promise<KeptConversation[]> => {
  const keeper = readOfflineKeeper();
  return keeper === null ? Promise.resolve([]) : readKept(keeper);
};

/** Empties the library of everyone but `userId` (of everyone, when null). It settles, never fails: a sign-out goes on. */
export const forgetKeptExcept = (userId: string | null): Promise<void> => {
  writeOfflineKeeper(userId);
  return inTurn(
    () =>
      transact('readwrite', async (store) => {
        if (userId === null) {
          store.clear();
          return;
        }
        const keys = await answered(store.getAllKeys());
        for (const key of keys) if (Array.isArray(key) && key[0] !== userId) store.delete(key);
      }),
    undefined,
  ).catch(() => undefined);
};

/** Takes out a conversation its person deleted (a library that keeps nothing is not opened for it). */
export const forgetConversation = (conversationId: string): Promise<void> =>
  readOfflineKeeper() === null
    ? Promise.resolve()
    : inTurn(
        () =>
          transact('readwrite', async (store) => {
            const keys = await answered(store.getAllKeys());
            for (const key of keys) if (Array.isArray(key) && key[1] === conversationId) store.delete(key);
          }),
        undefined,
      );
