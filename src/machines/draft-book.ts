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
