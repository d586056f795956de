/** One unsent text per place: a conversation's id, or `new:<agentId>` for a new chat. */
export type DraftBook = Record<string, { text: string; at: number }>;

/** How many drafts are kept; the oldest go first. */
export const MAX_DRAFTS = 30;

/** Where a new chat with this agent keeps its unsent text. */
export const newChatScope = (agentId: string): string => `new:${agentId}`;

/** The book with this place's text (none when empty), the oldest dropped past the bound. */
export const writeDraft = (book: DraftBook, scope: string, text: string): DraftBook => {
  const { [scope]: _old, ...others } = book;
  if (!text) return others;
  const at = Math.max(0, ...Object.values(others).map((entry) => entry.at)) + 1;
  const kept = Object.entries(others)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_DRAFTS - 1);
  return { ...Object.fromEntries(kept), [scope]: { text, at } };
};

export const draftIn = (book: DraftBook, scope: string): string => book[scope]?.text ?? '';

/**
 * A person's book with what they typed as a visitor before logging in laid over it: the visitor's
 * texts win where both have one, and count as the newest.
 */
export const adoptDrafts = (own: DraftBook, typed: DraftBook): DraftBook =>
  Object.entries(typed)
    .sort(([, a], [, b]) => a.at - b.at)
    .reduce((book, [scope, { text }]) => writeDraft(book, scope, text), own);

/** A person's stored drafts handed to the chat: their own (`drafts.loaded`), or the next person's. */
export type HandedDrafts = { type: 'drafts.loaded' | 'session.changed'; drafts: DraftBook };

type DraftsHolder = {
  getSnapshot: () => { context: { drafts: DraftBook } };
  subscribe: (observer: (snapshot: { context: { drafts: DraftBook } }) => void) => { unsubscribe: () => void };
  send: (event: HandedDrafts) => void;
};

/**
 * Keeps a person's unsent texts: `write` gets the chat's book each time the chat changes it, by a
 * subscription, outside the machine's transitions. A book handed to the chat with `hand` came
 * from storage: it is not written back (storage keeps one person's book, and a book read for
 * someone else must not replace it).
 */
export const keepDrafts = (chat: DraftsHolder, write: (drafts: DraftBook) => void) => {
  let kept = chat.getSnapshot().context.drafts;
  const subscription = chat.subscribe(({ context }) => {
    if (context.drafts === kept) return;
    kept = context.drafts;
    write(kept);
  });
  const hand = (event: HandedDrafts) => {
    kept = event.drafts;
    chat.send(event);
  };
  return { hand, unsubscribe: () => subscription.unsubscribe() };
};
